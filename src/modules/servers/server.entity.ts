import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { EggEntity } from 'src/modules/eggs/egg.entity';
import { NodeEntity } from 'src/modules/nodes/node.entity';
import type { ServerTransferEntity } from 'src/modules/servers/transfers/server-transfer.entity';
import { UserEntity } from 'src/modules/users/user.entity';

/** Panel-side states; the running state (running, offline, ...) lives on the daemon. */
export const SERVER_STATUSES = ['installing', 'install_failed', 'reinstall_failed', 'restoring_backup'] as const;
export type ServerStatus = (typeof SERVER_STATUSES)[number];

@Entity({ name: 'server' })
@Index('UQ_server_uuid', ['uuid'], { unique: true })
@Index('UQ_server_identifier', ['identifier'], { unique: true })
@Index('UQ_server_external_id', ['externalId'], { unique: true })
@Index('IDX_server_egg_id', ['eggId'])
@Index('IDX_server_owner_id_id', ['ownerId', 'id'])
@Index('IDX_server_node_id_id', ['nodeId', 'id'])
// pg_trgm indexes for the searches and list filters (AddListIndexes): expressions TypeORM does not model.
@Index('IDX_server_name_trgm', { synchronize: false })
@Index('IDX_server_description_trgm', { synchronize: false })
@Index('IDX_server_uuid_trgm', { synchronize: false })
@Index('IDX_server_identifier_trgm', { synchronize: false })
@Index('IDX_server_external_id_trgm', { synchronize: false })
@Index('IDX_server_image_trgm', { synchronize: false })
export class ServerEntity {
  @PrimaryGeneratedColumn({ type: 'bigint', primaryKeyConstraintName: 'PK_server' })
  id!: string;

  @Column({ type: 'uuid' })
  uuid!: string;

  /** The first 8 characters of the uuid (Pterodactyl's uuidShort; SFTP logins end in it). */
  @Column({ type: 'varchar', length: 8 })
  identifier!: string;

  @Column({ type: 'varchar', length: 191 })
  name!: string;

  @Column({ type: 'text', nullable: true })
  description!: string | null;

  /** The id a billing system knows the server by (Pterodactyl's external_id). */
  @Column({ name: 'external_id', type: 'varchar', length: 191, nullable: true })
  externalId!: string | null;

  /** null once installed and idle. */
  @Column({ type: 'varchar', length: 32, nullable: true })
  status!: ServerStatus | null;

  @Column({ type: 'boolean', default: false })
  suspended!: boolean;

  @Column({ name: 'owner_id', type: 'bigint' })
  ownerId!: string;

  @ManyToOne(() => UserEntity, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'owner_id', foreignKeyConstraintName: 'FK_server_owner' })
  owner?: UserEntity;

  @Column({ name: 'node_id', type: 'bigint' })
  nodeId!: string;

  @ManyToOne(() => NodeEntity, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'node_id', foreignKeyConstraintName: 'FK_server_node' })
  node?: NodeEntity;

  /** The primary allocation (an allocation row whose server_id is this server). */
  @Column({ name: 'allocation_id', type: 'bigint', nullable: true })
  allocationId!: string | null;

  @Column({ name: 'egg_id', type: 'uuid' })
  eggId!: string;

  @ManyToOne(() => EggEntity, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'egg_id', foreignKeyConstraintName: 'FK_server_egg' })
  egg?: EggEntity;

  @Column({ type: 'text' })
  startup!: string;

  @Column({ type: 'text' })
  image!: string;

  /** MiB; 0 = unlimited. */
  @Column({ type: 'integer' })
  memory!: number;

  /** MiB; -1 = unlimited. */
  @Column({ type: 'integer', default: 0 })
  swap!: number;

  /** MiB; 0 = unlimited. */
  @Column({ type: 'integer' })
  disk!: number;

  /** Block IO weight, 10 to 1000. */
  @Column({ type: 'integer', default: 500 })
  io!: number;

  /** Percent of one core; 0 = unlimited. */
  @Column({ type: 'integer' })
  cpu!: number;

  /** cpuset such as `0-1,3`. */
  @Column({ type: 'varchar', length: 191, nullable: true })
  threads!: string | null;

  @Column({ name: 'oom_disabled', type: 'boolean', default: true })
  oomDisabled!: boolean;

  /** 0: unlimited; -1: none (NO_DATABASES); otherwise at most this many. */
  @Column({ name: 'database_limit', type: 'integer', default: 0 })
  databaseLimit!: number;

  @Column({ name: 'allocation_limit', type: 'integer', default: 0 })
  allocationLimit!: number;

  @Column({ name: 'backup_limit', type: 'integer', default: 0 })
  backupLimit!: number;

  @Column({ name: 'skip_scripts', type: 'boolean', default: false })
  skipScripts!: boolean;

  @Column({ name: 'installed_at', type: 'timestamptz', nullable: true })
  installedAt!: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;

  /** Its active transfer, where the query joined it (ServersRepository): while it has one the server is "transferring". */
  activeTransfer?: ServerTransferEntity | null;
}

/** A server with its node, egg and owner loaded, as server routes, the daemon callbacks and the runner use it. */
export type LoadedServer = ServerEntity & Required<Pick<ServerEntity, 'node' | 'egg' | 'owner'>>;

/** A server as list pages show it: the names of its node and owner, not their whole rows (nor its egg's scripts). */
export type ListedServer = Omit<ServerEntity, 'node' | 'owner' | 'egg'> & { node: Pick<NodeEntity, 'id' | 'name'>; owner: Pick<UserEntity, 'id' | 'username'> };
