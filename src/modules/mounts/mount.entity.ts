import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { EggEntity } from 'src/modules/eggs/egg.entity';
import { NodeEntity } from 'src/modules/nodes/node.entity';
import { ServerEntity } from 'src/modules/servers/server.entity';

/**
 * A directory of the node that servers may see inside their container (docs/admin-mounts.md):
 * `source` on the host, bind-mounted at `target`. A mount is offered to servers whose egg and node
 * it is linked to, and given to those an administrator attaches it to.
 */
@Entity({ name: 'mount' })
@Index('UQ_mount_uuid', ['uuid'], { unique: true })
@Index('UQ_mount_name', ['name'], { unique: true })
export class MountEntity {
  @PrimaryGeneratedColumn({ type: 'bigint', primaryKeyConstraintName: 'PK_mount' })
  id!: string;

  @Column({ type: 'uuid' })
  uuid!: string;

  @Column({ type: 'varchar', length: 64 })
  name!: string;

  @Column({ type: 'text', nullable: true })
  description!: string | null;

  /** Absolute path on the node (checked by mount-paths.ts). */
  @Column({ type: 'varchar', length: 255 })
  source!: string;

  /** Absolute path inside the server's container. */
  @Column({ type: 'varchar', length: 255 })
  target!: string;

  @Column({ name: 'read_only', type: 'boolean', default: false })
  readOnly!: boolean;

  /** Pterodactyl's flag, kept and shown; owners cannot attach mounts themselves (docs/admin-mounts.md). */
  @Column({ name: 'user_mountable', type: 'boolean', default: false })
  userMountable!: boolean;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}

/** The eggs whose servers may be given a mount. */
@Entity({ name: 'egg_mount' })
@Index('IDX_egg_mount_mount_id', ['mountId'])
export class EggMountEntity {
  @PrimaryColumn({ name: 'egg_id', type: 'uuid', primaryKeyConstraintName: 'PK_egg_mount' })
  eggId!: string;

  @PrimaryColumn({ name: 'mount_id', type: 'bigint', primaryKeyConstraintName: 'PK_egg_mount' })
  mountId!: string;

  @ManyToOne(() => EggEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'egg_id', foreignKeyConstraintName: 'FK_egg_mount_egg' })
  egg?: EggEntity;

  @ManyToOne(() => MountEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'mount_id', foreignKeyConstraintName: 'FK_egg_mount_mount' })
  mount?: MountEntity;
}

/** The nodes a mount's source exists on (their config.yml lists it in allowed_mounts). */
@Entity({ name: 'mount_node' })
@Index('IDX_mount_node_node_id', ['nodeId'])
export class MountNodeEntity {
  @PrimaryColumn({ name: 'mount_id', type: 'bigint', primaryKeyConstraintName: 'PK_mount_node' })
  mountId!: string;

  @PrimaryColumn({ name: 'node_id', type: 'bigint', primaryKeyConstraintName: 'PK_mount_node' })
  nodeId!: string;

  @ManyToOne(() => MountEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'mount_id', foreignKeyConstraintName: 'FK_mount_node_mount' })
  mount?: MountEntity;

  @ManyToOne(() => NodeEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'node_id', foreignKeyConstraintName: 'FK_mount_node_node' })
  node?: NodeEntity;
}

/** The servers a mount is attached to. */
@Entity({ name: 'mount_server' })
@Index('IDX_mount_server_server_id', ['serverId'])
export class MountServerEntity {
  @PrimaryColumn({ name: 'mount_id', type: 'bigint', primaryKeyConstraintName: 'PK_mount_server' })
  mountId!: string;

  @PrimaryColumn({ name: 'server_id', type: 'bigint', primaryKeyConstraintName: 'PK_mount_server' })
  serverId!: string;

  @ManyToOne(() => MountEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'mount_id', foreignKeyConstraintName: 'FK_mount_server_mount' })
  mount?: MountEntity;

  @ManyToOne(() => ServerEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'server_id', foreignKeyConstraintName: 'FK_mount_server_server' })
  server?: ServerEntity;
}
