import { Connection, createConnection, RowDataPacket } from 'mysql2/promise';

/**
 * The old panel's MySQL/MariaDB database, read only (docs/pterodactyl-source-schema.md): one
 * connection in a read-only transaction WITH CONSISTENT SNAPSHOT, so that a panel still serving its
 * users while we read gives one coherent picture, and in UTC so that TIMESTAMP columns come back as
 * the instants they are. Tables are read in batches by primary key: memory stays bounded whatever
 * their size.
 */

/** The columns the importer reads of each table: required ones, and those later 1.x releases added. */
export const SOURCE_TABLES = {
  users: {
    required: ['id', 'external_id', 'uuid', 'username', 'email', 'name_first', 'name_last', 'password', 'language', 'root_admin', 'use_totp', 'totp_secret', 'totp_authenticated_at', 'created_at', 'updated_at'],
  },
  recovery_tokens: { required: ['id', 'user_id', 'token', 'created_at'] },
  user_ssh_keys: { required: ['id', 'user_id', 'name', 'fingerprint', 'public_key', 'created_at', 'deleted_at'] },
  api_keys: {
    required: ['id', 'user_id', 'key_type', 'identifier', 'token', 'allowed_ips', 'memo', 'last_used_at', 'created_at', 'r_servers', 'r_nodes', 'r_allocations', 'r_users', 'r_locations', 'r_nests', 'r_eggs', 'r_database_hosts', 'r_server_databases'],
    optional: ['expires_at'],
  },
  locations: { required: ['id', 'short', 'long', 'created_at', 'updated_at'] },
  nodes: {
    required: ['id', 'uuid', 'public', 'name', 'description', 'location_id', 'fqdn', 'scheme', 'behind_proxy', 'maintenance_mode', 'memory', 'memory_overallocate', 'disk', 'disk_overallocate', 'upload_size', 'daemon_token_id', 'daemon_token', 'daemonListen', 'daemonSFTP', 'daemonBase', 'created_at', 'updated_at'],
  },
  allocations: { required: ['id', 'node_id', 'ip', 'ip_alias', 'port', 'server_id', 'notes', 'created_at'] },
  nests: { required: ['id', 'uuid', 'author', 'name', 'description', 'created_at', 'updated_at'] },
  eggs: {
    required: ['id', 'uuid', 'nest_id', 'author', 'name', 'description', 'features', 'docker_images', 'file_denylist', 'update_url', 'config_files', 'config_startup', 'config_logs', 'config_stop', 'config_from', 'startup', 'script_container', 'copy_script_from', 'script_entry', 'script_is_privileged', 'script_install', 'created_at', 'updated_at'],
    optional: ['force_outgoing_ip'],
  },
  egg_variables: { required: ['id', 'egg_id', 'name', 'description', 'env_variable', 'default_value', 'user_viewable', 'user_editable', 'rules', 'created_at', 'updated_at'] },
  servers: {
    required: ['id', 'external_id', 'uuid', 'uuidShort', 'node_id', 'name', 'description', 'status', 'skip_scripts', 'owner_id', 'memory', 'swap', 'disk', 'io', 'cpu', 'threads', 'oom_disabled', 'allocation_id', 'egg_id', 'startup', 'image', 'allocation_limit', 'database_limit', 'backup_limit', 'created_at', 'updated_at'],
    optional: ['installed_at'],
  },
  server_variables: { required: ['id', 'server_id', 'variable_id', 'variable_value'] },
  subusers: { required: ['id', 'user_id', 'server_id', 'permissions', 'created_at', 'updated_at'] },
  database_hosts: { required: ['id', 'name', 'host', 'port', 'username', 'password', 'max_databases', 'node_id', 'created_at', 'updated_at'] },
  databases: { required: ['id', 'server_id', 'database_host_id', 'database', 'username', 'remote', 'password', 'max_connections', 'created_at', 'updated_at'] },
  schedules: {
    required: ['id', 'server_id', 'name', 'cron_day_of_week', 'cron_month', 'cron_day_of_month', 'cron_hour', 'cron_minute', 'is_active', 'is_processing', 'only_when_online', 'last_run_at', 'next_run_at', 'created_at', 'updated_at'],
  },
  tasks: { required: ['id', 'schedule_id', 'sequence_id', 'action', 'payload', 'time_offset', 'continue_on_failure', 'created_at', 'updated_at'] },
  backups: {
    required: ['id', 'server_id', 'uuid', 'is_successful', 'is_locked', 'name', 'ignored_files', 'disk', 'checksum', 'bytes', 'completed_at', 'created_at', 'updated_at', 'deleted_at'],
    optional: ['upload_id'],
  },
  mounts: { required: ['id', 'uuid', 'name', 'description', 'source', 'target', 'read_only', 'user_mountable'] },
  egg_mount: { required: ['egg_id', 'mount_id'] },
  mount_node: { required: ['node_id', 'mount_id'] },
  mount_server: { required: ['server_id', 'mount_id'] },
  activity_logs: { required: ['id', 'event', 'ip', 'description', 'actor_type', 'actor_id', 'api_key_id', 'properties', 'timestamp'] },
  activity_log_subjects: { required: ['id', 'activity_log_id', 'subject_type', 'subject_id'] },
  settings: { required: ['id', 'key', 'value'] },
  sessions: { required: [] },
  migrations: { required: ['id', 'migration'] },
} as const satisfies Record<string, { required: readonly string[]; optional?: readonly string[] }>;

export type SourceTable = keyof typeof SOURCE_TABLES;

/** Tables a 1.x panel may lack: activity came with 1.8, mounts with 0.7, sessions only with the database session driver. */
const OPTIONAL_TABLES = new Set<SourceTable>(['activity_logs', 'activity_log_subjects', 'mounts', 'egg_mount', 'mount_node', 'mount_server', 'sessions', 'settings']);

/** Link tables without an id of their own, read whole. */
type LinkTable = 'egg_mount' | 'mount_node' | 'mount_server';

/** Migrations every Pterodactyl panel since 1.0 has run (docs/pterodactyl-source-schema.md, "Recognising a Pterodactyl DB"). */
const MARKER_MIGRATIONS = ['2017_10_06_214026_ServicesToNestsConversion', '2020_04_10_141024_store_node_tokens_as_encrypted_value'];

export type SourceRow = Record<string, unknown>;

/** Why a database is not one the importer can read: every reason, for one clear message. */
class NotPterodactylError extends Error {
  constructor(readonly problems: string[]) {
    super(`This is not a Pterodactyl 1.x panel database that the importer can read:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

const quote = (name: string): string => `\`${name.replace(/`/g, '``')}\``;

export class PterodactylSource {
  private readonly present = new Map<SourceTable, Set<string>>();

  private constructor(
    private readonly connection: Connection,
    readonly database: string,
    readonly prefix: string,
  ) {}

  /**
   * Connects, finds the table prefix (DB_PREFIX) unless given, checks the database is Pterodactyl's
   * and opens the snapshot every later read sees.
   */
  static async open(url: string, prefix?: string): Promise<PterodactylSource> {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new Error('--from must be a URL such as mysql://user:password@host:3306/panel');
    }
    if (parsed.protocol !== 'mysql:' && parsed.protocol !== 'mariadb:') {
      throw new Error('--from must be a mysql:// URL (MySQL or MariaDB)');
    }
    const database = decodeURIComponent(parsed.pathname.replace(/^\//, ''));
    if (database === '') {
      throw new Error('--from must name the panel database, as in mysql://user:password@host:3306/panel');
    }
    const connection = await createConnection({
      host: parsed.hostname,
      port: parsed.port ? Number(parsed.port) : 3306,
      user: decodeURIComponent(parsed.username),
      password: decodeURIComponent(parsed.password),
      database,
      timezone: 'Z',
      dateStrings: false,
      supportBigNumbers: true,
      bigNumberStrings: true,
      connectTimeout: 10_000,
      charset: 'utf8mb4',
    });
    try {
      await connection.query("SET time_zone = '+00:00'");
      const source = new PterodactylSource(connection, database, prefix ?? (await PterodactylSource.detectPrefix(connection, database)));
      await source.check();
      await connection.query('SET SESSION TRANSACTION ISOLATION LEVEL REPEATABLE READ');
      await connection.query('START TRANSACTION WITH CONSISTENT SNAPSHOT, READ ONLY');
      return source;
    } catch (err) {
      await connection.end().catch(() => undefined);
      throw err;
    }
  }

  /** The prefix in front of `nodes` and `api_keys` when exactly one such pair exists; '' otherwise. */
  private static async detectPrefix(connection: Connection, database: string): Promise<string> {
    const [rows] = await connection.query<RowDataPacket[]>(
      "SELECT TABLE_NAME AS name FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? AND TABLE_NAME LIKE '%migrations'",
      [database],
    );
    const names = new Set(rows.map((r) => String(r.name)));
    const prefixes = [...names].map((n) => n.slice(0, -'migrations'.length));
    return prefixes.includes('') || prefixes.length !== 1 ? '' : prefixes[0];
  }

  private table(name: SourceTable): string {
    return quote(this.prefix + name);
  }

  private async check(): Promise<void> {
    const [rows] = await this.connection.query<RowDataPacket[]>(
      'SELECT TABLE_NAME AS t, COLUMN_NAME AS c FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ? AND TABLE_NAME LIKE ?',
      [this.database, `${this.prefix.replace(/[\\%_]/g, '\\$&')}%`],
    );
    const columns = new Map<string, Set<string>>();
    for (const r of rows) {
      const set = columns.get(String(r.t)) ?? new Set<string>();
      set.add(String(r.c));
      columns.set(String(r.t), set);
    }
    const problems: string[] = [];
    for (const [name, spec] of Object.entries(SOURCE_TABLES) as [SourceTable, { required: readonly string[]; optional?: readonly string[] }][]) {
      const found = columns.get(this.prefix + name);
      if (!found) {
        if (!OPTIONAL_TABLES.has(name)) {
          problems.push(`table ${this.prefix + name} is missing`);
        }
        continue;
      }
      const missing = spec.required.filter((c) => !found.has(c));
      if (missing.length > 0) {
        problems.push(`table ${this.prefix + name} lacks ${missing.join(', ')}`);
      }
      this.present.set(name, found);
    }
    if (problems.length === 0) {
      const [done] = await this.connection.query<RowDataPacket[]>(`SELECT migration FROM ${this.table('migrations')} WHERE migration IN (?)`, [MARKER_MIGRATIONS]);
      const ran = new Set(done.map((r) => String(r.migration)));
      const absent = MARKER_MIGRATIONS.filter((m) => !ran.has(m));
      if (absent.length > 0) {
        problems.push(`the migrations table has not run ${absent.join(', ')} (a panel older than 1.0, or not Pterodactyl)`);
      }
    }
    if (problems.length > 0) {
      throw new NotPterodactylError(problems);
    }
  }

  has(table: SourceTable): boolean {
    return this.present.has(table);
  }

  async count(table: SourceTable, where = ''): Promise<number> {
    if (!this.has(table)) {
      return 0;
    }
    const [rows] = await this.connection.query<RowDataPacket[]>(`SELECT COUNT(*) AS n FROM ${this.table(table)}${where ? ` WHERE ${where}` : ''}`);
    return Number(rows[0].n);
  }

  private selectList(table: SourceTable): string {
    const spec: { required: readonly string[]; optional?: readonly string[] } = SOURCE_TABLES[table];
    const found = this.present.get(table) ?? new Set<string>();
    return [...spec.required.map(quote), ...(spec.optional ?? []).map((c) => (found.has(c) ? quote(c) : `NULL AS ${quote(c)}`))].join(', ');
  }

  /** One page of a table, ordered by id, after `afterId`. */
  async page(table: SourceTable, afterId: string, limit: number, where = ''): Promise<SourceRow[]> {
    if (!this.has(table)) {
      return [];
    }
    const [rows] = await this.connection.query<RowDataPacket[]>(
      `SELECT ${this.selectList(table)} FROM ${this.table(table)} WHERE id > ?${where ? ` AND (${where})` : ''} ORDER BY id LIMIT ?`,
      [afterId, limit],
    );
    return rows;
  }

  /** Every row of a table in batches of `batchSize`, ordered by id. */
  async *batches(table: SourceTable, batchSize: number, where = ''): AsyncGenerator<SourceRow[]> {
    let after = '0';
    for (;;) {
      const rows = await this.page(table, after, batchSize, where);
      if (rows.length === 0) {
        return;
      }
      yield rows;
      after = String(rows[rows.length - 1].id);
      if (rows.length < batchSize) {
        return;
      }
    }
  }

  /** Every row of a link table (they have no id to page by; one row is two ids). */
  async links(table: LinkTable): Promise<SourceRow[]> {
    if (!this.has(table)) {
      return [];
    }
    const [rows] = await this.connection.query<RowDataPacket[]>(`SELECT ${this.selectList(table)} FROM ${this.table(table)} ORDER BY mount_id`);
    return rows;
  }

  /** The subjects of the given activity log entries. */
  async subjectsOf(logIds: string[]): Promise<SourceRow[]> {
    if (logIds.length === 0 || !this.has('activity_log_subjects')) {
      return [];
    }
    const [rows] = await this.connection.query<RowDataPacket[]>(
      `SELECT ${this.selectList('activity_log_subjects')} FROM ${this.table('activity_log_subjects')} WHERE activity_log_id IN (?) ORDER BY id`,
      [logIds],
    );
    return rows;
  }

  /** The panel settings (`settings::…` keys), raw. */
  async settings(): Promise<Map<string, string>> {
    if (!this.has('settings')) {
      return new Map();
    }
    const [rows] = await this.connection.query<RowDataPacket[]>(`SELECT \`key\`, value FROM ${this.table('settings')}`);
    return new Map(rows.map((r) => [String(r.key), String(r.value)]));
  }

  async close(): Promise<void> {
    await this.connection.query('ROLLBACK').catch(() => undefined);
    await this.connection.end().catch(() => undefined);
  }
}
