import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { UserEntity } from 'src/modules/users/user.entity';

/**
 * A sign-in that passed the password and waits for its two-factor code (`POST /api/auth/two-factor`).
 * Deleted when it signs in, after its last allowed wrong code, when the password changes, or once expired.
 */
@Entity({ name: 'two_factor_challenge' })
@Index('UQ_two_factor_challenge_hash', ['tokenHash'], { unique: true })
@Index('IDX_two_factor_challenge_user_id', ['userId'])
export class TwoFactorChallengeEntity {
  @PrimaryGeneratedColumn({ type: 'bigint', primaryKeyConstraintName: 'PK_two_factor_challenge' })
  id!: string;

  @Column({ name: 'user_id', type: 'bigint' })
  userId!: string;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'FK_two_factor_challenge_user' })
  user?: UserEntity;

  /** SHA-256 (hex) of the challenge handed to the client; the challenge itself is never stored. */
  @Column({ name: 'token_hash', type: 'char', length: 64 })
  tokenHash!: string;

  /** Codes tried against it so far, the right one included. */
  @Column({ name: 'attempts', type: 'integer', default: 0 })
  attempts!: number;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt!: Date;
}
