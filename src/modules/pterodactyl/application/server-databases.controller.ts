import { Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { IsString, MaxLength } from 'class-validator';
import { AppException } from 'src/common/errors/app.exception';
import { DecimalIdPipe } from 'src/common/validation/decimal-id.pipe';
import type { Actor } from 'src/common/auth/current-actor.decorator';
import type { DatabaseHostEntity } from 'src/modules/databases/database-host.entity';
import { CreateServerDatabaseDto } from 'src/modules/databases/dto/server-database.dto';
import { DatabaseRecord, ServerDatabasesService } from 'src/modules/databases/server-databases.service';
import { AdminServersService } from 'src/modules/servers/admin-servers.service';
import type { ServerAccess } from 'src/modules/servers/server-access';
import { ServerContextResolver } from 'src/modules/servers/server-context';
import { databaseItem } from 'src/modules/pterodactyl/application/transformers';
import { asHatchery } from 'src/modules/pterodactyl/client/client-validation';
import { atom, FractalItem, FractalList, includesOf, int, item, list, NULL_RESOURCE, withRelationships } from 'src/modules/pterodactyl/common/fractal';
import { LaravelInt } from 'src/modules/pterodactyl/common/laravel-rules';
import { PterodactylBody } from 'src/modules/pterodactyl/common/pterodactyl-body';
import { PterodactylError } from 'src/modules/pterodactyl/common/pterodactyl-errors';
import { applicationPaths, ApplicationRoute, PterodactylActor, PterodactylCaller, PterodactylController } from 'src/modules/pterodactyl/common/pterodactyl-route';
import { keyAllows, ResolvedPterodactylKey } from 'src/modules/pterodactyl/keys/pterodactyl-keys.service';

const idOf = new DecimalIdPipe(PterodactylError.NOT_FOUND);

const INCLUDES = ['password', 'host'] as const;
type Include = (typeof INCLUDES)[number];

/** StoreServerDatabaseRequest: the name, where connections may come from, and the host. */
class StoreServerDatabaseBody {
  @IsString()
  @MaxLength(48)
  database!: string;

  @IsString()
  @MaxLength(60)
  remote!: string;

  @LaravelInt()
  host!: number;
}

/** DatabaseHostTransformer (the password never leaves the panel). */
const hostItem = (h: DatabaseHostEntity): FractalItem =>
  item('database_host', {
    id: int(h.id),
    name: h.name,
    host: h.host,
    port: h.port,
    username: h.username,
    node: h.nodeId === null ? null : int(h.nodeId),
    created_at: atom(h.createdAt),
    updated_at: atom(h.updatedAt),
  });

/**
 * A server's databases on the application API (Application\Servers\DatabaseController), through
 * Hatchery's own database service: its limits, host choice, MariaDB provisioning and activity. The
 * key acts as its owner, an administrator. Hatchery never keeps a password, so `?include=password`
 * carries it only on the answer that made it; elsewhere it is a null resource, and reset-password
 * answers 204 as Pterodactyl does (a host that needs the new one uses the client API's rotate).
 */
@PterodactylController()
@Controller(applicationPaths('servers/:server/databases'))
export class ApplicationServerDatabasesController {
  constructor(
    private readonly databases: ServerDatabasesService,
    private readonly servers: AdminServersService,
    private readonly contexts: ServerContextResolver,
  ) {}

  @Get()
  @ApplicationRoute('server_databases', 'read', 'server')
  async list(@Param('server', idOf) server: string, @Query() query: Record<string, unknown>, @PterodactylCaller() key: ResolvedPterodactylKey): Promise<FractalList> {
    const records = await this.databases.records(await this.access(server, key));
    const includes = includesOf(query, INCLUDES);
    return list(records.map((d) => this.view(d, includes, key)));
  }

  @Get(':database')
  @ApplicationRoute('server_databases', 'read', 'server')
  async get(
    @Param('server', idOf) server: string,
    @Param('database', idOf) database: string,
    @Query() query: Record<string, unknown>,
    @PterodactylCaller() key: ResolvedPterodactylKey,
  ): Promise<FractalItem> {
    const record = await this.databases.record(await this.access(server, key), database);
    return this.view(record, includesOf(query, INCLUDES), key);
  }

  @Post()
  @HttpCode(201)
  @ApplicationRoute('server_databases', 'write', 'server')
  async create(
    @Param('server', idOf) server: string,
    @PterodactylBody(StoreServerDatabaseBody) body: StoreServerDatabaseBody,
    @Query() query: Record<string, unknown>,
    @PterodactylCaller() key: ResolvedPterodactylKey,
    @PterodactylActor() actor: Actor,
  ): Promise<FractalItem> {
    const access = await this.access(server, key);
    const dto = asHatchery(CreateServerDatabaseDto, { name: body.database, remote: body.remote }, (f) => (f === 'name' ? 'database' : f));
    const { meta, record } = await this.databases.create(access, dto, actor, { hostId: String(body.host) });
    return this.view(record, includesOf(query, INCLUDES), key, meta.password);
  }

  @Post(':database/reset-password')
  @HttpCode(204)
  @ApplicationRoute('server_databases', 'write', 'server')
  async resetPassword(
    @Param('server', idOf) server: string,
    @Param('database', idOf) database: string,
    @PterodactylCaller() key: ResolvedPterodactylKey,
    @PterodactylActor() actor: Actor,
  ): Promise<void> {
    await this.databases.rotatePassword(await this.access(server, key), database, actor);
  }

  @Delete(':database')
  @HttpCode(204)
  @ApplicationRoute('server_databases', 'write', 'server')
  async delete(
    @Param('server', idOf) server: string,
    @Param('database', idOf) database: string,
    @PterodactylCaller() key: ResolvedPterodactylKey,
    @PterodactylActor() actor: Actor,
  ): Promise<void> {
    await this.databases.delete(await this.access(server, key), database, actor);
  }

  /** The server as its administrator sees it (404 when there is none). */
  private async access(id: string, key: ResolvedPterodactylKey): Promise<ServerAccess> {
    const { uuid } = await this.servers.get(id);
    const snapshot = await this.contexts.byRef(uuid);
    const access = snapshot && (await this.contexts.forAccount(snapshot, { id: key.user.id, admin: true }));
    if (!access) {
      throw new AppException(PterodactylError.NOT_FOUND);
    }
    return access;
  }

  /** The host include needs read on database hosts, as Pterodactyl's transformer checks; a password exists only when just made. */
  private view(d: DatabaseRecord, includes: Set<Include>, key: ResolvedPterodactylKey, password?: string): FractalItem {
    const relationships: Record<string, FractalItem> = {};
    if (includes.has('host')) {
      relationships.host = keyAllows(key.permissions, 'database_hosts', 'read') ? hostItem(d.host) : NULL_RESOURCE;
    }
    if (includes.has('password')) {
      relationships.password = password === undefined ? NULL_RESOURCE : item('database_password', { password });
    }
    return withRelationships(databaseItem(d), relationships);
  }
}
