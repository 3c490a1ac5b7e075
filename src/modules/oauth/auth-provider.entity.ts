import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { UserEntity } from 'src/modules/users/user.entity';

export type AuthProviderType = 'oidc' | 'discord' | 'github' | 'google';
export const AUTH_PROVIDER_TYPES: readonly AuthProviderType[] = ['oidc', 'discord', 'github', 'google'];

/** A single sign-on provider administrators added (docs/sso.md): an OpenID Connect issuer or a preset. */
@Entity({ name: 'auth_provider' })
export class AuthProviderEntity {
  @PrimaryGeneratedColumn({ type: 'bigint', primaryKeyConstraintName: 'PK_auth_provider' })
  id!: string;

  @Column({ type: 'varchar', length: 64 })
  name!: string;

  @Column({ type: 'varchar', length: 16 })
  type!: AuthProviderType;

  /** `oidc`: the issuer discovery starts from; presets: their own, fixed. */
  @Column({ type: 'varchar', length: 2048 })
  issuer!: string;

  @Column({ name: 'client_id', type: 'varchar', length: 255 })
  clientId!: string;

  /** Sealed (SecretBox, context `auth_provider:<id>:client_secret`); never answered. */
  @Column({ name: 'client_secret', type: 'text' })
  clientSecret!: string;

  @Column({ type: 'text', array: true })
  scopes!: string[];

  @Column({ type: 'boolean', default: true })
  enabled!: boolean;

  @Column({ name: 'show_on_sign_in', type: 'boolean', default: true })
  showOnSignIn!: boolean;

  @Column({ name: 'allow_registration', type: 'boolean', default: false })
  allowRegistration!: boolean;

  /** Lower-case e-mail domains that may create accounts (and link); empty: any. */
  @Column({ name: 'allowed_domains', type: 'text', array: true })
  allowedDomains!: string[];

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}

/** An account's identity at a provider: the provider's subject, unique per provider. */
@Entity({ name: 'user_identity' })
@Index('UQ_user_identity_provider_subject', ['providerId', 'subject'], { unique: true })
@Index('IDX_user_identity_user_id', ['userId'])
export class UserIdentityEntity {
  @PrimaryGeneratedColumn({ type: 'bigint', primaryKeyConstraintName: 'PK_user_identity' })
  id!: string;

  @Column({ name: 'user_id', type: 'bigint' })
  userId!: string;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'FK_user_identity_user' })
  user?: UserEntity;

  @Column({ name: 'provider_id', type: 'bigint' })
  providerId!: string;

  @ManyToOne(() => AuthProviderEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'provider_id', foreignKeyConstraintName: 'FK_user_identity_provider' })
  provider?: AuthProviderEntity;

  @Column({ type: 'varchar', length: 255 })
  subject!: string;

  /** The e-mail address the provider gave at the last sign-in, for the account page. */
  @Column({ type: 'varchar', length: 320, nullable: true })
  email!: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'last_used_at', type: 'timestamptz', nullable: true })
  lastUsedAt!: Date | null;
}
