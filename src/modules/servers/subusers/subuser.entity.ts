import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { ServerEntity } from 'src/modules/servers/server.entity';
import { UserEntity } from 'src/modules/users/user.entity';

/** A user granted some server permissions (docs/permissions.md) on a server they do not own. */
@Entity({ name: 'subuser' })
@Index('UQ_subuser_server_user', ['serverId', 'userId'], { unique: true })
@Index('IDX_subuser_user', ['userId'])
export class SubuserEntity {
  @PrimaryGeneratedColumn({ type: 'bigint', primaryKeyConstraintName: 'PK_subuser' })
  id!: string;

  @Column({ name: 'server_id', type: 'bigint' })
  serverId!: string;

  @ManyToOne(() => ServerEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'server_id', foreignKeyConstraintName: 'FK_subuser_server' })
  server?: ServerEntity;

  @Column({ name: 'user_id', type: 'bigint' })
  userId!: string;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'FK_subuser_user' })
  user?: UserEntity;

  /** Panel permission names, in catalogue order. */
  @Column({ type: 'text', array: true })
  permissions!: string[];

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
