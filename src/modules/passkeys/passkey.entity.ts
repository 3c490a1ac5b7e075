import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { UserEntity } from 'src/modules/users/user.entity';

/** A WebAuthn credential (a passkey) that signs its user in, alone or as the second factor (docs/api.md#passkeys). */
@Entity({ name: 'passkey' })
@Index('UQ_passkey_credential_id', ['credentialId'], { unique: true })
@Index('IDX_passkey_user_id', ['userId'])
export class PasskeyEntity {
  @PrimaryGeneratedColumn({ type: 'bigint', primaryKeyConstraintName: 'PK_passkey' })
  id!: string;

  @Column({ name: 'user_id', type: 'bigint' })
  userId!: string;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'FK_passkey_user' })
  user?: UserEntity;

  @Column({ type: 'varchar', length: 191 })
  name!: string;

  /** The credential's id as the authenticator made it, base64url. */
  @Column({ name: 'credential_id', type: 'text' })
  credentialId!: string;

  /** The COSE public key, base64url. Public: it only checks signatures. */
  @Column({ name: 'public_key', type: 'text' })
  publicKey!: string;

  /** The authenticator's signature counter (a uint32), last seen; 0 for authenticators that keep none. */
  @Column({ type: 'bigint', default: 0 })
  counter!: string;

  /** How the browser may reach the authenticator (`internal`, `hybrid`, `usb`…), as it reported them. */
  @Column({ type: 'text', array: true, default: () => "'{}'" })
  transports!: string[];

  /** Whether the credential is synced (backed up) by its provider, as its last use said. */
  @Column({ name: 'backed_up', type: 'boolean', default: false })
  backedUp!: boolean;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'last_used_at', type: 'timestamptz', nullable: true })
  lastUsedAt!: Date | null;
}
