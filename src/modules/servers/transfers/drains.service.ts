import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import type { Actor } from 'src/common/auth/current-actor.decorator';
import { AppException } from 'src/common/errors/app.exception';
import { AuditService } from 'src/modules/audit/audit.service';
import { NodeError } from 'src/modules/nodes/nodes.errors';
import { NodesService } from 'src/modules/nodes/nodes.service';
import { ServerAllocations } from 'src/modules/nodes/server-allocations';
import type { LoadedServer } from 'src/modules/servers/server.entity';
import { ServersRepository } from 'src/modules/servers/servers.repository';
import { DrainDto, StartDrainDto, toDrainDto } from 'src/modules/servers/transfers/dto/transfer.dto';
import type { NodeDrainEntity } from 'src/modules/servers/transfers/node-drain.entity';
import { ACTIVE_TRANSFER_STATES, ServerTransferEntity } from 'src/modules/servers/transfers/server-transfer.entity';
import { TransferError } from 'src/modules/servers/transfers/transfers.errors';
import { TransfersRepository } from 'src/modules/servers/transfers/transfers.repository';
import { TransfersService } from 'src/modules/servers/transfers/transfers.service';
import { errorMessage } from 'src/common/errors/error-message';

const DEFAULT_CONCURRENCY = 2;

const fits = (capacity: number, overallocate: number, used: number, wanted: number): boolean =>
  overallocate === -1 || used + wanted <= capacity * (1 + overallocate / 100);

/**
 * Draining a node (docs/admin-guide.md#draining-a-node): every server it held when the drain started
 * is transferred, at most `concurrency` at once, to a node placement chooses (the same location
 * first, with room and a free allocation) or one of the given targets. The drain lives in the
 * database; it moves on when one of its transfers ends and on every sweeper tick, so a restart
 * loses nothing. A server no node can take is reported as unplaced; a failed transfer is not retried.
 */
@Injectable()
export class DrainsService implements OnModuleInit {
  private readonly logger = new Logger(DrainsService.name);
  /** One advance at a time per drain in this process, so two reports cannot start the same server twice. */
  private readonly advancing = new Map<string, Promise<void>>();

  constructor(
    private readonly repo: TransfersRepository,
    private readonly transfers: TransfersService,
    private readonly servers: ServersRepository,
    private readonly nodes: NodesService,
    private readonly allocations: ServerAllocations,
    private readonly audit: AuditService,
  ) {}

  onModuleInit(): void {
    // Not awaited: the transfer may have ended inside this drain's own step (a source that refused).
    this.transfers.onEnded((t) => {
      if (t.drainId) {
        void this.advance(t.drainId);
      }
      return Promise.resolve();
    });
  }

  async start(nodeId: string, dto: StartDrainDto, actor: Actor): Promise<DrainDto> {
    const node = await this.nodes.findNode(nodeId);
    if (!node) {
      throw new AppException(NodeError.NOT_FOUND);
    }
    const targets = dto.targetNodeIds === undefined ? null : [...new Set(dto.targetNodeIds)];
    if (targets) {
      const found = await Promise.all(targets.map((id) => this.nodes.findNode(id)));
      const bad = targets.filter((id, i) => id === nodeId || !found[i]);
      if (bad.length > 0 || targets.length === 0) {
        throw new AppException(TransferError.DRAIN_TARGETS_INVALID, { status: 422, details: { targetNodeIds: bad } });
      }
    }
    const serverIds = await this.servers.idsOnNode(nodeId);
    const drain = await this.repo.transaction(async (m) => {
      const row = await this.repo.insertDrain(
        { nodeId, state: serverIds.length > 0 ? 'running' : 'finished', concurrency: dto.concurrency ?? DEFAULT_CONCURRENCY, targetNodeIds: targets, serverIds, unplaced: [] },
        m,
      );
      await this.audit.record(m, actor, {
        action: 'node.drain.started',
        targetType: 'node',
        targetId: nodeId,
        changes: { after: { drainId: row.id, servers: serverIds.length, concurrency: row.concurrency, targetNodeIds: targets } },
      });
      return row;
    });
    await this.advance(drain.id);
    return this.view(drain.id);
  }

  /** The node's current drain, else its last one (404 when it was never drained). */
  async get(nodeId: string): Promise<DrainDto> {
    const drain = await this.repo.findLatestDrain(nodeId);
    if (!drain) {
      if (!(await this.nodes.findNode(nodeId))) {
        throw new AppException(NodeError.NOT_FOUND);
      }
      throw new AppException(TransferError.DRAIN_NOT_FOUND);
    }
    return toDrainDto(drain, await this.repo.transfersOfDrain(drain.id));
  }

  /** No more servers are queued; the transfers already running go on to their end. */
  async stop(nodeId: string, actor: Actor): Promise<DrainDto> {
    const drain = await this.repo.findLatestDrain(nodeId);
    if (drain?.state !== 'running') {
      if (!(await this.nodes.findNode(nodeId))) {
        throw new AppException(NodeError.NOT_FOUND);
      }
      throw new AppException(TransferError.DRAIN_NOT_RUNNING);
    }
    await this.repo.transaction(async (m) => {
      await this.repo.updateDrain(drain.id, { state: 'stopped' }, m);
      await this.audit.record(m, actor, { action: 'node.drain.stopped', targetType: 'node', targetId: nodeId, changes: { after: { drainId: drain.id } } });
    });
    return this.view(drain.id);
  }

  /** Moves every running drain on (the sweeper's tick, after a restart too). */
  async advanceAll(): Promise<void> {
    for (const id of await this.repo.findRunningDrainIds()) {
      await this.advance(id);
    }
  }

  /** Starts queued servers while fewer than `concurrency` of the drain's transfers run; finishes it when nothing is left. */
  advance(drainId: string): Promise<void> {
    const previous = this.advancing.get(drainId) ?? Promise.resolve();
    const next = previous.then(() => this.step(drainId)).catch((e: unknown) => this.logger.error(`drain ${drainId}: ${errorMessage(e)}`));
    this.advancing.set(drainId, next);
    void next.finally(() => {
      if (this.advancing.get(drainId) === next) {
        this.advancing.delete(drainId);
      }
    });
    return next;
  }

  private async step(drainId: string): Promise<void> {
    for (;;) {
      const drain = await this.repo.findDrain(drainId);
      if (drain?.state !== 'running') {
        return;
      }
      const transfers = await this.repo.transfersOfDrain(drain.id);
      const tried = new Set([...transfers.map((t) => t.serverId), ...drain.unplaced.map((u) => u.serverId)]);
      const running = transfers.filter((t) => ACTIVE_TRANSFER_STATES.includes(t.state)).length;
      const next = drain.serverIds.map(String).find((id) => !tried.has(id));
      if (next === undefined) {
        if (running === 0) {
          await this.repo.updateDrain(drain.id, { state: 'finished' });
        }
        return;
      }
      if (running >= drain.concurrency) {
        return;
      }
      await this.moveOne(drain, next);
    }
  }

  /** Places and starts one server; what stops it is recorded as unplaced (a transfer refused by the source is recorded as failed). */
  private async moveOne(drain: NodeDrainEntity, serverId: string): Promise<void> {
    const server = await this.servers.findById(serverId);
    if (!server || server.nodeId !== drain.nodeId) {
      await this.unplaced(drain, serverId, 'The server left the node before its turn (deleted or moved)');
      return;
    }
    const place = await this.place(drain, server);
    if (typeof place === 'string') {
      await this.unplaced(drain, serverId, place);
      return;
    }
    try {
      await this.transfers.start(server.id, { nodeId: place.nodeId, allocationId: place.allocationId }, null, drain.id);
    } catch (e) {
      const latest: ServerTransferEntity | null = await this.repo.findLatest(server.id);
      if (latest?.drainId !== drain.id) {
        await this.unplaced(drain, serverId, errorMessage(e));
      }
    }
  }

  private async unplaced(drain: NodeDrainEntity, serverId: string, reason: string): Promise<void> {
    this.logger.warn({ drainId: drain.id, serverId }, `drain could not move the server: ${reason}`);
    await this.repo.updateDrain(drain.id, { unplaced: [...drain.unplaced, { serverId, reason }] });
  }

  /** A node with room (counting servers on their way there) and a free allocation: the given targets, else every other node not in maintenance, the source's location first. */
  private async place(drain: NodeDrainEntity, server: LoadedServer): Promise<{ nodeId: string; allocationId: string } | string> {
    const all = await this.nodes.allNodes();
    const targets = drain.targetNodeIds?.map(String);
    const candidates = all
      .filter((n) => n.id !== drain.nodeId && (targets ? targets.includes(n.id) : !n.maintenanceMode))
      .sort((a, b) => Number(b.locationId === server.node.locationId) - Number(a.locationId === server.node.locationId) || Number(a.id) - Number(b.id));
    const usage = await this.servers.allocatedByNode(candidates.map((n) => n.id));
    for (const node of candidates) {
      const on = usage.get(node.id) ?? { memory: 0, disk: 0 };
      const incoming = await this.repo.incomingUsage(node.id, server.id);
      if (!fits(node.memory, node.memoryOverallocate, on.memory + incoming.memory, server.memory) || !fits(node.disk, node.diskOverallocate, on.disk + incoming.disk, server.disk)) {
        continue;
      }
      const allocation = await this.allocations.findForDeployment([node.id], [], false);
      if (allocation) {
        return { nodeId: node.id, allocationId: allocation.id };
      }
    }
    return candidates.length === 0 ? 'There is no other node to move it to' : 'No node has room for it (memory and disk within overallocation) and a free allocation';
  }

  private async view(id: string): Promise<DrainDto> {
    const drain = await this.repo.findDrain(id);
    if (!drain) {
      throw new AppException(TransferError.DRAIN_NOT_FOUND);
    }
    return toDrainDto(drain, await this.repo.transfersOfDrain(id));
  }
}
