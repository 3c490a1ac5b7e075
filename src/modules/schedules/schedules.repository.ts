import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, In, Repository } from 'typeorm';
import { THIS_PROCESS } from 'src/common/background/job-queue';
import { ScheduleTaskEntity } from 'src/modules/schedules/schedule-task.entity';
import { ScheduleEntity } from 'src/modules/schedules/schedule.entity';
import { returnedRows } from 'src/database/returned-rows';

/** This panel process, as `claimed_by` names it. */
const CLAIMER = THIS_PROCESS;

/** A stale claim released by `releaseStaleClaims`. */
interface ReleasedClaim {
  id: string;
  serverId: string;
  name: string;
  processingSince: Date;
  /** The run's progress (ScheduleEntity.runProgress), kept for the claim that resumes it. */
  progress: number | null;
}

@Injectable()
export class SchedulesRepository {
  constructor(
    @InjectRepository(ScheduleEntity) private readonly schedules: Repository<ScheduleEntity>,
    @InjectRepository(ScheduleTaskEntity) private readonly tasks: Repository<ScheduleTaskEntity>,
  ) {}

  transaction<T>(fn: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.schedules.manager.transaction(fn);
  }

  // --- the API ---

  findPage(serverId: string, skip: number, take: number): Promise<[ScheduleEntity[], number]> {
    return this.schedules.findAndCount({ where: { serverId }, order: { id: 'ASC' }, skip, take });
  }

  findOnServer(serverId: string, id: string, manager: EntityManager = this.schedules.manager): Promise<ScheduleEntity | null> {
    return manager.getRepository(ScheduleEntity).findOneBy({ id, serverId });
  }

  /** The schedule row, locked until the transaction ends: task changes on one schedule queue behind each other. */
  lockOnServer(serverId: string, id: string, manager: EntityManager): Promise<ScheduleEntity | null> {
    return manager.getRepository(ScheduleEntity).createQueryBuilder('s').setLock('pessimistic_write').where({ id, serverId }).getOne();
  }

  insert(schedule: Partial<ScheduleEntity>, manager: EntityManager = this.schedules.manager): Promise<ScheduleEntity> {
    const repo = manager.getRepository(ScheduleEntity);
    return repo.save(repo.create(schedule));
  }

  async update(id: string, changes: Partial<ScheduleEntity>, manager: EntityManager = this.schedules.manager): Promise<void> {
    await manager.getRepository(ScheduleEntity).update({ id }, changes);
  }

  async delete(id: string, manager: EntityManager = this.schedules.manager): Promise<void> {
    await manager.getRepository(ScheduleEntity).delete({ id });
  }

  tasksOf(scheduleId: string, manager: EntityManager = this.schedules.manager): Promise<ScheduleTaskEntity[]> {
    return manager.getRepository(ScheduleTaskEntity).find({ where: { scheduleId }, order: { sequenceId: 'ASC' } });
  }

  /** The tasks of several schedules in one query, by schedule id, each list in sequence order. */
  async tasksBySchedule(scheduleIds: string[]): Promise<Map<string, ScheduleTaskEntity[]>> {
    const rows = scheduleIds.length === 0 ? [] : await this.tasks.find({ where: { scheduleId: In(scheduleIds) }, order: { sequenceId: 'ASC' } });
    const bySchedule = new Map<string, ScheduleTaskEntity[]>(scheduleIds.map((id) => [id, []]));
    for (const row of rows) {
      bySchedule.get(row.scheduleId)?.push(row);
    }
    return bySchedule;
  }

  findTask(scheduleId: string, id: string, manager: EntityManager = this.schedules.manager): Promise<ScheduleTaskEntity | null> {
    return manager.getRepository(ScheduleTaskEntity).findOneBy({ id, scheduleId });
  }

  insertTask(task: Partial<ScheduleTaskEntity>, manager: EntityManager): Promise<ScheduleTaskEntity> {
    const repo = manager.getRepository(ScheduleTaskEntity);
    return repo.save(repo.create(task));
  }

  /** Removes a task and moves the later ones up one place, so sequence ids stay 1..n. */
  async deleteTask(task: ScheduleTaskEntity, manager: EntityManager): Promise<void> {
    await manager.getRepository(ScheduleTaskEntity).delete({ id: task.id });
    await manager
      .getRepository(ScheduleTaskEntity)
      .createQueryBuilder()
      .update()
      .set({ sequenceId: () => 'sequence_id - 1' })
      .where('schedule_id = :scheduleId AND sequence_id > :sequenceId', { scheduleId: task.scheduleId, sequenceId: task.sequenceId })
      .execute();
  }

  // --- the runner's claims ---

  /**
   * Due schedules nobody holds (or whose holder went stale), locked FOR UPDATE SKIP LOCKED: a row
   * another process is claiming right now is passed over instead of waited for, so each due row
   * goes to exactly one claimer.
   */
  lockDue(now: Date, staleBefore: Date, limit: number, manager: EntityManager): Promise<ScheduleEntity[]> {
    return manager
      .getRepository(ScheduleEntity)
      .createQueryBuilder('s')
      .setLock('pessimistic_write')
      .setOnLocked('skip_locked')
      .where('s.is_active = true AND s.next_run_at <= :now', { now })
      .andWhere('(s.is_processing = false OR s.processing_since < :staleBefore)', { staleBefore })
      .orderBy('s.next_run_at', 'ASC')
      .addOrderBy('s.id', 'ASC')
      .limit(limit)
      .getMany();
  }

  /**
   * Runs a crashed process left half done (their progress kept when their claim was freed), nobody
   * holds now, locked as lockDue locks: each is resumed by exactly one claimer, whatever its cron time.
   */
  lockResumable(staleBefore: Date, limit: number, manager: EntityManager): Promise<ScheduleEntity[]> {
    return manager
      .getRepository(ScheduleEntity)
      .createQueryBuilder('s')
      .setLock('pessimistic_write')
      .setOnLocked('skip_locked')
      .where('s.run_progress IS NOT NULL AND s.is_active = true')
      .andWhere('(s.is_processing = false OR s.processing_since < :staleBefore)', { staleBefore })
      .orderBy('s.id', 'ASC')
      .limit(limit)
      .getMany();
  }

  /** A new run (`nextRunAt` set: its cron time moves on) starts at its first task; a resumed one keeps its progress. */
  async markClaimed(id: string, claim: { token: string; now: Date; nextRunAt?: Date }, manager: EntityManager): Promise<void> {
    await manager.getRepository(ScheduleEntity).update(
      { id },
      { isProcessing: true, claimToken: claim.token, claimedBy: CLAIMER, processingSince: claim.now, ...(claim.nextRunAt ? { nextRunAt: claim.nextRunAt, runProgress: 0 } : {}) },
    );
  }

  /** Claims one schedule for a forced run unless a live run holds it; true when claimed. */
  async claimOne(id: string, token: string, now: Date, staleBefore: Date): Promise<boolean> {
    const result = await this.schedules
      .createQueryBuilder()
      .update(ScheduleEntity)
      .set({ isProcessing: true, claimToken: token, claimedBy: CLAIMER, processingSince: now, runProgress: 0 })
      .where('id = :id AND (is_processing = false OR processing_since < :staleBefore)', { id, staleBefore })
      .returning(['id'])
      .execute();
    return returnedRows(result.raw).length === 1;
  }

  /**
   * The holder checks in, with the sequence_id of the task it is about to begin when it has one; false
   * when the claim is no longer its own (released as stale, or the schedule deleted).
   */
  async touchClaim(id: string, token: string, now: Date, beginning?: number): Promise<boolean> {
    const result = await this.schedules
      .createQueryBuilder()
      .update(ScheduleEntity)
      .set({ processingSince: now, ...(beginning === undefined ? {} : { runProgress: beginning }) })
      .where('id = :id AND claim_token = :token', { id, token })
      .returning(['id'])
      .execute();
    return returnedRows(result.raw).length === 1;
  }

  /** Ends the claim; `resumable`: a run cut short by shutdown keeps its progress, for another claim to go on. */
  async releaseClaim(id: string, token: string, lastRunAt: Date | null, resumable = false): Promise<void> {
    await this.transaction(async (manager) => {
      const result = await manager
        .createQueryBuilder()
        .update(ScheduleEntity)
        .set({ isProcessing: false, claimToken: null, claimedBy: null, processingSince: null, ...(resumable ? {} : { runProgress: null }), ...(lastRunAt ? { lastRunAt } : {}) })
        .where('id = :id AND claim_token = :token', { id, token })
        .returning(['id'])
        .execute();
      if (returnedRows(result.raw).length === 1) {
        await manager.getRepository(ScheduleTaskEntity).update({ scheduleId: id, isQueued: true }, { isQueued: false });
      }
    });
  }

  /**
   * Frees claims whose holder stopped checking in (a crashed process), with their queued tasks; the
   * run's progress stays, so that the next claim resumes it (lockResumable). A holder that checks in
   * meanwhile keeps its claim: the row is locked (or skipped) and re-read.
   */
  async releaseStaleClaims(staleBefore: Date): Promise<ReleasedClaim[]> {
    return this.transaction(async (manager) => {
      const stale = await manager
        .getRepository(ScheduleEntity)
        .createQueryBuilder('s')
        .setLock('pessimistic_write')
        .setOnLocked('skip_locked')
        .where('s.is_processing = true AND s.processing_since < :staleBefore', { staleBefore })
        .getMany();
      if (stale.length === 0) {
        return [];
      }
      const ids = stale.map((s) => s.id);
      await manager.getRepository(ScheduleEntity).update({ id: In(ids) }, { isProcessing: false, claimToken: null, claimedBy: null, processingSince: null });
      await manager.getRepository(ScheduleTaskEntity).update({ scheduleId: In(ids), isQueued: true }, { isQueued: false });
      return stale.map((s) => ({ id: s.id, serverId: s.serverId, name: s.name, processingSince: s.processingSince ?? staleBefore, progress: s.runProgress }));
    });
  }

  async setQueued(taskId: string, isQueued: boolean): Promise<void> {
    await this.tasks.update({ id: taskId }, { isQueued });
  }
}
