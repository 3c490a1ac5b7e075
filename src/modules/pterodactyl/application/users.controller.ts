import { Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { AppConfigService } from 'src/config/app-config.service';
import { HttpRequest } from 'src/common/http/http';
import { DecimalIdPipe } from 'src/common/validation/decimal-id.pipe';
import type { Actor } from 'src/common/auth/current-actor.decorator';
import { StoreUserBody, UpdateUserBody } from 'src/modules/pterodactyl/application/dto/user.dto';
import { ApplicationUsersService, USER_INCLUDES, userView } from 'src/modules/pterodactyl/application/users.service';
import { filtersOf, FractalItem, FractalPage, includesOf, page, pageOf, sortOf } from 'src/modules/pterodactyl/common/fractal';
import { PterodactylBody } from 'src/modules/pterodactyl/common/pterodactyl-body';
import { PterodactylError } from 'src/modules/pterodactyl/common/pterodactyl-errors';
import { applicationPaths, ApplicationRoute, PterodactylActor, PterodactylCaller, PterodactylController, PterodactylRequestOf } from 'src/modules/pterodactyl/common/pterodactyl-route';
import type { ResolvedPterodactylKey } from 'src/modules/pterodactyl/keys/pterodactyl-keys.service';
import { UsersService } from 'src/modules/users/users.service';

const userId = new DecimalIdPipe(PterodactylError.NOT_FOUND);

const FILTERS = ['email', 'uuid', 'username', 'external_id'] as const;

/** Pterodactyl's application users (routes/api-application.php, /users). */
@PterodactylController()
@Controller(applicationPaths('users'))
export class ApplicationUsersController {
  constructor(
    private readonly users: UsersService,
    private readonly pterodactylUsers: ApplicationUsersService,
    private readonly config: AppConfigService,
  ) {}

  @Get()
  @ApplicationRoute('users', 'read')
  async list(@Query() query: Record<string, unknown>, @PterodactylCaller() key: ResolvedPterodactylKey, @PterodactylRequestOf() req: HttpRequest): Promise<FractalPage> {
    const at = pageOf(query);
    const { external_id: externalId, ...filters } = filtersOf(query, FILTERS);
    const [rows, total] = await this.users.findPage(at, { ...filters, externalId }, sortOf(query, ['id', 'uuid'] as const));
    const includes = includesOf(query, USER_INCLUDES);
    return page(await Promise.all(rows.map((u) => this.pterodactylUsers.view(u, includes, key))), total, at, req, this.config.http.appUrl);
  }

  @Get('external/:externalId')
  @ApplicationRoute('users', 'read')
  async external(@Param('externalId') externalId: string, @Query() query: Record<string, unknown>, @PterodactylCaller() key: ResolvedPterodactylKey): Promise<FractalItem> {
    return this.pterodactylUsers.view(await this.users.getByExternalId(externalId), includesOf(query, USER_INCLUDES), key);
  }

  @Get(':id')
  @ApplicationRoute('users', 'read')
  async view(@Param('id', userId) id: string, @Query() query: Record<string, unknown>, @PterodactylCaller() key: ResolvedPterodactylKey): Promise<FractalItem> {
    return this.pterodactylUsers.view(await this.users.get(id), includesOf(query, USER_INCLUDES), key);
  }

  @Post()
  @HttpCode(201)
  @ApplicationRoute('users', 'write')
  async create(@PterodactylBody(StoreUserBody) body: StoreUserBody, @PterodactylActor() actor: Actor): Promise<FractalItem & { meta: { resource: string } }> {
    const user = await this.pterodactylUsers.create(body, actor);
    return { ...userView(user), meta: { resource: new URL(`/api/application/users/${user.id}`, this.config.http.appUrl).toString() } };
  }

  @Patch(':id')
  @ApplicationRoute('users', 'write')
  async update(@Param('id', userId) id: string, @PterodactylBody(UpdateUserBody) body: UpdateUserBody, @PterodactylActor() actor: Actor): Promise<FractalItem> {
    return userView(await this.pterodactylUsers.update(id, body, actor));
  }

  @Delete(':id')
  @HttpCode(204)
  @ApplicationRoute('users', 'write')
  async delete(@Param('id', userId) id: string, @PterodactylActor() actor: Actor): Promise<void> {
    await this.users.delete(id, actor);
  }
}
