import { Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ArrayMaxSize, IsArray, IsEmail, IsString, MaxLength, MinLength } from 'class-validator';
import { DataSource } from 'typeorm';
import { AppException } from 'src/common/errors/app.exception';
import { isDecimalId } from 'src/common/validation/decimal-id.pipe';
import { Optional } from 'src/common/validation/decorators';
import type { Actor } from 'src/common/auth/current-actor.decorator';
import { DaemonGateway } from 'src/modules/daemon-gateway/daemon.gateway';
import { DatabaseError } from 'src/modules/databases/databases.errors';
import { CreateServerDatabaseDto } from 'src/modules/databases/dto/server-database.dto';
import { ServerDatabasesService } from 'src/modules/databases/server-databases.service';
import { ClientActor, ClientServerRoute } from 'src/modules/pterodactyl/client/client-access';
import { PterodactylClientLookups } from 'src/modules/pterodactyl/client/client-lookups';
import { toHatcheryPermissions } from 'src/modules/pterodactyl/client/client-permissions';
import { allocationItem, databaseItem, subuserItem, variableItem } from 'src/modules/pterodactyl/client/client-transformers';
import { asHatchery } from 'src/modules/pterodactyl/client/client-validation';
import { FractalItem, FractalList, includesOf, item, list, NULL_RESOURCE, withRelationships } from 'src/modules/pterodactyl/common/fractal';
import { PterodactylBody, pterodactylValidationError } from 'src/modules/pterodactyl/common/pterodactyl-body';
import { translating } from 'src/modules/pterodactyl/common/translate';
import { PterodactylError } from 'src/modules/pterodactyl/common/pterodactyl-errors';
import { PterodactylController } from 'src/modules/pterodactyl/common/pterodactyl-route';
import { ClientServerSettingsService } from 'src/modules/servers/client-server-settings.service';
import type { NetworkAllocationDto } from 'src/modules/servers/dto/server-settings.dto';
import { ServerActivityLog } from 'src/modules/servers/server-activity';
import { CurrentServer, ServerAccess } from 'src/modules/servers/server-access';
import { SubuserError } from 'src/modules/servers/subusers/subusers.errors';
import { SubusersService } from 'src/modules/servers/subusers/subusers.service';

class StoreDatabaseBody {
  @IsString()
  database!: string;

  @IsString()
  remote!: string;
}

class AllocationNotesBody {
  @Optional({ nullable: true })
  @IsString()
  @MaxLength(191)
  notes?: string | null;
}

class StoreSubuserBody {
  @IsEmail()
  @MaxLength(191)
  email!: string;

  @IsArray()
  @ArrayMaxSize(100)
  @IsString({ each: true })
  permissions!: string[];
}

class UpdateSubuserBody {
  @IsArray()
  @ArrayMaxSize(100)
  @IsString({ each: true })
  permissions!: string[];
}

class StartupVariableBody {
  @IsString()
  key!: string;

  @Optional({ nullable: true })
  @IsString()
  value?: string | null;
}

class DockerImageBody {
  @IsString()
  @MaxLength(255)
  docker_image!: string;
}

class RenameBody {
  @IsString()
  @MinLength(1)
  @MaxLength(191)
  name!: string;

  @Optional({ nullable: true })
  @IsString()
  @MaxLength(65_535)
  description?: string | null;
}

/** Hatchery's network answer as Pterodactyl's allocation item. */
const networkItem = (a: NetworkAllocationDto): FractalItem => allocationItem(a, a.isDefault ? a.id : null);


/**
 * `/pterodactyl/api/client/servers/{server}`: databases, network, subusers, startup and settings
 * (DatabaseController, NetworkAllocationController, SubuserController, StartupController, SettingsController).
 */
@PterodactylController()
@Controller('pterodactyl/api/client/servers/:server')
export class PterodactylClientServerSettingsController {
  constructor(
    private readonly databases: ServerDatabasesService,
    private readonly subusers: SubusersService,
    private readonly settings: ClientServerSettingsService,
    private readonly lookups: PterodactylClientLookups,
    private readonly activity: ServerActivityLog,
    private readonly daemon: DaemonGateway,
    private readonly db: DataSource,
  ) {}

  /** `?include=password` is a null resource: Hatchery never keeps a password to show again (docs/pterodactyl-compat.md). */
  @Get('databases')
  @ClientServerRoute('server.database.read')
  async listDatabases(@CurrentServer() access: ServerAccess, @Query() query: Record<string, unknown>): Promise<FractalList> {
    const { data } = await this.databases.list(access, { page: 1, perPage: 1000, skip: 0 });
    const withPassword = includesOf(query, ['password'] as const).has('password');
    return list(data.map((d) => (withPassword ? withRelationships(databaseItem(d), { password: NULL_RESOURCE }) : databaseItem(d))));
  }

  /** The password shows here, once, as Hatchery shows it when a database is made. */
  @Post('databases')
  @HttpCode(200)
  @ClientServerRoute('server.database.create')
  async createDatabase(@CurrentServer() access: ServerAccess, @ClientActor() actor: Actor, @PterodactylBody(StoreDatabaseBody) body: StoreDatabaseBody): Promise<FractalItem> {
    const dto = asHatchery(CreateServerDatabaseDto, { name: body.database, remote: body.remote }, (f) => (f === 'name' ? 'database' : f));
    const { data, meta } = await this.databases.create(access, dto, actor);
    const created = databaseItem({ id: data.id, name: data.name, username: data.username, remote: dto.remote, host: { hostname: data.host, port: data.port } });
    return withRelationships(created, { password: item('database_password', { password: meta.password }) });
  }

  @Post('databases/:database/rotate-password')
  @HttpCode(200)
  @ClientServerRoute('server.database.update')
  async rotatePassword(@CurrentServer() access: ServerAccess, @ClientActor() actor: Actor, @Param('database') id: string): Promise<FractalItem> {
    const { data, meta } = await this.databases.rotatePassword(access, databaseRef(id), actor);
    return withRelationships(databaseItem(data), { password: item('database_password', { password: meta.password }) });
  }

  @Delete('databases/:database')
  @HttpCode(204)
  @ClientServerRoute('server.database.delete')
  async deleteDatabase(@CurrentServer() access: ServerAccess, @ClientActor() actor: Actor, @Param('database') id: string): Promise<void> {
    await this.databases.delete(access, databaseRef(id), actor);
  }

  @Get('network/allocations')
  @ClientServerRoute('server.allocation.read')
  async allocations(@CurrentServer() access: ServerAccess): Promise<FractalList> {
    return list((await this.lookups.allocationsOf(access.server.id)).map((a) => allocationItem(a, access.server.allocationId)));
  }

  /** A free allocation of the node, within the server's allocation limit (Hatchery's own rules and activity). */
  @Post('network/allocations')
  @HttpCode(200)
  @ClientServerRoute('server.allocation.create')
  async assignAllocation(@CurrentServer() access: ServerAccess, @ClientActor() actor: Actor): Promise<FractalItem> {
    return networkItem(await this.settings.addAllocation(access, actor));
  }

  @Post('network/allocations/:allocation')
  @HttpCode(200)
  @ClientServerRoute('server.allocation.update')
  async allocationNotes(
    @CurrentServer() access: ServerAccess,
    @ClientActor() actor: Actor,
    @Param('allocation') id: string,
    @PterodactylBody(AllocationNotesBody) body: AllocationNotesBody,
  ): Promise<FractalItem> {
    const allocation = await this.allocationOf(access, id);
    const notes = body.notes === undefined || body.notes === null || body.notes === '' ? null : body.notes;
    return networkItem(await this.settings.setAllocationNotes(access, actor, allocation.id, notes));
  }

  /** The node is told at once, as Hatchery's own route does. */
  @Post('network/allocations/:allocation/primary')
  @HttpCode(200)
  @ClientServerRoute('server.allocation.update')
  async primaryAllocation(@CurrentServer() access: ServerAccess, @ClientActor() actor: Actor, @Param('allocation') id: string): Promise<FractalItem> {
    const allocation = await this.allocationOf(access, id);
    return networkItem(await this.settings.setPrimaryAllocation(access, actor, allocation.id));
  }

  @Delete('network/allocations/:allocation')
  @HttpCode(204)
  @ClientServerRoute('server.allocation.delete')
  async deleteAllocation(@CurrentServer() access: ServerAccess, @ClientActor() actor: Actor, @Param('allocation') id: string): Promise<void> {
    const allocation = await this.allocationOf(access, id);
    await this.settings.removeAllocation(access, actor, allocation.id);
  }

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
    return subuserItem(await this.subusers.view(access, await this.subuserOf(access, uuid)));
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
    return subuserItem(await this.subusers.update(access, actor, await this.subuserOf(access, uuid), toHatcheryPermissions(body.permissions)));
  }

  @Delete('users/:user')
  @HttpCode(204)
  @ClientServerRoute('server.subuser.delete')
  async deleteSubuser(@CurrentServer() access: ServerAccess, @ClientActor() actor: Actor, @Param('user') uuid: string): Promise<void> {
    await this.subusers.remove(access, actor, await this.subuserOf(access, uuid));
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

  private async allocationOf(access: ServerAccess, id: string) {
    const allocation = isDecimalId(id) ? (await this.lookups.allocationsOf(access.server.id)).find((a) => a.id === id) : undefined;
    if (!allocation) {
      throw new AppException(PterodactylError.NOT_FOUND);
    }
    return allocation;
  }

  private async subuserOf(access: ServerAccess, uuid: string): Promise<string> {
    const id = await this.lookups.subuserIdOf(access.server.id, uuid);
    if (!id) {
      throw new AppException(SubuserError.NOT_FOUND);
    }
    return id;
  }
}

const databaseRef = (id: string): string => {
  if (!isDecimalId(id)) {
    throw new AppException(DatabaseError.NOT_FOUND);
  }
  return id;
};
