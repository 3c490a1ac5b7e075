import { Column, Entity, JoinColumn, ManyToOne, PrimaryGeneratedColumn, Unique } from 'typeorm';
import { ScheduleEntity } from 'src/modules/schedules/schedule.entity';

export const TASK_ACTIONS = ['command', 'power', 'backup'] as const;
export type TaskAction = (typeof TASK_ACTIONS)[number];

/**
 * One step of a schedule. sequence_id runs 1..n in creation order; deleting a
 * task moves the later ones up, so the unique pair is checked at commit.
 */
@Entity({ name: 'schedule_task' })
@Unique('UQ_schedule_task_sequence', ['scheduleId', 'sequenceId'], { deferrable: 'INITIALLY DEFERRED' })
export class ScheduleTaskEntity {
  @PrimaryGeneratedColumn({ type: 'bigint', primaryKeyConstraintName: 'PK_schedule_task' })
  id!: string;

  @Column({ name: 'schedule_id', type: 'bigint' })
  scheduleId!: string;

  @ManyToOne(() => ScheduleEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'schedule_id', foreignKeyConstraintName: 'FK_schedule_task_schedule' })
  schedule?: ScheduleEntity;

  @Column({ name: 'sequence_id', type: 'integer' })
  sequenceId!: number;

  @Column({ type: 'varchar', length: 16 })
  action!: TaskAction;

  /** The command, the power action, or the backup name. */
  @Column({ type: 'text', default: '' })
  payload!: string;

  /** Seconds to wait before the task runs, 0 to 3600. */
  @Column({ name: 'time_offset', type: 'integer', default: 0 })
  timeOffset!: number;

  @Column({ name: 'continue_on_failure', type: 'boolean', default: false })
  continueOnFailure!: boolean;

  /** True from when a run reaches this task until it has run. */
  @Column({ name: 'is_queued', type: 'boolean', default: false })
  isQueued!: boolean;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updatedAt!: Date;
}
