import { Transform } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsInt, Matches, Max, Min } from 'class-validator';
import { DECIMAL_ID } from 'src/common/validation/decimal-id.pipe';
import { Optional } from 'src/common/validation/decorators';
import type { NodeDrainEntity, UnplacedServer } from 'src/modules/servers/transfers/node-drain.entity';
import type { ServerTransferEntity, TransferState, TransferStep } from 'src/modules/servers/transfers/server-transfer.entity';
import { ACTIVE_TRANSFER_STATES } from 'src/modules/servers/transfers/server-transfer.entity';

/** Ids are accepted as JSON numbers or strings and handled as decimal strings, like every id of the API. */
const idText = ({ value }: { value: unknown }): unknown => (typeof value === 'number' && Number.isSafeInteger(value) ? String(value) : value);
const idTexts = ({ value }: { value: unknown }): unknown => (Array.isArray(value) ? value.map((v) => idText({ value: v })) : value);

export class StartTransferDto {
  @Transform(idText)
  @Matches(DECIMAL_ID, { message: 'nodeId must be a node id' })
  nodeId!: string;

  /** The new primary allocation: free, on the target node. */
  @Transform(idText)
  @Matches(DECIMAL_ID, { message: 'allocationId must be an allocation id' })
  allocationId!: string;

  /** More allocations on the target node for the server (free ones). */
  @Optional()
  @Transform(idTexts)
  @IsArray()
  @ArrayMaxSize(100)
  @Matches(DECIMAL_ID, { each: true, message: 'additionalAllocationIds must hold allocation ids' })
  additionalAllocationIds?: string[];
}

export class StartDrainDto {
  /** The nodes to move the servers to; without it placement chooses among every other node (the same location first). */
  @Optional()
  @Transform(idTexts)
  @IsArray()
  @ArrayMaxSize(100)
  @Matches(DECIMAL_ID, { each: true, message: 'targetNodeIds must hold node ids' })
  targetNodeIds?: string[];

  /** Transfers running at once (1 to 10, 2 by default). */
  @Optional()
  @IsInt()
  @Min(1)
  @Max(10)
  concurrency?: number;
}

class TransferStepDto {
  state!: TransferState;
  at!: string;
  reason!: string | null;
}

export class TransferDto {
  id!: string;
  serverId!: string;
  /** pending, archiving, restoring (active), then completed, failed or cancelled. */
  state!: TransferState;
  active!: boolean;
  /** Why it failed or was cancelled. */
  reason!: string | null;
  oldNodeId!: string;
  newNodeId!: string;
  oldAllocationId!: string | null;
  oldAdditionalAllocationIds!: string[];
  newAllocationId!: string;
  newAdditionalAllocationIds!: string[];
  /** Every step, oldest first. */
  history!: TransferStepDto[];
  drainId!: string | null;
  createdAt!: string;
  updatedAt!: string;
}

export const toTransferDto = (t: ServerTransferEntity): TransferDto => ({
  id: t.id,
  serverId: t.serverId,
  state: t.state,
  active: ACTIVE_TRANSFER_STATES.includes(t.state),
  reason: t.reason,
  oldNodeId: t.oldNodeId,
  newNodeId: t.newNodeId,
  oldAllocationId: t.oldAllocationId,
  oldAdditionalAllocationIds: t.oldAdditionalAllocationIds.map(String),
  newAllocationId: t.newAllocationId,
  newAdditionalAllocationIds: t.newAdditionalAllocationIds.map(String),
  history: t.history.map((s: TransferStep) => ({ state: s.state, at: s.at, reason: s.reason })),
  drainId: t.drainId,
  createdAt: t.createdAt.toISOString(),
  updatedAt: t.updatedAt.toISOString(),
});

/** Where one server of a drain is. */
class DrainServerDto {
  serverId!: string;
  /** queued, unplaced, or its transfer's state. */
  state!: 'queued' | 'unplaced' | TransferState;
  transferId!: string | null;
  newNodeId!: string | null;
  reason!: string | null;
}

export class DrainDto {
  id!: string;
  nodeId!: string;
  /** running, stopped (no more transfers are queued; those running go on), finished. */
  state!: NodeDrainEntity['state'];
  concurrency!: number;
  targetNodeIds!: string[] | null;
  total!: number;
  completed!: number;
  failed!: number;
  running!: number;
  queued!: number;
  unplaced!: number;
  servers!: DrainServerDto[];
  createdAt!: string;
  updatedAt!: string;
}

export const toDrainDto = (drain: NodeDrainEntity, transfers: ServerTransferEntity[]): DrainDto => {
  const latest = new Map<string, ServerTransferEntity>();
  for (const t of transfers) {
    latest.set(t.serverId, t);
  }
  const unplaced = new Map(drain.unplaced.map((u: UnplacedServer) => [u.serverId, u.reason]));
  const servers = drain.serverIds.map(String).map((serverId): DrainServerDto => {
    const t = latest.get(serverId);
    if (t) {
      return { serverId, state: t.state, transferId: t.id, newNodeId: t.newNodeId, reason: t.reason };
    }
    const why = unplaced.get(serverId);
    return why !== undefined
      ? { serverId, state: 'unplaced', transferId: null, newNodeId: null, reason: why }
      : { serverId, state: 'queued', transferId: null, newNodeId: null, reason: null };
  });
  const count = (pred: (s: DrainServerDto) => boolean): number => servers.filter(pred).length;
  return {
    id: drain.id,
    nodeId: drain.nodeId,
    state: drain.state,
    concurrency: drain.concurrency,
    targetNodeIds: drain.targetNodeIds?.map(String) ?? null,
    total: servers.length,
    completed: count((s) => s.state === 'completed'),
    failed: count((s) => s.state === 'failed' || s.state === 'cancelled'),
    running: count((s) => (ACTIVE_TRANSFER_STATES as readonly string[]).includes(s.state)),
    queued: count((s) => s.state === 'queued'),
    unplaced: count((s) => s.state === 'unplaced'),
    servers,
    createdAt: drain.createdAt.toISOString(),
    updatedAt: drain.updatedAt.toISOString(),
  };
};
