import { Injectable, Logger } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import type { Actor } from 'src/common/auth/current-actor.decorator';
import { AppException } from 'src/common/errors/app.exception';
import { CommonError } from 'src/common/errors/error-codes';
import { AuditService, changedFields } from 'src/modules/audit/audit.service';
import { DaemonGateway } from 'src/modules/daemon-gateway/daemon.gateway';
import { AdminServerDto, toAdminServer } from 'src/modules/servers/dto/server-response.dto';
import { UpdateServerBuildDto, UpdateServerDetailsDto, UpdateServerStartupDto } from 'src/modules/servers/dto/admin-server.dto';
import { checkEnvironment } from 'src/modules/servers/server-environment';
import { ServerEntity } from 'src/modules/servers/server.entity';
import { ServerError } from 'src/modules/servers/servers.errors';
import type { LoadedServer } from 'src/modules/servers/server.entity';
import { ServersRepository } from 'src/modules/servers/servers.repository';
import { ServerAllocations } from 'src/modules/nodes/server-allocations';
import { EggError } from 'src/modules/eggs/eggs.errors';
import { EggsService } from 'src/modules/eggs/eggs.service';
import { UserError } from 'src/modules/users/users.errors';
import { UsersService } from 'src/modules/users/users.service';
import { about, PanelEvents } from 'src/common/events/panel-events';
import { errorMessage } from 'src/common/errors/error-message';

/** Whether the daemon took the change; the change is saved either way and reaches it on its next sync. */
export interface SyncOutcome {
  daemonSynced: boolean;
  syncError?: string;
}

const AUDITED = ['name', 'description', 'externalId', 'ownerId', 'eggId', 'memory', 'swap', 'disk', 'cpu', 'io', 'threads', 'oomDisabled', 'allocationId',
  'databaseLimit', 'allocationLimit', 'backupLimit', 'startup', 'image', 'skipScripts', 'suspended', 'status'] as const;

/** Administrator changes to an existing server, each told to the daemon afterwards (`/sync`, `/reinstall`). */
@Injectable()
export class AdminServerChangesService {
  private readonly logger = new Logger(AdminServerChangesService.name);

  constructor(
    private readonly servers: ServersRepository,
    private readonly nodeAllocations: ServerAllocations,
    private readonly users: UsersService,
    private readonly daemon: DaemonGateway,
    private readonly audit: AuditService,
    private readonly eggs: EggsService,
    private readonly events: PanelEvents,
  ) {}

  updateDetails(id: string, dto: UpdateServerDetailsDto, actor: Actor): Promise<{ server: AdminServerDto } & SyncOutcome> {
    return this.change(id, actor, 'server.details.updated', async (_server, manager) => {
      if (dto.owner_id !== undefined && !(await this.users.findById(dto.owner_id, manager))) {
        throw new AppException(UserError.NOT_FOUND, { message: 'The owner does not exist' });
      }
      return {
        ...(dto.name !== undefined ? { name: dto.name } : {}),
        ...(dto.description !== undefined ? { description: dto.description } : {}),
        ...(dto.external_id !== undefined ? { externalId: dto.external_id } : {}),
        ...(dto.owner_id !== undefined ? { ownerId: dto.owner_id } : {}),
      };
    });
  }

  updateBuild(id: string, dto: UpdateServerBuildDto, actor: Actor): Promise<{ server: AdminServerDto } & SyncOutcome> {
    return this.change(id, actor, 'server.build.updated', async (server, manager) => {
      const current = (await this.nodeAllocations.of(server.id, manager)).map((a) => a.id);
      const add = [...new Set(dto.add_allocations ?? [])].filter((a) => !current.includes(a));
      const remove = new Set(dto.remove_allocations ?? []);
      const primary = dto.allocation_id ?? String(server.allocationId);
      if (remove.has(primary)) {
        throw new AppException(CommonError.VALIDATION_FAILED, {
          details: [{ field: 'remove_allocations', message: 'the primary allocation cannot be removed; choose another allocation_id first' }],
        });
      }
      const wanted = [...new Set([...add, ...(current.includes(primary) ? [] : [primary])])];
      if (wanted.length > 0) {
        const free = await this.nodeAllocations.lockFree(server.nodeId, wanted, manager);
        const missing = wanted.filter((w) => !free.some((f) => f.id === w));
        if (missing.length > 0) {
          throw new AppException(ServerError.ALLOCATION_UNAVAILABLE, { details: { allocationIds: missing } });
        }
        await this.nodeAllocations.assign(server.id, wanted, manager);
      }
      await this.nodeAllocations.release(server.id, [...remove].filter((r) => current.includes(r)), manager);
      return {
        memory: dto.memory ?? server.memory,
        swap: dto.swap ?? server.swap,
        disk: dto.disk ?? server.disk,
        cpu: dto.cpu ?? server.cpu,
        io: dto.io ?? server.io,
        threads: dto.threads === undefined ? server.threads : dto.threads,
        oomDisabled: dto.oom_disabled ?? server.oomDisabled,
        allocationId: primary,
        databaseLimit: dto.database_limit ?? server.databaseLimit,
        allocationLimit: dto.allocation_limit ?? server.allocationLimit,
        backupLimit: dto.backup_limit ?? server.backupLimit,
      };
    });
  }

  /**
   * The startup command, image, variable values, and the egg. Another egg (`egg_id`) brings its own
   * variables: the server's values are replaced by the given ones, checked by the new egg's rules,
   * and the egg's defaults for the rest; the startup command becomes the given one or the egg's, the
   * image the given one, else the current one when the new egg offers it, else the egg's default.
   * The server is not reinstalled (as in Pterodactyl): an administrator reinstalls when the new egg
   * needs its files.
   */
  updateStartup(id: string, dto: UpdateServerStartupDto, actor: Actor): Promise<{ server: AdminServerDto } & SyncOutcome> {
    return this.change(id, actor, 'server.startup.updated', async (server, manager) => {
      if (dto.egg_id !== undefined && dto.egg_id !== server.eggId) {
        return this.changeEgg(server, dto, manager);
      }
      if (dto.environment) {
        const variables = await this.eggs.variablesOf(server.eggId, manager);
        const { values, errors } = checkEnvironment(variables, dto.environment, { onlyGiven: true });
        if (errors.length > 0) {
          throw new AppException(CommonError.VALIDATION_FAILED, { details: errors });
        }
        await this.servers.saveServerValues([...values].map(([variableId, value]) => ({ serverId: server.id, variableId, value })), manager);
      }
      return {
        ...(dto.startup !== undefined ? { startup: dto.startup } : {}),
        ...(dto.image !== undefined ? { image: dto.image } : {}),
        ...(dto.skip_scripts !== undefined ? { skipScripts: dto.skip_scripts } : {}),
      };
    });
  }

  private async changeEgg(server: LoadedServer, dto: UpdateServerStartupDto, manager: EntityManager): Promise<Partial<ServerEntity>> {
    const egg = await this.eggs.findEgg(dto.egg_id!, manager);
    if (!egg) {
      throw new AppException(EggError.NOT_FOUND);
    }
    const { values, errors } = checkEnvironment(await this.eggs.variablesOf(egg.id, manager), dto.environment ?? {});
    if (errors.length > 0) {
      throw new AppException(CommonError.VALIDATION_FAILED, { details: errors });
    }
    await this.servers.deleteServerValues(server.id, manager);
    await this.servers.saveServerValues([...values].map(([variableId, value]) => ({ serverId: server.id, variableId, value })), manager);
    const offered = egg.dockerImages.map((d) => d.image);
    return {
      eggId: egg.id,
      startup: dto.startup ?? egg.startup,
      image: dto.image ?? (offered.includes(server.image) ? server.image : egg.dockerImage),
      ...(dto.skip_scripts !== undefined ? { skipScripts: dto.skip_scripts } : {}),
    };
  }

  /** Wings stops a suspended server that is running when it syncs. */
  async setSuspended(id: string, suspended: boolean, actor: Actor): Promise<{ server: AdminServerDto } & SyncOutcome> {
    let changed = false;
    const result = await this.change(id, actor, suspended ? 'server.suspended' : 'server.unsuspended', (server) => {
      changed = server.suspended !== suspended;
      return Promise.resolve({ suspended });
    });
    if (changed) {
      const server = await this.require(id);
      await this.events.publish({ event: suspended ? 'server.suspended' : 'server.unsuspended', ...about(server, server.node) });
    }
    return result;
  }

  /** The daemon stops the server and runs the install script again; the row is marked installing first. */
  async reinstall(id: string, actor: Actor): Promise<AdminServerDto> {
    const server = await this.require(id);
    // Its files are on their way to another node (docs/admin-guide.md#transfers).
    if (server.activeTransfer) {
      throw new AppException(ServerError.TRANSFERRING);
    }
    await this.servers.transaction(async (manager) => {
      await this.servers.update(server.id, { status: 'installing' }, manager);
      await this.audit.record(manager, actor, { action: 'server.reinstalled', targetType: 'server', targetId: id, changes: {} });
    });
    try {
      await this.daemon.reinstall(server.node, server.uuid);
    } catch (e) {
      await this.servers.update(server.id, { status: server.status });
      throw e;
    }
    const after = await this.require(id);
    return toAdminServer(after, await this.nodeAllocations.of(after.id));
  }

  private async change(
    id: string,
    actor: Actor,
    action: string,
    apply: (server: LoadedServer, manager: EntityManager) => Promise<Partial<ServerEntity>>,
  ): Promise<{ server: AdminServerDto } & SyncOutcome> {
    await this.servers.transaction(async (manager) => {
      const before = await this.servers.findById(id, manager);
      if (!before) {
        throw new AppException(ServerError.NOT_FOUND);
      }
      const changes = await apply(before, manager);
      await this.servers.update(before.id, changes, manager);
      const after = { ...before, ...changes };
      await this.audit.record(manager, actor, { action, targetType: 'server', targetId: id, changes: changedFields(before, after, AUDITED) });
    });
    const server = await this.require(id);
    const outcome = await this.sync(server);
    return { server: toAdminServer(server, await this.nodeAllocations.of(server.id)), ...outcome };
  }

  private async sync(server: LoadedServer): Promise<SyncOutcome> {
    try {
      await this.daemon.sync(server.node, server.uuid);
      return { daemonSynced: true };
    } catch (e) {
      const message = errorMessage(e);
      this.logger.warn({ serverId: server.id, error: message }, 'could not sync the server with its daemon');
      return { daemonSynced: false, syncError: message };
    }
  }

  private async require(id: string): Promise<LoadedServer> {
    const server = await this.servers.findById(id);
    if (!server) {
      throw new AppException(ServerError.NOT_FOUND);
    }
    return server;
  }
}
