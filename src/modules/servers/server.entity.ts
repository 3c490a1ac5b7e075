import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { EggEntity } from 'src/modules/eggs/egg.entity';
import { UserEntity } from 'src/modules/users/user.entity';

/**
 * A game server. This is the part of the table the egg rules need (an egg in use cannot be
 * deleted); nodes, allocations, limits and the daemon state join it with the servers feature.
 */
@Entity({ name: 'server' })
@Index('UQ_server_uuid', ['uuid'], { unique: true })
@Index('IDX_server_egg_id', ['eggId'])
@Index('IDX_server_owner_id', ['ownerId'])
export class ServerEntity {
  @PrimaryGeneratedColumn({ type: 'bigint', primaryKeyConstraintName: 'PK_server' })
  id!: string;

  @Column({ type: 'uuid' })
  uuid!: string;

  @Column({ type: 'varchar', length: 191 })
  name!: string;

  @Column({ name: 'owner_id', type: 'bigint' })
  ownerId!: string;

  @ManyToOne(() => UserEntity, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'owner_id', foreignKeyConstraintName: 'FK_server_owner' })
  owner?: UserEntity;

  @Column({ name: 'egg_id', type: 'uuid' })
  eggId!: string;

  @ManyToOne(() => EggEntity, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'egg_id', foreignKeyConstraintName: 'FK_server_egg' })
  egg?: EggEntity;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
