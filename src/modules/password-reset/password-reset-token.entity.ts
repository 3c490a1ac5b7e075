import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { UserEntity } from 'src/modules/users/user.entity';

/** An outstanding password-reset link. Deleted when used, when a newer one is issued, or once expired. */
@Entity({ name: 'password_reset_token' })
@Index('UQ_password_reset_token_hash', ['tokenHash'], { unique: true })
@Index('IDX_password_reset_token_user_id', ['userId'])
export class PasswordResetTokenEntity {
  @PrimaryGeneratedColumn({ type: 'bigint', primaryKeyConstraintName: 'PK_password_reset_token' })
  id!: string;

  @Column({ name: 'user_id', type: 'bigint' })
  userId!: string;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'FK_password_reset_token_user' })
  user?: UserEntity;

  /** SHA-256 (hex) of the token in the link; the token itself is never stored. */
  @Column({ name: 'token_hash', type: 'char', length: 64 })
  tokenHash!: string;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt!: Date;
}
