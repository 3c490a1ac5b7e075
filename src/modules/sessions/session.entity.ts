import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { UserEntity } from 'src/modules/users/user.entity';

@Entity({ name: 'session' })
@Index('UQ_session_token_hash', ['tokenHash'], { unique: true })
@Index('IDX_session_user_id', ['userId'])
export class SessionEntity {
  // A random uuid, not a sequence: session ids appear in URLs and must not be guessable or countable.
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'PK_session' })
  id!: string;

  @Column({ name: 'user_id', type: 'bigint' })
  userId!: string;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'FK_session_user' })
  user?: UserEntity;

  /** SHA-256 (hex) of the cookie value; the value itself is never stored. */
  @Column({ name: 'token_hash', type: 'char', length: 64 })
  tokenHash!: string;

  @Column({ type: 'varchar', length: 64, nullable: true })
  ip!: string | null;

  @Column({ name: 'user_agent', type: 'varchar', length: 512, nullable: true })
  userAgent!: string | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'refreshed_at', type: 'timestamptz' })
  refreshedAt!: Date;

  @Column({ name: 'last_seen_at', type: 'timestamptz' })
  lastSeenAt!: Date;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt!: Date;
}
