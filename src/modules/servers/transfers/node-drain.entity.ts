import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { NodeEntity } from 'src/modules/nodes/node.entity';

/** running; stopped (no more servers are started); finished. */
type DrainState = 'running' | 'stopped' | 'finished';

/** A server the drain could not place, and why. */
export interface UnplacedServer {
  serverId: string;
  reason: string;
}

/**
 * Moving every server off a node (docs/admin-guide.md#draining-a-node): the servers it found when it
 * started, in order; its transfers point back at it (server_transfer.drain_id). At most one runs per node.
 */
@Entity({ name: 'node_drain' })
@Index('UQ_node_drain_running', ['nodeId'], { unique: true, where: "state = 'running'" })
@Index('IDX_node_drain_node_id', ['nodeId'])
export class NodeDrainEntity {
  @PrimaryGeneratedColumn({ type: 'bigint', primaryKeyConstraintName: 'PK_node_drain' })
  id!: string;

  @Column({ name: 'node_id', type: 'bigint' })
  nodeId!: string;

  @ManyToOne(() => NodeEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'node_id', foreignKeyConstraintName: 'FK_node_drain_node' })
  node?: NodeEntity;

  @Column({ type: 'varchar', length: 16 })
  state!: DrainState;

  /** How many of its transfers may run at once. */
  @Column({ type: 'integer' })
  concurrency!: number;

  /** The nodes to move servers to; null lets placement choose among all others. */
  @Column({ name: 'target_node_ids', type: 'bigint', array: true, nullable: true })
  targetNodeIds!: string[] | null;

  /** The servers on the node when the drain started, in the order they are moved. */
  @Column({ name: 'server_ids', type: 'bigint', array: true })
  serverIds!: string[];

  /** Servers no node could take. */
  @Column({ type: 'jsonb', default: () => "'[]'" })
  unplaced!: UnplacedServer[];

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
