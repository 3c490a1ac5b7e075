import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { NodeEntity } from 'src/modules/nodes/node.entity';
import { ServerEntity } from 'src/modules/servers/server.entity';
import { ServerTransferEntity } from 'src/modules/servers/transfers/server-transfer.entity';

@Entity({ name: 'allocation' })
@Index('UQ_allocation_node_ip_port', ['nodeId', 'ip', 'port'], { unique: true })
@Index('IDX_allocation_server_id', ['serverId'])
@Index('IDX_allocation_reserved_by_transfer_id', ['reservedByTransferId'])
// pg_trgm indexes for the server search by address, `ip || ':' || port::text`, and alias (AddListIndexes).
@Index('IDX_allocation_address_trgm', { synchronize: false })
@Index('IDX_allocation_alias_trgm', { synchronize: false })
export class AllocationEntity {
  @PrimaryGeneratedColumn({ type: 'bigint', primaryKeyConstraintName: 'PK_allocation' })
  id!: string;

  @Column({ name: 'node_id', type: 'bigint' })
  nodeId!: string;

  @ManyToOne(() => NodeEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'node_id', foreignKeyConstraintName: 'FK_allocation_node' })
  node?: NodeEntity;

  @Column({ type: 'varchar', length: 45 })
  ip!: string;

  @Column({ type: 'integer' })
  port!: number;

  /** Shown to users instead of the IP (e.g. a hostname). */
  @Column({ type: 'varchar', length: 191, nullable: true })
  alias!: string | null;

  @Column({ type: 'varchar', length: 191, nullable: true })
  notes!: string | null;

  /** The one server this allocation belongs to, if any. */
  @Column({ name: 'server_id', type: 'bigint', nullable: true })
  serverId!: string | null;

  @ManyToOne(() => ServerEntity, { onDelete: 'SET NULL', nullable: true })
  @JoinColumn({ name: 'server_id', foreignKeyConstraintName: 'FK_allocation_server' })
  server?: ServerEntity | null;

  /** The active transfer this free allocation is held for (docs/admin-guide.md#transfers): nothing else may take it. */
  @Column({ name: 'reserved_by_transfer_id', type: 'bigint', nullable: true })
  reservedByTransferId!: string | null;

  @ManyToOne(() => ServerTransferEntity, { onDelete: 'SET NULL', nullable: true })
  @JoinColumn({ name: 'reserved_by_transfer_id', foreignKeyConstraintName: 'FK_allocation_reserved_by_transfer' })
  reservedByTransfer?: ServerTransferEntity | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
