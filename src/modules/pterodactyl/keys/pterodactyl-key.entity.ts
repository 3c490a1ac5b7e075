import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { UserEntity } from 'src/modules/users/user.entity';

/** Pterodactyl's key types: a client (account) key and an application key. */
export enum PterodactylKeyType {
  CLIENT = 1,
  APPLICATION = 2,
}

/** The resources an application key's permissions name (Pterodactyl's AdminAcl), each `r_<resource>`. */
export const APPLICATION_RESOURCES = [
  'servers',
  'nodes',
  'allocations',
  'users',
  'locations',
  'nests',
  'eggs',
  'database_hosts',
  'server_databases',
] as const;
export type ApplicationResource = (typeof APPLICATION_RESOURCES)[number];

/** `r_<resource>` → 0 none, 1 read, 2 write, 3 read and write (AdminAcl's bits). */
export type ApplicationPermissions = Partial<Record<`r_${ApplicationResource}`, number>>;

@Entity({ name: 'pterodactyl_api_key' })
@Index('UQ_pterodactyl_api_key_identifier', ['identifier'], { unique: true })
@Index('IDX_pterodactyl_api_key_user_id', ['userId'])
export class PterodactylKeyEntity {
  @PrimaryGeneratedColumn({ type: 'bigint', primaryKeyConstraintName: 'PK_pterodactyl_api_key' })
  id!: string;

  @Column({ name: 'user_id', type: 'bigint' })
  userId!: string;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'FK_pterodactyl_api_key_user' })
  user?: UserEntity;

  @Column({ name: 'key_type', type: 'smallint' })
  keyType!: PterodactylKeyType;

  /** `ptla_`/`ptlc_` and 11 random characters: the first 16 characters of the key, public. */
  @Column({ type: 'varchar', length: 16 })
  identifier!: string;

  /** SHA-256 (hex) of the 32-character token that follows the identifier. */
  @Column({ name: 'token_hash', type: 'char', length: 64 })
  tokenHash!: string;

  @Column({ type: 'varchar', length: 500, default: '' })
  memo!: string;

  /** Addresses or CIDR ranges the key may be used from; empty: any. */
  @Column({ name: 'allowed_ips', type: 'text', array: true, default: () => "'{}'" })
  allowedIps!: string[];

  /** Application keys only; `{}` for client keys. */
  @Column({ type: 'jsonb', default: () => "'{}'" })
  permissions!: ApplicationPermissions;

  @Column({ name: 'last_used_at', type: 'timestamptz', nullable: true })
  lastUsedAt!: Date | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
