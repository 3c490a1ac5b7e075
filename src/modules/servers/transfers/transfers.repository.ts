import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, In, LessThan, Repository } from 'typeorm';
import { violations } from 'src/database/pg-errors';
import { NodeDrainEntity, UnplacedServer } from 'src/modules/servers/transfers/node-drain.entity';
import { ACTIVE_TRANSFER_STATES, ServerTransferEntity, TransferState, TransferStep } from 'src/modules/servers/transfers/server-transfer.entity';
import { TransferError } from 'src/modules/servers/transfers/transfers.errors';

/** Server transfers and node drains (the servers module's tables). */
@Injectable()
export class TransfersRepository {
  constructor(@InjectRepository(ServerTransferEntity) private readonly transfers: Repository<ServerTransferEntity>) {}

  transaction<T>(fn: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.transfers.manager.transaction(fn);
  }

  /** A second active transfer of the same server breaks the partial unique index: 409. */
  insert(row: Partial<ServerTransferEntity>, manager: EntityManager): Promise<ServerTransferEntity> {
    const repo = manager.getRepository(ServerTransferEntity);
    return repo.save(repo.create(row)).catch(violations({ UQ_server_transfer_active: TransferError.ALREADY_ACTIVE }));
  }

  findById(id: string, manager: EntityManager = this.transfers.manager): Promise<ServerTransferEntity | null> {
    return manager.getRepository(ServerTransferEntity).findOneBy({ id });
  }

  /** The server's active transfer, locked until the transaction ends when `manager` is given. */
  findActive(serverId: string, manager?: EntityManager): Promise<ServerTransferEntity | null> {
    const query = (manager ?? this.transfers.manager)
      .getRepository(ServerTransferEntity)
      .createQueryBuilder('transfer')
      .where({ serverId, state: In([...ACTIVE_TRANSFER_STATES]) });
    return (manager ? query.setLock('pessimistic_write') : query).getOne();
  }

  /** The server's newest transfer, whatever its state. */
  findLatest(serverId: string, manager: EntityManager = this.transfers.manager): Promise<ServerTransferEntity | null> {
    return manager.getRepository(ServerTransferEntity).findOne({ where: { serverId }, order: { id: 'DESC' } });
  }

  /** Active transfers that have not moved since `before`. */
  findStale(before: Date): Promise<ServerTransferEntity[]> {
    return this.transfers.find({ where: { state: In([...ACTIVE_TRANSFER_STATES]), progressedAt: LessThan(before) }, order: { id: 'ASC' } });
  }

  /**
   * Moves a transfer to `to` if it is still in one of `from`, appending the step to its history;
   * false when it was not (another report, a cancel or the sweeper came first).
   */
  async advance(id: string, from: readonly TransferState[], to: TransferState, reason: string | null, at: Date, manager: EntityManager = this.transfers.manager): Promise<boolean> {
    const step: TransferStep = { state: to, at: at.toISOString(), reason };
    const done = await manager
      .getRepository(ServerTransferEntity)
      .createQueryBuilder()
      .update(ServerTransferEntity)
      .set({ state: to, reason: reason ?? (() => 'reason'), progressedAt: at, history: () => `history || CAST(:step AS jsonb)` })
      .where('id = :id AND state IN (:...from)', { id, from: [...from] })
      .setParameter('step', JSON.stringify([step]))
      .execute();
    return (done.affected ?? 0) > 0;
  }

  /** The memory and disk (MiB) of servers on their way to this node, besides `exceptServerId`. */
  async incomingUsage(nodeId: string, exceptServerId: string, manager: EntityManager = this.transfers.manager): Promise<{ memory: number; disk: number }> {
    const [row] = await manager.query<{ memory: string; disk: string }[]>(
      `SELECT COALESCE(SUM(s.memory), 0) AS memory, COALESCE(SUM(s.disk), 0) AS disk
       FROM server_transfer transfer JOIN server s ON s.id = transfer.server_id
       WHERE transfer.new_node_id = $1 AND transfer.server_id <> $2 AND transfer.state IN ('pending', 'archiving', 'restoring')`,
      [nodeId, exceptServerId],
    );
    return { memory: Number(row.memory), disk: Number(row.disk) };
  }

  // --- drains ---

  /** A second running drain of the same node breaks the partial unique index: 409. */
  insertDrain(row: Partial<NodeDrainEntity>, manager: EntityManager = this.transfers.manager): Promise<NodeDrainEntity> {
    const repo = manager.getRepository(NodeDrainEntity);
    return repo.save(repo.create(row)).catch(violations({ UQ_node_drain_running: TransferError.DRAIN_RUNNING }));
  }

  /** A drain, locked until the transaction ends. */
  lockDrain(id: string, manager: EntityManager): Promise<NodeDrainEntity | null> {
    return manager.getRepository(NodeDrainEntity).createQueryBuilder('drain').setLock('pessimistic_write').where({ id }).getOne();
  }

  findDrain(id: string): Promise<NodeDrainEntity | null> {
    return this.transfers.manager.getRepository(NodeDrainEntity).findOneBy({ id });
  }

  findLatestDrain(nodeId: string): Promise<NodeDrainEntity | null> {
    return this.transfers.manager.getRepository(NodeDrainEntity).findOne({ where: { nodeId }, order: { id: 'DESC' } });
  }

  findRunningDrainIds(): Promise<string[]> {
    return this.transfers.manager
      .getRepository(NodeDrainEntity)
      .find({ where: { state: 'running' }, select: { id: true }, order: { id: 'ASC' } })
      .then((rows) => rows.map((r) => r.id));
  }

  async updateDrain(id: string, changes: { state?: NodeDrainEntity['state']; unplaced?: UnplacedServer[] }, manager: EntityManager = this.transfers.manager): Promise<void> {
    await manager.getRepository(NodeDrainEntity).update({ id }, changes);
  }

  /** Every transfer a drain started, oldest first. */
  transfersOfDrain(drainId: string, manager: EntityManager = this.transfers.manager): Promise<ServerTransferEntity[]> {
    return manager.getRepository(ServerTransferEntity).find({ where: { drainId }, order: { id: 'ASC' } });
  }
}
