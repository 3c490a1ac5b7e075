import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { UserEntity } from 'src/modules/users/user.entity';

/** One unused recovery code; it is deleted when used. Only its hash is kept. */
@Entity({ name: 'user_recovery_code' })
@Index('UQ_user_recovery_code_user_hash', ['userId', 'codeHash'], { unique: true })
export class RecoveryCodeEntity {
  @PrimaryGeneratedColumn({ type: 'bigint', primaryKeyConstraintName: 'PK_user_recovery_code' })
  id!: string;

  @Column({ name: 'user_id', type: 'bigint' })
  userId!: string;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'FK_user_recovery_code_user' })
  user?: UserEntity;

  /**
   * SHA-256 (hex) of `recovery:<user id>:<normalised code>`; for a code carried over from Pterodactyl,
   * its bcrypt hash (60 characters, `$2y$…`), hence varchar: char would pad it.
   */
  @Column({ name: 'code_hash', type: 'varchar', length: 64 })
  codeHash!: string;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
