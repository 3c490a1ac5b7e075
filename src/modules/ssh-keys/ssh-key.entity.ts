import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { UserEntity } from 'src/modules/users/user.entity';

/** A public key that may sign in to SFTP as its user (docs/wings.md#sftp). */
@Entity({ name: 'user_ssh_key' })
@Index('UQ_user_ssh_key_user_fingerprint', ['userId', 'fingerprint'], { unique: true })
export class SshKeyEntity {
  @PrimaryGeneratedColumn({ type: 'bigint', primaryKeyConstraintName: 'PK_user_ssh_key' })
  id!: string;

  @Column({ name: 'user_id', type: 'bigint' })
  userId!: string;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'FK_user_ssh_key_user' })
  user?: UserEntity;

  @Column({ type: 'varchar', length: 191 })
  name!: string;

  /** `SHA256:<base64 without padding>` of the key blob, as `ssh-keygen -l` prints it. */
  @Column({ type: 'varchar', length: 64 })
  fingerprint!: string;

  /** `<type> <base64>`, without the comment. */
  @Column({ name: 'public_key', type: 'text' })
  publicKey!: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
