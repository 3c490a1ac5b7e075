import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { ServerEntity } from 'src/modules/servers/server.entity';

/** A server's schedule (docs/api.md#schedules): a cron time and an ordered list of tasks. */
@Entity({ name: 'schedule' })
@Index('IDX_schedule_server_id', ['serverId'])
@Index('IDX_schedule_due', ['isActive', 'nextRunAt'])
@Index('IDX_schedule_run_progress', ['runProgress'], { where: '"run_progress" IS NOT NULL' })
export class ScheduleEntity {
  @PrimaryGeneratedColumn({ type: 'bigint', primaryKeyConstraintName: 'PK_schedule' })
  id!: string;

  @Column({ name: 'server_id', type: 'bigint' })
  serverId!: string;

  @ManyToOne(() => ServerEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'server_id', foreignKeyConstraintName: 'FK_schedule_server' })
  server?: ServerEntity;

  @Column({ type: 'varchar', length: 191 })
  name!: string;

  @Column({ name: 'cron_minute', type: 'varchar', length: 191 })
  cronMinute!: string;

  @Column({ name: 'cron_hour', type: 'varchar', length: 191 })
  cronHour!: string;

  @Column({ name: 'cron_day_of_month', type: 'varchar', length: 191 })
  cronDayOfMonth!: string;

  @Column({ name: 'cron_month', type: 'varchar', length: 191 })
  cronMonth!: string;

  @Column({ name: 'cron_day_of_week', type: 'varchar', length: 191 })
  cronDayOfWeek!: string;

  @Column({ name: 'is_active', type: 'boolean', default: true })
  isActive!: boolean;

  /** True while a run holds the schedule (see claimToken). */
  @Column({ name: 'is_processing', type: 'boolean', default: false })
  isProcessing!: boolean;

  @Column({ name: 'only_when_online', type: 'boolean', default: false })
  onlyWhenOnline!: boolean;

  /** The run holding the schedule; only it may touch or release the claim. */
  @Column({ name: 'claim_token', type: 'uuid', nullable: true })
  claimToken!: string | null;

  /** The panel process holding the claim, `<host>:<pid>` (null when nobody holds it): for operators. */
  @Column({ name: 'claimed_by', type: 'varchar', length: 191, nullable: true })
  claimedBy!: string | null;

  /** When the holding run last checked in; a claim older than the stale limit is free to take. */
  @Column({ name: 'processing_since', type: 'timestamptz', nullable: true })
  processingSince!: Date | null;

  /**
   * How far the run under way has got: the sequence_id of the last task it began, 0 before the first;
   * null when no run is under way. Kept when a crashed holder's claim is freed: the next claim resumes.
   */
  @Column({ name: 'run_progress', type: 'integer', nullable: true })
  runProgress!: number | null;

  @Column({ name: 'last_run_at', type: 'timestamptz', nullable: true })
  lastRunAt!: Date | null;

  /** Always the next cron time after the last claim or edit, paused or not (UTC). */
  @Column({ name: 'next_run_at', type: 'timestamptz' })
  nextRunAt!: Date;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updatedAt!: Date;
}
