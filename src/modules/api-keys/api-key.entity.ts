import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { UserEntity } from 'src/modules/users/user.entity';

@Entity({ name: 'api_key' })
@Index('UQ_api_key_identifier', ['identifier'], { unique: true })
@Index('UQ_api_key_key_hash', ['keyHash'], { unique: true })
@Index('IDX_api_key_user_id', ['userId'])
export class ApiKeyEntity {
  @PrimaryGeneratedColumn({ type: 'bigint', primaryKeyConstraintName: 'PK_api_key' })
  id!: string;

  /** Public handle used in URLs; tells nothing about the key. */
  @Column({ type: 'varchar', length: 16 })
  identifier!: string;

  @Column({ name: 'user_id', type: 'bigint' })
  userId!: string;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'FK_api_key_user' })
  user?: UserEntity;

  @Column({ type: 'varchar', length: 100 })
  name!: string;

  /** SHA-256 (hex) of the key. */
  @Column({ name: 'key_hash', type: 'char', length: 64 })
  keyHash!: string;

  /** First characters of the key, shown so a user can tell keys apart. */
  @Column({ type: 'varchar', length: 6 })
  start!: string;

  @Column({ type: 'text', array: true, default: () => "'{}'" })
  permissions!: string[];

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt!: Date;

  @Column({ name: 'last_used_at', type: 'timestamptz', nullable: true })
  lastUsedAt!: Date | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
