import { Injectable, Logger } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { Actor } from 'src/common/auth/current-actor.decorator';
import { Clock } from 'src/common/clock';
import { about, PanelEvents } from 'src/common/events/panel-events';
import { AppException } from 'src/common/errors/app.exception';
import { ErrorCategory } from 'src/common/errors/error-codes';
import { AppConfigService } from 'src/config/app-config.service';
import { AuditService } from 'src/modules/audit/audit.service';
import { DaemonGateway, DaemonNode } from 'src/modules/daemon-gateway/daemon.gateway';
import { DaemonTokenSigner } from 'src/modules/daemon-gateway/daemon-token-signer';
import type { NodeEntity } from 'src/modules/nodes/node.entity';
import { NodesService } from 'src/modules/nodes/nodes.service';
import { ServerAllocations } from 'src/modules/nodes/server-allocations';
import { ServerActivityLog } from 'src/modules/servers/server-activity';
import { DaemonServerConfiguration, ServerConfigService } from 'src/modules/servers/server-config.service';
import type { LoadedServer } from 'src/modules/servers/server.entity';
import { ServerError } from 'src/modules/servers/servers.errors';
import { ServersRepository } from 'src/modules/servers/servers.repository';
import { StartTransferDto, toTransferDto, TransferDto } from 'src/modules/servers/transfers/dto/transfer.dto';
import { ACTIVE_TRANSFER_STATES, ServerTransferEntity, TransferState } from 'src/modules/servers/transfers/server-transfer.entity';
import { TransferError } from 'src/modules/servers/transfers/transfers.errors';
import { TransfersRepository } from 'src/modules/servers/transfers/transfers.repository';
import { errorMessage } from 'src/common/errors/error-message';

/** What a node has room for, within its overallocation (-1: no limit), as server creation's placement counts it. */
const fits = (capacity: number, overallocate: number, used: number, wanted: number): boolean =>
  overallocate === -1 || used + wanted <= capacity * (1 + overallocate / 100);

const statusOf = (e: unknown): number | undefined => (e instanceof AppException ? e.status : undefined);

/** How a transfer ended, for whoever waits on it (a drain). */
type TransferEnded = (transfer: ServerTransferEntity) => Promise<void>;

/**
 * Moving a server between nodes (docs/admin-guide.md#transfers), as Pterodactyl's panel does it
 * (docs/wings.md#transfers): the panel reserves the target's allocations and asks the SOURCE node to
 * stream the archive to the TARGET node, which fetches the server's configuration from us (the
 * new allocations) and reports success or failure. Only a success from the target swaps the
 * server's node and allocations; anything else (failure from either node, cancel, silence past
 * TRANSFER_TIMEOUT_S) leaves it whole on the source, frees the reservations and deletes the
 * target's partial copy. Every step is a conditional update of the row, so two reports, a cancel
 * and the sweeper cannot both act on one transfer.
 */
@Injectable()
export class TransfersService {
  private readonly logger = new Logger(TransfersService.name);
  /** Called after each transfer ends (the drain driver subscribes). */
  private readonly endListeners: TransferEnded[] = [];

  constructor(
    private readonly repo: TransfersRepository,
    private readonly servers: ServersRepository,
    private readonly nodes: NodesService,
    private readonly allocations: ServerAllocations,
    private readonly config: ServerConfigService,
    private readonly daemon: DaemonGateway,
    private readonly signer: DaemonTokenSigner,
    private readonly audit: AuditService,
    private readonly activity: ServerActivityLog,
    private readonly clock: Clock,
    private readonly appConfig: AppConfigService,
    private readonly events: PanelEvents,
  ) {}

  onEnded(listener: TransferEnded): void {
    this.endListeners.push(listener);
  }

  /** The server's current transfer, else its last one (404 when it never had one). */
  async latest(serverId: string): Promise<TransferDto> {
    await this.requireServer(serverId);
    const transfer = await this.repo.findLatest(serverId);
    if (!transfer) {
      throw new AppException(TransferError.NOT_FOUND);
    }
    return toTransferDto(transfer);
  }

  /**
   * Checks and reserves in one transaction (the server, the target node and the allocations locked),
   * then asks the source node to start. A source that refuses or cannot be reached fails the
   * transfer at once (reservations released) and its error is returned.
   */
  async start(serverId: string, dto: StartTransferDto, actor: Actor | null, drainId: string | null = null): Promise<TransferDto> {
    const { transfer, server, target } = await this.repo.transaction(async (m) => {
      await this.servers.lockServer(serverId, m);
      const server = await this.servers.findById(serverId, m);
      if (!server) {
        throw new AppException(ServerError.NOT_FOUND);
      }
      if (await this.repo.findActive(server.id, m)) {
        throw new AppException(TransferError.ALREADY_ACTIVE);
      }
      if (server.status === 'installing' || server.status === 'restoring_backup') {
        throw new AppException(ServerError.BUSY, { message: `The server is ${server.status.replace('_', ' ')}; wait for it to finish` });
      }
      if (dto.nodeId === server.nodeId) {
        throw new AppException(TransferError.SAME_NODE, { status: 422 });
      }
      const target = await this.nodes.lockNode(dto.nodeId, m);
      if (!target) {
        throw new AppException(TransferError.TARGET_NODE_NOT_FOUND, { status: 422 });
      }
      await this.requireRoom(server, target, m);
      const additional = [...new Set(dto.additionalAllocationIds ?? [])].filter((id) => id !== dto.allocationId);
      const wanted = [dto.allocationId, ...additional];
      const locked = new Set((await this.allocations.lockFree(target.id, wanted, m)).map((a) => a.id));
      const missing = wanted.filter((id) => !locked.has(id));
      if (missing.length > 0) {
        throw new AppException(ServerError.ALLOCATION_UNAVAILABLE, {
          message: 'These allocations are not free on the target node (taken, held for another transfer, or on another node)',
          details: { allocationIds: missing },
        });
      }
      const old = await this.allocations.of(server.id, m);
      const now = this.clock.now();
      const transfer = await this.repo.insert(
        {
          serverId: server.id,
          oldNodeId: server.nodeId,
          newNodeId: target.id,
          oldAllocationId: server.allocationId,
          oldAdditionalAllocationIds: old.map((a) => a.id).filter((id) => id !== server.allocationId),
          newAllocationId: dto.allocationId,
          newAdditionalAllocationIds: additional,
          state: 'pending',
          reason: null,
          history: [{ state: 'pending', at: now.toISOString(), reason: null }],
          drainId,
          progressedAt: now,
        },
        m,
      );
      await this.allocations.reserve(transfer.id, wanted, m);
      // The server's cached views say "transferring" from now on.
      await this.servers.update(server.id, { updatedAt: now }, m);
      const metadata = { transferId: transfer.id, oldNodeId: server.nodeId, newNodeId: target.id, allocationIds: wanted, ...(drainId ? { drainId } : {}) };
      if (actor) {
        await this.audit.record(m, actor, { action: 'server.transfer.started', targetType: 'server', targetId: server.id, changes: { after: metadata } });
        await this.activity.byUser(server.id, actor, 'server.transfer.started', metadata, { manager: m });
      } else {
        await this.activity.bySystem(server.id, 'panel', 'server.transfer.started', metadata, { manager: m });
      }
      return { transfer, server, target };
    });
    try {
      const token = this.signer.transferToken(target, server.uuid);
      await this.daemon.startTransfer(server.node, server.uuid, target, `Bearer ${token}`);
    } catch (e) {
      this.logger.warn({ serverId: server.id, transferId: transfer.id, status: statusOf(e) }, `the source node refused the transfer: ${errorMessage(e)}`);
      // A timeout leaves open whether the source started: it is told to stop, in case it did.
      await this.end(transfer.id, 'failed', `The source node refused the transfer: ${errorMessage(e)}`, { cancelSource: statusOf(e) === 504 });
      if (e instanceof AppException) {
        const details = typeof e.details === 'object' && e.details !== null && !Array.isArray(e.details) ? e.details : {};
        throw new AppException({ code: e.code, category: ErrorCategory.INTERNAL, message: e.message }, { status: e.status, details: { ...details, transferId: transfer.id } });
      }
      throw e;
    }
    // The target may already have asked for the configuration (restoring): then this changes nothing.
    await this.repo.advance(transfer.id, ['pending'], 'archiving', null, this.clock.now());
    return toTransferDto((await this.repo.findById(transfer.id)) ?? transfer);
  }

  /** DELETE: stops the active transfer; 409 when there is none. */
  async cancel(serverId: string, actor: Actor): Promise<TransferDto> {
    const server = await this.requireServer(serverId);
    const transfer = await this.repo.findActive(server.id);
    if (!transfer) {
      throw new AppException(TransferError.NONE_ACTIVE);
    }
    const ended = await this.end(transfer.id, 'cancelled', `Cancelled by ${actor.username}`, { cancelSource: true, actor });
    if (!ended) {
      throw new AppException(TransferError.NONE_ACTIVE, { message: 'The transfer ended before it could be cancelled' });
    }
    return toTransferDto(ended);
  }

  /**
   * `GET /api/remote/servers/{uuid}` from a node the server is not on: its configuration with the
   * NEW allocations, for the target of its active transfer (which moves to `restoring`), else null.
   */
  async targetConfiguration(node: NodeEntity, uuid: string): Promise<DaemonServerConfiguration | null> {
    const server = await this.servers.findByRef(uuid);
    const transfer = server && (await this.repo.findActive(server.id));
    if (!server || !transfer || transfer.newNodeId !== node.id) {
      return null;
    }
    await this.repo.advance(transfer.id, ['pending', 'archiving'], 'restoring', null, this.clock.now());
    const allocations = await this.allocations.reservedBy(transfer.id);
    const moved = Object.assign(Object.create(Object.getPrototypeOf(server) as object) as LoadedServer, server, {
      node,
      nodeId: node.id,
      allocationId: transfer.newAllocationId,
    });
    return this.config.configurationWith(moved, allocations);
  }

  /**
   * The target's `transfer/success`: in one transaction the server moves to the target with the
   * reserved allocations and gives its old ones back; then the old node is told to delete its copy
   * (a failure there is logged: the server already lives on the target).
   */
  async reportSuccess(node: NodeEntity, uuid: string): Promise<void> {
    const { transfer, oldNode, serverId } = await this.repo.transaction(async (m) => {
      const transfer = await this.activeFor(node, uuid, 'success', m);
      if (transfer.newNodeId !== node.id) {
        throw new AppException(TransferError.WRONG_NODE, { message: 'Only the target node reports a successful transfer' });
      }
      await this.servers.lockServer(transfer.serverId, m);
      const server = await this.servers.findById(transfer.serverId, m);
      if (!server) {
        throw new AppException(ServerError.NOT_FOUND);
      }
      const old = await this.allocations.of(server.id, m);
      const wanted = 1 + transfer.newAdditionalAllocationIds.length;
      const taken = await this.allocations.swapForTransfer(server.id, transfer.id, old.map((a) => a.id), m);
      if (taken !== wanted) {
        this.logger.warn({ serverId: server.id, transferId: transfer.id, taken, wanted }, 'a transfer held fewer allocations than it reserved');
      }
      const now = this.clock.now();
      await this.servers.update(server.id, { nodeId: transfer.newNodeId, allocationId: transfer.newAllocationId, updatedAt: now }, m);
      await this.repo.advance(transfer.id, ACTIVE_TRANSFER_STATES, 'completed', null, now, m);
      await this.activity.byDaemon(server.id, 'server.transfer.completed', { transferId: transfer.id, oldNodeId: transfer.oldNodeId, newNodeId: transfer.newNodeId }, { manager: m, at: now });
      return { transfer, oldNode: server.node, serverId: server.id };
    });
    try {
      await this.daemon.deleteServer(oldNode, uuid);
    } catch (e) {
      if (statusOf(e) !== 404) {
        this.logger.warn({ serverId, transferId: transfer.id, nodeId: oldNode.id, status: statusOf(e) }, `the old node did not delete its copy after the transfer: ${errorMessage(e)}`);
      }
    }
    await this.notifyEnded(transfer.id);
  }

  /** A node's `transfer/failure` (the source while archiving, or the target). */
  async reportFailure(node: NodeEntity, uuid: string): Promise<void> {
    const transfer = await this.repo.transaction(async (m) => {
      const transfer = await this.activeFor(node, uuid, 'failure', m);
      return transfer;
    });
    const side = transfer.newNodeId === node.id ? 'target' : 'source';
    await this.end(transfer.id, 'failed', `The ${side} node reported that the transfer failed`, { cancelSource: side === 'target' });
  }

  /**
   * Fails every active transfer that has not moved for TRANSFER_TIMEOUT_S (as of `now`): the same
   * undoing as a reported failure, and the source is told to stop. Answers how many it failed.
   */
  async failStale(now: Date = this.clock.now()): Promise<number> {
    const timeoutMs = this.appConfig.transfers.timeoutMs;
    let failed = 0;
    for (const transfer of await this.repo.findStale(new Date(now.getTime() - timeoutMs))) {
      const reason = `Timed out: no report from the nodes for ${Math.round(timeoutMs / 1000)} s`;
      if (await this.end(transfer.id, 'failed', reason, { cancelSource: true, staleBefore: new Date(now.getTime() - timeoutMs) })) {
        failed++;
      }
    }
    return failed;
  }

  /**
   * Ends an active transfer as failed or cancelled: in one transaction the state (if it is still
   * active, and still stale when `staleBefore` is given) and the reservations; then the nodes are
   * told (the source to stop, the target to delete its partial copy), failures there only logged.
   * Answers the ended row, or null when it was no longer active.
   */
  private async end(
    id: string,
    state: Extract<TransferState, 'failed' | 'cancelled'>,
    reason: string,
    options: { cancelSource: boolean; actor?: Actor; staleBefore?: Date },
  ): Promise<ServerTransferEntity | null> {
    const ended = await this.repo.transaction(async (m) => {
      const transfer = await this.repo.findById(id, m);
      if (!transfer || !ACTIVE_TRANSFER_STATES.includes(transfer.state)) {
        return null;
      }
      await this.servers.lockServer(transfer.serverId, m);
      const current = await this.repo.findActive(transfer.serverId, m);
      if (current?.id !== id || (options.staleBefore && current.progressedAt >= options.staleBefore)) {
        return null;
      }
      const now = this.clock.now();
      await this.repo.advance(id, ACTIVE_TRANSFER_STATES, state, reason, now, m);
      await this.allocations.unreserve(id, m);
      await this.servers.update(transfer.serverId, { updatedAt: now }, m);
      const metadata = { transferId: id, oldNodeId: transfer.oldNodeId, newNodeId: transfer.newNodeId, reason };
      if (options.actor) {
        await this.audit.record(m, options.actor, { action: `server.transfer.${state}`, targetType: 'server', targetId: transfer.serverId, changes: { after: metadata } });
        await this.activity.byUser(transfer.serverId, options.actor, `server.transfer.${state}`, metadata, { manager: m, at: now });
      } else {
        await this.activity.bySystem(transfer.serverId, 'panel', `server.transfer.${state}`, metadata, { manager: m, at: now });
      }
      return this.repo.findById(id, m);
    });
    if (!ended) {
      return null;
    }
    await this.cleanUpNodes(ended, options.cancelSource);
    await this.notifyEnded(ended.id);
    return ended;
  }

  /** Tells the source to stop (409: nothing runs there) and the target to delete its partial copy (404: it has none). */
  private async cleanUpNodes(transfer: ServerTransferEntity, cancelSource: boolean): Promise<void> {
    const server = await this.servers.findById(transfer.serverId);
    if (!server) {
      return;
    }
    const [source, target] = await Promise.all([this.nodes.findNode(transfer.oldNodeId), this.nodes.findNode(transfer.newNodeId)]);
    if (cancelSource && source) {
      await this.tell(source, transfer, 'stop sending the archive', (n) => this.daemon.cancelTransfer(n, server.uuid), 409);
    }
    if (target) {
      await this.tell(target, transfer, 'delete its partial copy', (n) => this.daemon.deleteServer(n, server.uuid), 404);
    }
  }

  private async tell(node: DaemonNode, transfer: ServerTransferEntity, what: string, call: (node: DaemonNode) => Promise<void>, harmless: number): Promise<void> {
    try {
      await call(node);
    } catch (e) {
      if (statusOf(e) !== harmless) {
        this.logger.warn({ transferId: transfer.id, serverId: transfer.serverId, nodeId: node.id, status: statusOf(e) }, `node ${node.id} could not ${what}: ${errorMessage(e)}`);
      }
    }
  }

  /**
   * The active transfer a node reports on, locked; a report about one that has already ended is
   * 409 (it changes nothing), and a node that is neither end of it is refused.
   */
  private async activeFor(node: NodeEntity, uuid: string, what: string, m: EntityManager): Promise<ServerTransferEntity> {
    const server = await this.servers.findByRef(uuid, m);
    if (!server) {
      throw new AppException(ServerError.NOT_FOUND);
    }
    const transfer = await this.repo.findActive(server.id, m);
    if (!transfer) {
      const last = await this.repo.findLatest(server.id, m);
      if (last && (last.newNodeId === node.id || last.oldNodeId === node.id)) {
        this.logger.warn({ serverId: server.id, transferId: last.id, nodeId: node.id, state: last.state }, `a ${what} report for a transfer that already ended was ignored`);
        if (what === 'success' && server.nodeId !== node.id) {
          // A copy that finished after the transfer ended (a late success): the server does not live there.
          void this.tell(node, last, 'delete the copy a late transfer left', (n) => this.daemon.deleteServer(n, server.uuid), 404);
        }
        throw new AppException(TransferError.ENDED, { details: { state: last.state } });
      }
      throw new AppException(ServerError.NOT_FOUND);
    }
    if (transfer.newNodeId !== node.id && transfer.oldNodeId !== node.id) {
      throw new AppException(ServerError.NOT_FOUND);
    }
    return transfer;
  }

  /** Memory and disk of the target within its overallocation, counting servers already on their way there. */
  private async requireRoom(server: LoadedServer, target: NodeEntity, m: EntityManager): Promise<void> {
    const on = (await this.servers.allocatedByNode([target.id], m)).get(target.id) ?? { memory: 0, disk: 0 };
    const incoming = await this.repo.incomingUsage(target.id, server.id, m);
    const memory = on.memory + incoming.memory;
    const disk = on.disk + incoming.disk;
    if (!fits(target.memory, target.memoryOverallocate, memory, server.memory) || !fits(target.disk, target.diskOverallocate, disk, server.disk)) {
      throw new AppException(TransferError.NO_ROOM, {
        details: {
          nodeId: target.id,
          memory: { needed: server.memory, used: memory, total: target.memory, overallocate: target.memoryOverallocate },
          disk: { needed: server.disk, used: disk, total: target.disk, overallocate: target.diskOverallocate },
        },
      });
    }
  }

  private async requireServer(id: string): Promise<LoadedServer> {
    const server = await this.servers.findById(id);
    if (!server) {
      throw new AppException(ServerError.NOT_FOUND);
    }
    return server;
  }

  private async notifyEnded(id: string): Promise<void> {
    const transfer = await this.repo.findById(id);
    if (!transfer) {
      return;
    }
    for (const listener of this.endListeners) {
      await listener(transfer).catch((e: unknown) => this.logger.error(`after transfer ${id} ended: ${errorMessage(e)}`));
    }
    const server = transfer.state === 'completed' || transfer.state === 'failed' ? await this.servers.findById(transfer.serverId) : null;
    if (server) {
      await this.events.publish({
        event: transfer.state === 'completed' ? 'transfer.completed' : 'transfer.failed',
        ...about(server, server.node),
        data: { transferId: transfer.id, oldNodeId: transfer.oldNodeId, newNodeId: transfer.newNodeId, ...(transfer.reason ? { reason: transfer.reason } : {}) },
      });
    }
  }
}
