import { Controller, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import type { Actor } from 'src/common/auth/current-actor.decorator';
import { ClientActor, ClientServerRoute } from 'src/modules/pterodactyl/client/client-access';
import { toHatcheryPermissions } from 'src/modules/pterodactyl/client/client-permissions';
import { subuserItem, variableItem } from 'src/modules/pterodactyl/client/client-transformers';
import { FractalItem, FractalList, list } from 'src/modules/pterodactyl/common/fractal';
import { PterodactylBody, pterodactylValidationError } from 'src/modules/pterodactyl/common/pterodactyl-body';
import { translating } from 'src/modules/pterodactyl/common/translate';
import { PterodactylController } from 'src/modules/pterodactyl/common/pterodactyl-route';
import { ClientServerSettingsService } from 'src/modules/servers/client-server-settings.service';
import { CurrentServer, ServerAccess } from 'src/modules/servers/server-access';
import { SubusersService } from 'src/modules/servers/subusers/subusers.service';
import { DockerImageBody, RenameBody, StartupVariableBody, StoreSubuserBody, UpdateSubuserBody } from 'src/modules/pterodactyl/client/dto/server-settings.dto';

/**
 * `/pterodactyl/api/client/servers/{server}`: subusers, startup and settings (SubuserController, StartupController,
 * SettingsController); its databases and network are PterodactylClientServerDatabasesNetworkController's.
 */
@PterodactylController()
@Controller('pterodactyl/api/client/servers/:server')
export class PterodactylClientServerSettingsController {
  constructor(
    private readonly subusers: SubusersService,
    private readonly settings: ClientServerSettingsService,
  ) {}

  @Get('users')
  @ClientServerRoute('server.subuser.read')
  async listSubusers(@CurrentServer() access: ServerAccess): Promise<FractalList> {
    return list((await this.subusers.list(access)).map(subuserItem));
  }

  /** Pterodactyl's permission names, mapped to Hatchery's (client-permissions.ts); names without an equivalent are dropped. */
  @Post('users')
  @HttpCode(200)
  @ClientServerRoute('server.subuser.create')
  async createSubuser(@CurrentServer() access: ServerAccess, @ClientActor() actor: Actor, @PterodactylBody(StoreSubuserBody) body: StoreSubuserBody): Promise<FractalItem> {
    return subuserItem((await this.subusers.create(access, actor, body.email, toHatcheryPermissions(body.permissions))).subuser);
  }

  @Get('users/:user')
  @ClientServerRoute('server.subuser.read')
  async viewSubuser(@CurrentServer() access: ServerAccess, @Param('user') uuid: string): Promise<FractalItem> {
    return subuserItem(await this.subusers.view(access, await this.subusers.userIdOfUuid(access, uuid)));
  }

  @Post('users/:user')
  @HttpCode(200)
  @ClientServerRoute('server.subuser.update')
  async updateSubuser(
    @CurrentServer() access: ServerAccess,
    @ClientActor() actor: Actor,
    @Param('user') uuid: string,
    @PterodactylBody(UpdateSubuserBody) body: UpdateSubuserBody,
  ): Promise<FractalItem> {
    return subuserItem(await this.subusers.update(access, actor, await this.subusers.userIdOfUuid(access, uuid), toHatcheryPermissions(body.permissions)));
  }

  @Delete('users/:user')
  @HttpCode(204)
  @ClientServerRoute('server.subuser.delete')
  async deleteSubuser(@CurrentServer() access: ServerAccess, @ClientActor() actor: Actor, @Param('user') uuid: string): Promise<void> {
    await this.subusers.remove(access, actor, await this.subusers.userIdOfUuid(access, uuid));
  }

  @Get('startup')
  @ClientServerRoute('server.startup.read')
  async startup(@CurrentServer() access: ServerAccess): Promise<FractalList & { meta: Record<string, unknown> }> {
    const startup = await this.settings.startup(access);
    return {
      ...list(startup.variables.map(variableItem)),
      meta: {
        startup_command: startup.startup,
        docker_images: Object.fromEntries(startup.dockerImages.map((d) => [d.name, d.image])),
        raw_startup_command: startup.rawStartup,
      },
    };
  }

  @Put('startup/variable')
  @ClientServerRoute('server.startup.update')
  async updateVariable(
    @CurrentServer() access: ServerAccess,
    @ClientActor() actor: Actor,
    @PterodactylBody(StartupVariableBody) body: StartupVariableBody,
  ): Promise<FractalItem & { meta: Record<string, unknown> }> {
    const variable = await this.settings.updateVariable(access, actor, body.key, body.value ?? null);
    const startup = await this.settings.startup(access);
    return { ...variableItem(variable), meta: { startup_command: startup.startup, raw_startup_command: startup.rawStartup } };
  }

  @Post('settings/rename')
  @HttpCode(204)
  @ClientServerRoute('server.settings.rename')
  async rename(@CurrentServer() access: ServerAccess, @ClientActor() actor: Actor, @PterodactylBody(RenameBody) body: RenameBody): Promise<void> {
    await this.settings.rename(access, actor, body.name, body.description === undefined ? undefined : (body.description ?? ''));
  }

  @Post('settings/reinstall')
  @HttpCode(202)
  @ClientServerRoute('server.settings.reinstall')
  async reinstall(@CurrentServer() access: ServerAccess, @ClientActor() actor: Actor): Promise<void> {
    await this.settings.reinstall(access, actor);
  }

  /** Another of the egg's images (Hatchery's own route and rules: a custom image an administrator set stays theirs). */
  @Put('settings/docker-image')
  @HttpCode(204)
  @ClientServerRoute('server.startup.docker-image')
  async dockerImage(@CurrentServer() access: ServerAccess, @ClientActor() actor: Actor, @PterodactylBody(DockerImageBody) body: DockerImageBody): Promise<void> {
    await translating(this.settings.setDockerImage(access, actor, body.docker_image), {
      VALIDATION_FAILED: () => pterodactylValidationError([{ field: 'docker_image', rule: 'in', detail: 'The selected docker image is invalid.' }]),
    });
  }
}
