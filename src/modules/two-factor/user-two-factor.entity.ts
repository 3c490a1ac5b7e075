import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { UserEntity } from 'src/modules/users/user.entity';

/** A user's TOTP secret: pending after setup, confirmed once a code proved the authenticator has it. */
@Entity({ name: 'user_two_factor' })
export class UserTwoFactorEntity {
  @PrimaryColumn({ name: 'user_id', type: 'bigint', primaryKeyConstraintName: 'PK_user_two_factor' })
  userId!: string;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'FK_user_two_factor_user' })
  user?: UserEntity;

  /** The base32 secret sealed with SecretBox to `user:<id>:totp`, so it cannot be moved to another row. */
  @Column({ name: 'secret_sealed', type: 'text' })
  secretSealed!: string;

  @Column({ name: 'confirmed_at', type: 'timestamptz', nullable: true })
  confirmedAt!: Date | null;

  /** The last TOTP time step accepted; a code of that step or an earlier one is refused (no replay). */
  @Column({ name: 'last_used_step', type: 'bigint', nullable: true })
  lastUsedStep!: string | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}

/** The row-bound context a TOTP secret is sealed with: a sealed secret copied onto another user's row does not open. */
export const totpSecretContext = (userId: string): string => `user:${userId}:totp`;
