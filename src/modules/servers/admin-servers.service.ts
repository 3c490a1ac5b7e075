import { randomUUID } from 'node:crypto';
import type { ServerListWhere } from 'src/modules/servers/server-list.repository';
import { Injectable, Logger } from '@nestjs/common';
import type { Actor } from 'src/common/auth/current-actor.decorator';
import { AppException } from 'src/common/errors/app.exception';
import { CommonError, ErrorCategory } from 'src/common/errors/error-codes';
import { about, PanelEvents } from 'src/common/events/panel-events';
import { CursorPage, CursorPaginated, cursorPaginated } from 'src/common/http/cursor';
import { Page, paginated, Paginated } from 'src/common/http/pagination';
import { AuditService } from 'src/modules/audit/audit.service';
import { DaemonGateway } from 'src/modules/daemon-gateway/daemon.gateway';
import { DaemonError } from 'src/modules/daemon-gateway/daemon.errors';
import { EggError } from 'src/modules/eggs/eggs.errors';
import { EggsService } from 'src/modules/eggs/eggs.service';
import { NodeError } from 'src/modules/nodes/nodes.errors';
import { NodesService } from 'src/modules/nodes/nodes.service';
import { AdminServerDto, AdminStartupDto, NodeUsageDto, toAdminServer } from 'src/modules/servers/dto/server-response.dto';
import { CreateServerDto } from 'src/modules/servers/dto/admin-server.dto';
import { ServerDeletionSteps } from 'src/modules/servers/server-deletion';
import { checkEnvironment } from 'src/modules/servers/server-environment';
import { ServerError } from 'src/modules/servers/servers.errors';
import type { LoadedServer } from 'src/modules/servers/server.entity';
import { ServerListRepository } from 'src/modules/servers/server-list.repository';
import { ServersRepository } from 'src/modules/servers/servers.repository';
import { ServerAllocations } from 'src/modules/nodes/server-allocations';
import { UserError } from 'src/modules/users/users.errors';
import { UsersService } from 'src/modules/users/users.service';
import type { ListQuery } from 'src/database/like';

@Injectable()
export class AdminServersService {
  private readonly logger = new Logger(AdminServersService.name);

  constructor(
    private readonly servers: ServersRepository,
    private readonly nodeAllocations: ServerAllocations,
    private readonly eggs: EggsService,
    private readonly nodes: NodesService,
    private readonly users: UsersService,
    private readonly daemon: DaemonGateway,
    private readonly audit: AuditService,
    private readonly deletionSteps: ServerDeletionSteps,
    private readonly serverLists: ServerListRepository,
    private readonly events: PanelEvents,
  ) {}

  async list(page: Page, search?: string, where: ServerListWhere = {}, list: ListQuery = {}): Promise<Paginated<AdminServerDto>> {
    const [rows, total] = await this.serverLists.findListPage(where, page.skip, page.perPage, search, list);
    const allocations = await this.nodeAllocations.byServer(rows.map((s) => s.id));
    return paginated(
      rows.map((s) => toAdminServer(s, allocations.get(s.id) ?? [])),
      total,
      page,
    );
  }

  /** The admin list as cursor pages, in id order (a node's servers with `nodeId`). */
  async listByCursor(page: CursorPage, search?: string, where: ServerListWhere = {}): Promise<CursorPaginated<AdminServerDto>> {
    const rows = await this.serverLists.findListKeysetPage(where, page.keyset, page.perPage + 1, search);
    const allocations = await this.nodeAllocations.byServer(rows.slice(0, page.perPage).map((s) => s.id));
    return cursorPaginated(rows, page, (s) => [s.id], (kept) => kept.map((s) => toAdminServer(s, allocations.get(s.id) ?? [])));
  }

  /** How many servers the panel holds. */
  count(): Promise<number> {
    return this.servers.count();
  }

  async get(id: string): Promise<AdminServerDto> {
    return this.view(await this.require(id));
  }

  /** What the servers hold of each node, for choosing a node with room (nodes without servers are left out). */
  usageByNode(): Promise<NodeUsageDto[]> {
    return this.servers.usageByNode();
  }

  /** How many servers are suspended, installing, ..., or ready (the metrics' fleet). */
  countsByState(): Promise<{ state: string; servers: number }[]> {
    return this.servers.countsByState();
  }

  /** The startup command, image and every egg variable with the server's value (read-only and hidden ones too). */
  async startup(id: string): Promise<AdminStartupDto> {
    const server = await this.require(id);
    const variables = await this.eggs.variablesOf(server.eggId);
    const values = new Map((await this.servers.serverValuesOf(server.id)).map((v) => [v.variableId, v.value]));
    return {
      startup: server.startup,
      image: server.image,
      skipScripts: server.skipScripts,
      eggStartup: server.egg.startup,
      dockerImages: server.egg.dockerImages.map((d) => ({ name: d.name, image: d.image })),
      variables: variables.map((v) => ({
        envVariable: v.envVariable,
        name: v.name,
        description: v.description,
        defaultValue: v.defaultValue,
        serverValue: values.get(v.id) ?? v.defaultValue,
        rules: v.rules,
        userViewable: v.userViewable,
        userEditable: v.userEditable,
      })),
    };
  }

  /** The memory and disk (MiB) the servers on each node are given. */
  allocatedByNode(nodeIds: string[]): Promise<Map<string, { memory: number; disk: number }>> {
    return this.servers.allocatedByNode(nodeIds);
  }

  /** Public nodes with room for `memory` and `disk` more MiB within their overallocation (a page of their ids, and the total). */
  deployableNodeIds(locationIds: string[], memory: number, disk: number, page: Page): Promise<[string[], number]> {
    return this.servers.findDeployableNodeIds(locationIds, memory, disk, page.skip, page.perPage);
  }

  /** Where a deployment lands: a free allocation on the first of `nodeIds` that has one that fits. */
  deployAllocation(nodeIds: string[], portRanges: [number, number][], dedicatedIp: boolean): Promise<{ id: string; nodeId: string } | null> {
    return this.nodeAllocations.findForDeployment(nodeIds, portRanges, dedicatedIp);
  }

  nodeOfAllocation(id: string): Promise<string | null> {
    return this.nodeAllocations.nodeOf(id);
  }

  /** These servers with their nodes, eggs and owners (for the Pterodactyl layer's views), in one query, by id (a server deleted meanwhile is absent). */
  async findLoadedMany(ids: string[]): Promise<Map<string, LoadedServer>> {
    return new Map((await this.servers.findByIds(ids)).map((s) => [s.id, s]));
  }

  /** The server a billing system knows by this id. */
  async getByExternalId(externalId: string): Promise<AdminServerDto> {
    const server = await this.servers.findByExternalId(externalId);
    if (!server) {
      throw new AppException(ServerError.NOT_FOUND);
    }
    return this.view(server);
  }

  /**
   * The row (and its allocations and variables) is committed first, because Wings
   * fetches the server's configuration from us before it answers; if the daemon refuses, the
   * server stays with status install_failed and the daemon's error is returned.
   */
  async create(dto: CreateServerDto, actor: Actor): Promise<AdminServerDto> {
    const server = await this.servers.transaction(async (manager) => {
      const ownerId = dto.owner_id ?? actor.userId;
      // One transaction is one connection: its queries go one after another.
      const owner = await this.users.findById(ownerId, manager);
      const node = await this.nodes.findNode(dto.node_id, manager);
      const egg = await this.eggs.findEgg(dto.egg_id, manager);
      if (!owner) {
        throw new AppException(UserError.NOT_FOUND, { message: 'The owner does not exist' });
      }
      if (!node) {
        throw new AppException(NodeError.NOT_FOUND);
      }
      if (!egg) {
        throw new AppException(EggError.NOT_FOUND);
      }
      const variables = await this.eggs.variablesOf(egg.id, manager);
      const { values, errors } = checkEnvironment(variables, dto.environment ?? {});
      if (errors.length > 0) {
        throw new AppException(CommonError.VALIDATION_FAILED, { details: errors });
      }
      const allocationIds = await this.takeAllocations(node.id, dto, manager);
      const uuid = randomUUID();
      const row = await this.servers.insert(
        {
          uuid,
          identifier: uuid.slice(0, 8),
          name: dto.name,
          description: dto.description ?? null,
          externalId: dto.external_id ?? null,
          status: 'installing',
          suspended: false,
          ownerId: owner.id,
          nodeId: node.id,
          eggId: egg.id,
          allocationId: allocationIds[0],
          startup: dto.startup ?? egg.startup,
          image: dto.docker_image ?? egg.dockerImage,
          memory: dto.memory,
          swap: dto.swap ?? 0,
          disk: dto.disk,
          cpu: dto.cpu,
          io: dto.io ?? 500,
          threads: dto.threads ?? null,
          oomDisabled: dto.oom_disabled ?? true,
          databaseLimit: dto.database_limit ?? 0,
          allocationLimit: dto.allocation_limit ?? 0,
          backupLimit: dto.backup_limit ?? 0,
          skipScripts: dto.skip_scripts ?? false,
        },
        manager,
      );
      await this.nodeAllocations.assign(row.id, allocationIds, manager);
      await this.servers.saveServerValues(
        [...values].map(([variableId, value]) => ({ serverId: row.id, variableId, value })),
        manager,
      );
      await this.audit.record(manager, actor, {
        action: 'server.created',
        targetType: 'server',
        targetId: row.id,
        changes: { after: { uuid, name: row.name, ownerId: owner.id, nodeId: node.id, eggId: egg.id, allocationIds } },
      });
      return row;
    });
    const loaded = await this.require(server.id);
    try {
      await this.daemon.createServer(loaded.node, loaded.uuid, dto.start_on_completion ?? false);
    } catch (e) {
      await this.servers.update(loaded.id, { status: 'install_failed' });
      await this.events.publish({ event: 'server.created', ...about(loaded, loaded.node), data: { ownerId: loaded.ownerId } });
      await this.events.publish({ event: 'server.install_failed', ...about(loaded, loaded.node), data: { reinstall: false, reason: 'The daemon refused to create the server' } });
      throw this.refusedCreation(e, loaded);
    }
    await this.events.publish({ event: 'server.created', ...about(loaded, loaded.node), data: { ownerId: loaded.ownerId } });
    return this.view(await this.require(server.id));
  }

  /**
   * The daemon's error with its status and message (docs/api.md#daemon-errors), its details naming the row it
   * left and the address tried, so whoever retries can delete or fix that server rather than add another.
   */
  private refusedCreation(e: unknown, server: LoadedServer): AppException {
    const left = { serverId: server.id, serverUuid: server.uuid, serverStatus: 'install_failed', daemonUrl: server.node.baseUrl };
    if (!(e instanceof AppException)) {
      this.logger.error(`Creating server ${server.id} on node ${server.nodeId} failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
      return new AppException(DaemonError.UNEXPECTED, { details: { nodeId: server.nodeId, ...left } });
    }
    const details = typeof e.details === 'object' && e.details !== null && !Array.isArray(e.details) ? e.details : {};
    return new AppException({ code: e.code, category: ErrorCategory.INTERNAL, message: e.message }, { status: e.status, details: { ...details, ...left } });
  }

  /**
   * Deletes on the daemon, then what other modules keep for the server (its databases on their
   * hosts), then the row; `force` goes on when the daemon or a database host cannot be reached.
   */
  async delete(id: string, force: boolean, actor: Actor): Promise<void> {
    const server = await this.require(id);
    // Deleting it mid-transfer would leave the target's copy behind: cancel the transfer first.
    if (server.activeTransfer) {
      throw new AppException(ServerError.TRANSFERRING, { message: 'The server is being transferred; cancel the transfer before deleting it' });
    }
    try {
      await this.daemon.deleteServer(server.node, server.uuid);
    } catch (e) {
      const status = e instanceof AppException ? e.status : 500;
      // A daemon that no longer knows the server has nothing left to delete.
      if (status !== 404 && !(force && e instanceof AppException && (status === 503 || status === 502))) {
        throw e;
      }
      this.logger.warn({ serverId: id, status }, 'deleting the server without the daemon');
    }
    await this.deletionSteps.runAll(server, { force });
    await this.servers.transaction(async (manager) => {
      await this.servers.delete(server.id, manager);
      await this.audit.record(manager, actor, {
        action: 'server.deleted',
        targetType: 'server',
        targetId: id,
        changes: { before: { uuid: server.uuid, name: server.name, ownerId: server.ownerId, nodeId: server.nodeId }, ...(force ? { after: { force } } : {}) },
      });
    });
    await this.events.publish({ event: 'server.deleted', ...about(server, server.node), data: { ownerId: server.ownerId, force } });
  }

  private async takeAllocations(nodeId: string, dto: CreateServerDto, manager: Parameters<ServersRepository['insert']>[1]): Promise<string[]> {
    const wanted = [...new Set([...(dto.allocation_id ? [dto.allocation_id] : []), ...(dto.additional_allocation_ids ?? [])])];
    if (!dto.allocation_id) {
      const free = await this.nodeAllocations.lockFirstFree(nodeId, manager);
      if (!free) {
        throw new AppException(ServerError.NO_FREE_ALLOCATION);
      }
      wanted.unshift(free.id);
    }
    const locked = await this.nodeAllocations.lockFree(nodeId, [...new Set(wanted)], manager);
    const lockedIds = new Set(locked.map((a) => a.id));
    const missing = [...new Set(wanted)].filter((id) => !lockedIds.has(id));
    if (missing.length > 0) {
      throw new AppException(ServerError.ALLOCATION_UNAVAILABLE, { details: { allocationIds: missing } });
    }
    return [...new Set(wanted)];
  }

  private async require(id: string): Promise<LoadedServer> {
    const server = await this.servers.findById(id);
    if (!server) {
      throw new AppException(ServerError.NOT_FOUND);
    }
    return server;
  }

  private async view(server: LoadedServer): Promise<AdminServerDto> {
    return toAdminServer(server, await this.nodeAllocations.of(server.id));
  }
}
