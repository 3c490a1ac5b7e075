import { Column, CreateDateColumn, Entity, Generated, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

@Entity({ name: 'user' })
@Index('UQ_user_uuid', ['uuid'], { unique: true })
@Index('UQ_user_username', ['username'], { unique: true })
@Index('UQ_user_email', ['email'], { unique: true })
@Index('UQ_user_external_id', ['externalId'], { unique: true })
// pg_trgm indexes for the user search and list filters (AddListIndexes).
@Index('IDX_user_username_trgm', { synchronize: false })
@Index('IDX_user_email_trgm', { synchronize: false })
@Index('IDX_user_name_trgm', { synchronize: false })
@Index('IDX_user_uuid_trgm', { synchronize: false })
@Index('IDX_user_external_id_trgm', { synchronize: false })
export class UserEntity {
  @PrimaryGeneratedColumn({ type: 'bigint', primaryKeyConstraintName: 'PK_user' })
  id!: string;

  @Column({ type: 'uuid' })
  @Generated('uuid')
  uuid!: string;

  @Column({ type: 'varchar', length: 191 })
  username!: string;

  @Column({ type: 'varchar', length: 191 })
  email!: string;

  @Column({ type: 'varchar', length: 255, default: '' })
  name!: string;

  /** The id a billing system or another outside system knows the account by (Pterodactyl's external_id). */
  @Column({ name: 'external_id', type: 'varchar', length: 191, nullable: true })
  externalId!: string | null;

  /** Pterodactyl's `language` (`en`, `pt_BR`…): read and set through its APIs, and carried over by an import. */
  @Column({ type: 'varchar', length: 5, default: 'en' })
  language!: string;

  @Column({ name: 'password_hash', type: 'text' })
  passwordHash!: string;

  @Column({ type: 'boolean', default: false })
  admin!: boolean;

  /** The administrator roles the user holds (admin_role ids), granting parts of the administration; a full admin needs none. */
  @Column({ name: 'admin_role_ids', type: 'bigint', array: true, default: () => "'{}'" })
  adminRoleIds!: string[];

  @Column({ name: 'two_factor_enabled', type: 'boolean', default: false })
  twoFactorEnabled!: boolean;

  /** Whether the user has a passkey (src/modules/passkeys), kept in the transaction that adds or removes one. */
  @Column({ name: 'has_passkey', type: 'boolean', default: false })
  hasPasskey!: boolean;

  /** Set by an administrator: no sign-in of any kind (password, API key, SFTP) while true. */
  @Column({ type: 'boolean', default: false })
  suspended!: boolean;

  /** When the account was made for an address a server owner added as a subuser; null for every other account. */
  @Column({ name: 'invited_at', type: 'timestamptz', nullable: true })
  invitedAt!: Date | null;

  /** The last password (or two-factor) sign-in that opened a session; null until the first. */
  @Column({ name: 'last_sign_in_at', type: 'timestamptz', nullable: true })
  lastSignInAt!: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
