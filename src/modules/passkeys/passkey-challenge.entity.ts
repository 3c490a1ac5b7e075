import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { UserEntity } from 'src/modules/users/user.entity';

/** What a WebAuthn challenge was issued for: adding a passkey, a sign-in by passkey alone, or the step after a password. */
export type PasskeyCeremony = 'register' | 'sign_in' | 'second_factor';

/**
 * A WebAuthn challenge the panel issued, waiting for the browser's signed answer. The answer names
 * its challenge; the row is deleted as it is checked, so each works once, and only until it expires.
 */
@Entity({ name: 'passkey_challenge' })
@Index('UQ_passkey_challenge_hash', ['challengeHash'], { unique: true })
@Index('IDX_passkey_challenge_user_id', ['userId'])
@Index('IDX_passkey_challenge_expires_at', ['expiresAt'])
export class PasskeyChallengeEntity {
  @PrimaryGeneratedColumn({ type: 'bigint', primaryKeyConstraintName: 'PK_passkey_challenge' })
  id!: string;

  /** SHA-256 (hex) of the challenge (base64url) handed to the browser. */
  @Column({ name: 'challenge_hash', type: 'char', length: 64 })
  challengeHash!: string;

  @Column({ type: 'varchar', length: 16 })
  ceremony!: PasskeyCeremony;

  /** The user it is for; null for a sign-in by passkey alone, where the passkey names the user. */
  @Column({ name: 'user_id', type: 'bigint', nullable: true })
  userId!: string | null;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'FK_passkey_challenge_user' })
  user?: UserEntity;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt!: Date;
}
