import { randomUUID } from 'node:crypto';
import { parseEnv } from 'node:util';
import sshpk from 'sshpk';
import { DataSource, EntityManager } from 'typeorm';
import { SecretBox } from 'src/common/crypto/secret-box';
import { sha256Hex } from 'src/common/crypto/tokens';
import { LaravelDecryptError, LaravelEncrypter } from 'src/import/pterodactyl/laravel-encryption';
import { ImportProgress } from 'src/import/pterodactyl/progress';
import { IMPORT_KINDS, ImportKind, ImportReport } from 'src/import/pterodactyl/report';
import { PterodactylSource, SourceRow, SourceTable } from 'src/import/pterodactyl/source';
import { existingRows, RowSink, TargetRow, TargetWriter, textArray } from 'src/import/pterodactyl/target';
import { backupHostSecretContext } from 'src/modules/backups/backup-host.entity';
import { hostPasswordContext } from 'src/modules/databases/database-host.entity';
import { nodeTokenContext } from 'src/modules/daemon-gateway/daemon.gateway';
import { normalizeDockerImages } from 'src/modules/eggs/egg-fields';
import { normalizeMountPath, sourceProblem, targetProblem } from 'src/modules/mounts/mount-paths';
import { baseUrlOf } from 'src/modules/nodes/node.entity';
import { parseRules } from 'src/modules/eggs/rules/variable-rules';
import { toHatcheryPermissions, toPterodactylNames } from 'src/modules/pterodactyl/client/client-permissions';
import { fromPterodactylDatabaseLimit } from 'src/modules/pterodactyl/common/database-limit';
import { APPLICATION_RESOURCES, PterodactylKeyType } from 'src/modules/pterodactyl/keys/pterodactyl-key.entity';
import { CronFields, nextRunAfter, validateCron } from 'src/modules/schedules/cron-expression';
import { TASK_ACTIONS } from 'src/modules/schedules/schedule-task.entity';
import { SERVER_STATUSES } from 'src/modules/servers/server.entity';
import { ALL_SERVER_PERMISSIONS, ServerPermission } from 'src/modules/servers/server-permissions';
import type { TwoFactorPolicy } from 'src/modules/settings/panel-settings';
import { parsePublicKey } from 'src/modules/ssh-keys/ssh-public-key';
import { totpSecretContext } from 'src/modules/two-factor/user-two-factor.entity';

/**
 * Moves a Pterodactyl 1.x panel into an empty Hatchery (docs/migrate-from-pterodactyl.md): every row
 * keeps its id, uuid and secrets, so Wings (node token, server uuids), billing modules (`ptla_` keys,
 * server ids, external ids) and users (passwords, two-factor, `ptlc_` keys) carry on as they were.
 * The whole write is one transaction on Hatchery's database; the dry run takes the same path with a
 * writer that writes nothing, so it opens every secret and counts what the real run would bring.
 */

interface ImportOptions {
  /** mysql://user:password@host:3306/panel */
  from: string;
  /** Pterodactyl's APP_KEY (`base64:…`). */
  appKey: string;
  dryRun: boolean;
  skipActivity: boolean;
  /** Pterodactyl's DB_PREFIX, when detection is not wanted. */
  prefix?: string;
  batchSize?: number;
  /** The S3 settings of the old panel's .env (see `backupS3FromEnv`); without them S3 backups are left behind. */
  backupS3?: PterodactylS3;
}

/** Pterodactyl's S3 backup settings, from its .env (config/backups.php); `driver` is APP_BACKUP_DRIVER. */
interface PterodactylS3 {
  driver: string;
  endpoint: string | null;
  region: string | null;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  pathStyle: boolean;
}

/** The id the imported S3 backup host gets (the table is empty before an import). */
const IMPORTED_BACKUP_HOST_ID = '1';

/**
 * Reads the S3 settings of an old panel's .env text. Pterodactyl keeps them there, not in its
 * database: AWS_BACKUPS_BUCKET, AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_DEFAULT_REGION,
 * AWS_ENDPOINT, AWS_USE_PATH_STYLE_ENDPOINT, and APP_BACKUP_DRIVER for whether nodes use them.
 */
export const backupS3FromEnv = (envText: string): PterodactylS3 => {
  const env = parseEnv(envText);
  const missing = ['AWS_BACKUPS_BUCKET', 'AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY'].filter((k) => !env[k]);
  if (missing.length > 0) {
    throw new ImportRefusedError(`The .env given for S3 backups lacks ${missing.join(', ')}. Nothing was written.`);
  }
  return {
    driver: (env.APP_BACKUP_DRIVER ?? 'wings').trim(),
    endpoint: env.AWS_ENDPOINT?.trim() || null,
    region: env.AWS_DEFAULT_REGION?.trim() || null,
    bucket: env.AWS_BACKUPS_BUCKET!.trim(),
    accessKeyId: env.AWS_ACCESS_KEY_ID!.trim(),
    secretAccessKey: env.AWS_SECRET_ACCESS_KEY!,
    pathStyle: ['true', '1', 'yes', 'on'].includes((env.AWS_USE_PATH_STYLE_ENDPOINT ?? '').trim().toLowerCase()),
  };
};

/** Refused before anything was written; the message says why and what to do. */
class ImportRefusedError extends Error {}

const DEFAULT_BATCH = 2_000;

// ---- reading MySQL values -------------------------------------------------------------------------

const text = (v: unknown): string | null => {
  if (v === null || v === undefined) {
    return null;
  }
  if (Buffer.isBuffer(v)) {
    return v.toString('utf8');
  }
  if (v instanceof Date) {
    return v.toISOString();
  }
  if (typeof v === 'string') {
    return v;
  }
  return typeof v === 'number' || typeof v === 'bigint' || typeof v === 'boolean' ? String(v) : JSON.stringify(v);
};
const str = (v: unknown): string => text(v) ?? '';
const num = (v: unknown): number => Number(v ?? 0);
const bool = (v: unknown): boolean => Number(v) !== 0;
const date = (v: unknown): Date | null => (v === null || v === undefined ? null : v instanceof Date ? v : new Date(str(v)));
const clip = (v: string, max: number): string => (v.length > max ? v.slice(0, max) : v);

/** A JSON column: a string on MariaDB (longtext), already parsed by mysql2 on MySQL 8 (json). Undefined when unreadable. */
const json = (v: unknown): unknown => {
  if (v === null || v === undefined) {
    return null;
  }
  if (typeof v !== 'string' && !Buffer.isBuffer(v)) {
    return v;
  }
  try {
    return JSON.parse(text(v) as string) as unknown;
  } catch {
    return undefined;
  }
};

const stringList = (v: unknown): string[] | undefined => {
  const parsed = json(v);
  if (parsed === null) {
    return [];
  }
  return Array.isArray(parsed) && parsed.every((x) => typeof x === 'string') ? parsed : undefined;
};

const objectOf = (v: unknown): Record<string, unknown> => {
  const parsed = json(v);
  return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
};

/** Pterodactyl's key_type 1 (account, `ptlc_`) and 2 (application, `ptla_`); 0, 3 and 4 are legacy. */
const KEY_TYPES = new Map<number, PterodactylKeyType>([
  [1, PterodactylKeyType.CLIENT],
  [2, PterodactylKeyType.APPLICATION],
]);


/** A mount's paths normalised, or why Hatchery refuses them (the rules of src/modules/mounts/mount-paths.ts). */
const mountPaths = (source: string, target: string, daemonBases: string[]): { source: string; target: string } | { problem: string } => {
  const s = normalizeMountPath(source);
  const t = normalizeMountPath(target);
  if ('error' in s) {
    return { problem: `source ${s.error}` };
  }
  if ('error' in t) {
    return { problem: `target ${t.error}` };
  }
  const problem = sourceProblem(s.path, daemonBases) ?? targetProblem(t.path);
  if (problem) {
    return { problem: sourceProblem(s.path, daemonBases) ? `source ${problem}` : `target ${problem}` };
  }
  return { source: s.path, target: t.path };
};

/** A writer that writes nothing: the dry run. */
const DRY_SINK: RowSink = { insert: (_table, rows) => Promise.resolve(rows.length) };

interface EggRow {
  id: number;
  uuid: string;
  nestId: number;
  row: SourceRow;
}

/** One import: the state carried from one table to the next (ids, names) lives here. */
class ImportRun {
  private readonly usernames = new Map<string, string>();
  private readonly twoFactorUsers = new Set<string>();
  private readonly keyIdentifiers = new Map<string, string>();
  private readonly nestUuids = new Map<number, string>();
  private readonly eggs = new Map<number, EggRow>();
  private readonly variables = new Map<string, { uuid: string; eggId: number }>();
  private readonly serverEggs = new Map<string, number>();
  private readonly serverOwners = new Map<string, string>();
  private readonly schedules = new Set<string>();
  private readonly servers = new Set<string>();
  /** Each node's data directory (daemonBase), for the mount path rules. */
  private readonly nodeBases = new Map<string, string>();

  constructor(
    private readonly source: PterodactylSource,
    private readonly sink: RowSink,
    private readonly box: LaravelEncrypter,
    private readonly secrets: SecretBox,
    private readonly report: ImportReport,
    private readonly progress: ImportProgress,
    private readonly options: ImportOptions,
    private readonly now: Date,
  ) {}

  private get batch(): number {
    return this.options.batchSize ?? DEFAULT_BATCH;
  }

  /** Reads a table batch by batch with a progress bar, handing each batch to `each`. */
  private async stream(table: SourceTable, label: string, each: (rows: SourceRow[]) => Promise<void>, where = ''): Promise<void> {
    this.progress.start(label, await this.source.count(table, where));
    for await (const rows of this.source.batches(table, this.batch, where)) {
      await each(rows);
      this.progress.advance(rows.length);
    }
    this.progress.done();
  }

  private async write(kind: ImportKind, table: string, rows: TargetRow[], options?: { skipConflicts?: boolean }): Promise<number> {
    const written = await this.sink.insert(table, rows, options);
    this.report.count(kind, written);
    return written;
  }

  /** A row's `created_at` and `updated_at`, the import's time where Pterodactyl left them NULL. */
  private stamps(r: SourceRow): { created_at: Date; updated_at: Date } {
    return { created_at: date(r.created_at) ?? this.now, updated_at: date(r.updated_at) ?? this.now };
  }

  /** A Laravel-encrypted value, or undefined (reported) when this one row cannot be opened. */
  private open(payload: unknown, what: string): string | null | undefined {
    try {
      return this.box.decrypt(str(payload));
    } catch (err) {
      if (err instanceof LaravelDecryptError) {
        this.report.leave(`encrypted values that could not be opened (${err.reason})`, what);
        return undefined;
      }
      throw err;
    }
  }

  async run(): Promise<void> {
    await this.users();
    await this.recoveryCodes();
    await this.sshKeys();
    await this.apiKeys();
    await this.locations();
    await this.backupHost();
    await this.nodes();
    await this.nestsAndEggs();
    await this.eggVariables();
    await this.serversPass();
    await this.allocations();
    await this.serverVariables();
    await this.subusers();
    await this.databaseHosts();
    await this.databases();
    await this.schedulesPass();
    await this.tasks();
    await this.backups();
    await this.mounts();
    await this.activity();
    await this.settings();
    await this.leftovers();
  }

  private async users(): Promise<void> {
    const externalIds = new Set<string>();
    await this.stream('users', IMPORT_KINDS.users, async (rows) => {
      const users: TargetRow[] = [];
      const secrets: TargetRow[] = [];
      for (const r of rows) {
        const id = str(r.id);
        const username = str(r.username).toLowerCase();
        this.usernames.set(id, username);
        let externalId = text(r.external_id);
        if (externalId !== null && externalIds.has(externalId)) {
          this.report.leave('users whose external id another user already had: kept without it', `${username} (${externalId})`);
          externalId = null;
        }
        if (externalId !== null) {
          externalIds.add(externalId);
        }
        let twoFactor = false;
        if (bool(r.use_totp)) {
          const secret = r.totp_secret === null ? null : this.open(r.totp_secret, `user ${username}: two-factor secret`);
          if (secret) {
            twoFactor = true;
            this.twoFactorUsers.add(id);
            secrets.push({
              user_id: id,
              secret_sealed: this.secrets.seal(secret.replace(/\s+/g, '').toUpperCase(), totpSecretContext(id)),
              confirmed_at: date(r.totp_authenticated_at) ?? date(r.updated_at) ?? this.now,
              last_used_step: null,
              created_at: date(r.totp_authenticated_at) ?? date(r.created_at) ?? this.now,
            });
          } else {
            this.report.leave('users with two-factor on whose secret is missing or unreadable: two-factor is off until they set it up again', username);
          }
        }
        const name = [text(r.name_first), text(r.name_last)]
          .map((p) => (p ?? '').trim())
          .filter((p) => p !== '')
          .join(' ');
        users.push({
          id,
          uuid: str(r.uuid),
          username,
          email: str(r.email).trim().toLowerCase(),
          name: clip(name, 255),
          external_id: externalId,
          password_hash: str(r.password),
          admin: bool(r.root_admin),
          two_factor_enabled: twoFactor,
          suspended: false,
          language: clip((text(r.language) ?? '').trim() || 'en', 5),
          ...this.stamps(r),
        });
      }
      await this.write('users', 'user', users);
      await this.write('twoFactor', 'user_two_factor', secrets);
    });
  }

  private async recoveryCodes(): Promise<void> {
    await this.stream('recovery_tokens', IMPORT_KINDS.recoveryCodes, async (rows) => {
      const kept = rows.filter((r) => this.twoFactorUsers.has(str(r.user_id)));
      if (kept.length < rows.length) {
        this.report.leave('recovery codes of users without two-factor', undefined, rows.length - kept.length);
      }
      await this.write(
        'recoveryCodes',
        'user_recovery_code',
        kept.map((r) => ({ user_id: str(r.user_id), code_hash: str(r.token), created_at: date(r.created_at) ?? this.now })),
        { skipConflicts: true },
      );
    });
  }

  private async sshKeys(): Promise<void> {
    await this.stream(
      'user_ssh_keys',
      IMPORT_KINDS.sshKeys,
      async (rows) => {
        const keys: TargetRow[] = [];
        for (const r of rows) {
          const owner = this.usernames.get(str(r.user_id)) ?? str(r.user_id);
          let line: string;
          try {
            line = sshpk.parseKey(str(r.public_key), 'auto').toString('ssh');
          } catch {
            this.report.leave('SSH keys that are not readable public keys', `${owner}: ${str(r.name)}`);
            continue;
          }
          const parsed = parsePublicKey(line);
          if ('error' in parsed) {
            this.report.leave('SSH keys Hatchery refuses (DSA, or RSA under 2048 bits)', `${owner}: ${str(r.name)} ${parsed.error}`);
            continue;
          }
          keys.push({ id: str(r.id), user_id: str(r.user_id), name: clip(str(r.name), 191), fingerprint: parsed.fingerprint, public_key: parsed.publicKey, created_at: date(r.created_at) ?? this.now });
        }
        const written = await this.write('sshKeys', 'user_ssh_key', keys, { skipConflicts: true });
        if (written < keys.length) {
          this.report.leave('SSH keys a user had twice', undefined, keys.length - written);
        }
      },
      'deleted_at IS NULL',
    );
  }

  private async apiKeys(): Promise<void> {
    await this.stream('api_keys', IMPORT_KINDS.apiKeys, async (rows) => {
      const keys: TargetRow[] = [];
      for (const r of rows) {
        const identifier = text(r.identifier);
        const keyType = KEY_TYPES.get(num(r.key_type));
        const owner = this.usernames.get(str(r.user_id)) ?? str(r.user_id);
        if (keyType === undefined) {
          this.report.leave('API keys of the legacy daemon types (0, 3, 4) that Pterodactyl 1.x no longer accepts', `${owner}: ${identifier ?? '(no identifier)'}`);
          continue;
        }
        if (identifier === null || identifier.length !== 16) {
          this.report.leave('API keys without a 16-character identifier', owner);
          continue;
        }
        const expires = date(r.expires_at);
        if (expires !== null && expires.getTime() <= this.now.getTime()) {
          this.report.leave('API keys that had expired', `${owner}: ${identifier}`);
          continue;
        }
        const allowedIps = stringList(r.allowed_ips);
        if (allowedIps === undefined) {
          this.report.leave('API keys whose allowed IPs are unreadable (left behind rather than opened to every address)', `${owner}: ${identifier}`);
          continue;
        }
        const token = this.open(r.token, `API key ${identifier}`);
        if (!token) {
          continue;
        }
        if (expires !== null) {
          this.report.leave('API keys with an expiry date: they keep working after it (Pterodactyl-API keys in Hatchery do not expire)', `${owner}: ${identifier}`);
        }
        const memo = str(r.memo);
        if (memo.length > 500) {
          this.report.leave('API key memos longer than 500 characters: shortened', `${owner}: ${identifier}`);
        }
        this.keyIdentifiers.set(str(r.id), identifier);
        keys.push({
          id: str(r.id),
          user_id: str(r.user_id),
          key_type: keyType,
          identifier,
          token_hash: sha256Hex(token),
          memo: clip(memo, 500),
          allowed_ips: textArray([...new Set(allowedIps)]),
          permissions: JSON.stringify(keyType === PterodactylKeyType.APPLICATION ? Object.fromEntries(APPLICATION_RESOURCES.map((res) => [`r_${res}`, num(r[`r_${res}`])])) : {}),
          last_used_at: date(r.last_used_at),
          created_at: date(r.created_at) ?? this.now,
        });
      }
      await this.write('apiKeys', 'pterodactyl_api_key', keys);
    });
  }

  private async locations(): Promise<void> {
    await this.stream('locations', IMPORT_KINDS.locations, async (rows) => {
      await this.write(
        'locations',
        'location',
        rows.map((r) => {
          const short = str(r.short);
          if (short.length > 60) {
            this.report.leave('location short codes longer than 60 characters: shortened', short);
          }
          return { id: str(r.id), short: clip(short, 60), long: text(r.long), ...this.stamps(r) };
        }),
      );
    });
  }

  /** The old panel's S3 bucket as backup host 1; every node sends its backups there when APP_BACKUP_DRIVER was s3. */
  private async backupHost(): Promise<void> {
    const s3 = this.options.backupS3;
    if (!s3) {
      return;
    }
    const id = IMPORTED_BACKUP_HOST_ID;
    await this.sink.insert('backup_host', [
      {
        id,
        name: 'Pterodactyl S3',
        adapter: 's3',
        endpoint: s3.endpoint,
        region: s3.region,
        bucket: s3.bucket,
        key_prefix: '',
        access_key_id: s3.accessKeyId,
        secret_access_key: this.secrets.seal(s3.secretAccessKey, backupHostSecretContext({ id })),
        path_style: s3.pathStyle,
        created_at: this.now,
        updated_at: this.now,
      },
    ]);
  }

  private async nodes(): Promise<void> {
    const urls = new Map<string, string>();
    await this.stream('nodes', IMPORT_KINDS.nodes, async (rows) => {
      const nodes: TargetRow[] = [];
      for (const r of rows) {
        const name = str(r.name);
        const token = this.open(r.daemon_token, `node ${name}: daemon token`);
        if (!token) {
          throw new ImportRefusedError(`The daemon token of node "${name}" cannot be opened with this APP_KEY; without it the node could not reach Hatchery. Nothing was written.`);
        }
        const uuid = str(r.uuid);
        const scheme = str(r.scheme) === 'http' ? 'http' : 'https';
        const fqdn = str(r.fqdn).toLowerCase();
        const daemonListen = num(r.daemonListen);
        const baseUrl = baseUrlOf({ scheme, fqdn, daemonListen });
        const twin = urls.get(baseUrl);
        if (twin !== undefined) {
          throw new ImportRefusedError(`Nodes "${twin}" and "${name}" both answer at ${baseUrl}; Hatchery keeps one node per address. Change one of them in the old panel first. Nothing was written.`);
        }
        urls.set(baseUrl, name);
        this.nodeBases.set(str(r.id), str(r.daemonBase));
        nodes.push({
          id: str(r.id),
          uuid,
          name: clip(name, 191),
          description: text(r.description),
          base_url: baseUrl,
          fqdn,
          scheme,
          public: bool(r.public),
          maintenance_mode: bool(r.maintenance_mode),
          allow_insecure: false,
          behind_proxy: bool(r.behind_proxy),
          memory: num(r.memory),
          memory_overallocate: num(r.memory_overallocate),
          disk: num(r.disk),
          disk_overallocate: num(r.disk_overallocate),
          upload_size: num(r.upload_size),
          daemon_base: str(r.daemonBase),
          daemon_listen: daemonListen,
          daemon_sftp: num(r.daemonSFTP),
          daemon_auth: 'token',
          token_identifier: str(r.daemon_token_id),
          token_secret: this.secrets.seal(token, nodeTokenContext({ uuid })),
          location_id: text(r.location_id),
          backup_host_id: this.options.backupS3?.driver === 's3' ? IMPORTED_BACKUP_HOST_ID : null,
          ...this.stamps(r),
        });
      }
      await this.write('nodes', 'node', nodes);
    });
  }

  private async nestsAndEggs(): Promise<void> {
    await this.stream('nests', IMPORT_KINDS.nests, async (rows) => {
      for (const r of rows) {
        this.nestUuids.set(num(r.id), str(r.uuid));
      }
      await this.write(
        'nests',
        'nest',
        rows.map((r) => ({
          id: str(r.uuid),
          int_id: num(r.id),
          name: clip(str(r.name), 191),
          description: text(r.description),
          author: clip(str(r.author), 191),
          ...this.stamps(r),
        })),
      );
    });
    // Eggs are few (hundreds at most) and point at each other: read them all, then write parents first.
    await this.stream('eggs', IMPORT_KINDS.eggs, (rows) => {
      for (const r of rows) {
        this.eggs.set(num(r.id), { id: num(r.id), uuid: str(r.uuid), nestId: num(r.nest_id), row: r });
      }
      return Promise.resolve();
    });
    const all = [...this.eggs.values()];
    const ordered = [...all.filter((e) => e.row.copy_script_from === null), ...all.filter((e) => e.row.copy_script_from !== null)];
    const rows = ordered.map((e) => this.eggRow(e));
    for (let i = 0; i < rows.length; i += 500) {
      await this.write('eggs', 'egg', rows.slice(i, i + 500));
    }
  }

  private eggRow({ id, uuid, nestId, row: r }: EggRow): TargetRow {
    const name = str(r.name);
    // config_from: Pterodactyl reads the parent's configuration wherever the egg's own is NULL, and
    // always the parent's file denylist. Hatchery's eggs hold their own, so the values are copied.
    const parent = r.config_from === null ? undefined : this.eggs.get(num(r.config_from))?.row;
    if (parent) {
      this.report.leave('eggs that took their configuration from another egg (config_from): the values were copied into them', `${name} ← ${str(parent.name)}`);
    }
    const inherited = (field: string): unknown => (r[field] === null && parent ? parent[field] : r[field]);
    let images = normalizeDockerImages(json(r.docker_images) ?? []);
    if (typeof images === 'string') {
      this.report.leave('eggs whose Docker images are unreadable: they have none until an administrator sets them', name);
      images = [];
    }
    const features = json(inherited('features'));
    const denylist = json(parent ? parent.file_denylist : r.file_denylist);
    const copyFrom = r.copy_script_from === null ? undefined : this.eggs.get(num(r.copy_script_from));
    return {
      id: uuid,
      int_id: id,
      nest_id: this.nestUuids.get(nestId) ?? null,
      author: clip(str(r.author), 191),
      name: clip(name, 255),
      description: text(r.description),
      features: JSON.stringify(Array.isArray(features) ? features.filter((f) => typeof f === 'string') : null),
      docker_image: images[0]?.image ?? '',
      docker_images: JSON.stringify(images),
      file_denylist: JSON.stringify(Array.isArray(denylist) ? denylist.filter((f) => typeof f === 'string') : []),
      startup: str(r.startup),
      config_files: text(inherited('config_files')) ?? '{}',
      config_startup: text(inherited('config_startup')) ?? '{}',
      config_logs: text(inherited('config_logs')) ?? '{}',
      config_stop: text(inherited('config_stop')),
      script_container: str(r.script_container) || 'alpine:3.4',
      script_entry: str(r.script_entry) || 'ash',
      script_install: text(r.script_install),
      copy_script_from: copyFrom?.uuid ?? null,
      update_url: text(r.update_url),
      force_outgoing_ip: bool(r.force_outgoing_ip),
      ...this.stamps(r),
    };
  }

  /** The rules Hatchery can run; each part it cannot (a pattern RE2 refuses, an unknown rule) is dropped and reported. */
  private rulesOf(rules: string, where: string): string {
    try {
      parseRules(rules);
      return rules;
    } catch (err) {
      const kept = rules.split('|').filter((part) => {
        try {
          parseRules(part);
          return true;
        } catch {
          return false;
        }
      });
      this.report.leave('egg variable rules Hatchery cannot run (a pattern RE2 refuses, or an unknown rule): the rule was dropped', `${where}: "${rules}" (${(err as Error).message})`);
      return kept.join('|');
    }
  }

  private async eggVariables(): Promise<void> {
    const positions = new Map<number, number>();
    const envs = new Set<string>();
    await this.stream('egg_variables', IMPORT_KINDS.eggVariables, async (rows) => {
      const variables: TargetRow[] = [];
      for (const r of rows) {
        const egg = this.eggs.get(num(r.egg_id));
        if (!egg) {
          continue;
        }
        const env = str(r.env_variable);
        const where = `egg "${str(egg.row.name)}" variable ${env}`;
        if (envs.has(`${egg.id}:${env}`)) {
          this.report.leave('egg variables whose environment name the egg already had', where);
          continue;
        }
        envs.add(`${egg.id}:${env}`);
        const position = positions.get(egg.id) ?? 0;
        positions.set(egg.id, position + 1);
        const uuid = randomUUID();
        this.variables.set(str(r.id), { uuid, eggId: egg.id });
        variables.push({
          id: uuid,
          int_id: num(r.id),
          egg_id: egg.uuid,
          position,
          name: clip(str(r.name), 191),
          description: str(r.description),
          env_variable: env,
          default_value: str(r.default_value),
          user_viewable: bool(r.user_viewable),
          user_editable: bool(r.user_editable),
          rules: this.rulesOf(str(r.rules), where),
          ...this.stamps(r),
        });
      }
      await this.write('eggVariables', 'egg_variable', variables);
    });
  }

  private async serversPass(): Promise<void> {
    await this.stream('servers', IMPORT_KINDS.servers, async (rows) => {
      const servers: TargetRow[] = [];
      for (const r of rows) {
        const id = str(r.id);
        const egg = this.eggs.get(num(r.egg_id));
        if (!egg) {
          throw new ImportRefusedError(`Server ${str(r.uuid)} uses egg ${str(r.egg_id)}, which does not exist. Nothing was written.`);
        }
        const status = text(r.status);
        const suspended = status === 'suspended';
        const kept = (SERVER_STATUSES as readonly string[]).includes(status ?? '') ? status : null;
        if (status !== null && !suspended && kept === null) {
          this.report.leave('server states Hatchery does not know: the servers are imported as installed', `${str(r.name)}: ${status}`);
        }
        this.serverEggs.set(id, egg.id);
        this.serverOwners.set(id, str(r.owner_id));
        this.servers.add(id);
        servers.push({
          id,
          uuid: str(r.uuid),
          identifier: str(r.uuidShort),
          name: clip(str(r.name), 191),
          description: text(r.description),
          external_id: text(r.external_id),
          status: kept,
          suspended,
          owner_id: str(r.owner_id),
          node_id: str(r.node_id),
          allocation_id: text(r.allocation_id),
          egg_id: egg.uuid,
          startup: str(r.startup),
          image: str(r.image),
          memory: num(r.memory),
          swap: num(r.swap),
          disk: num(r.disk),
          io: num(r.io),
          cpu: num(r.cpu),
          threads: text(r.threads) || null,
          oom_disabled: bool(r.oom_disabled),
          database_limit: fromPterodactylDatabaseLimit(r.database_limit === null ? null : num(r.database_limit)),
          allocation_limit: num(r.allocation_limit),
          backup_limit: num(r.backup_limit),
          skip_scripts: bool(r.skip_scripts),
          installed_at: date(r.installed_at),
          ...this.stamps(r),
        });
      }
      await this.write('servers', 'server', servers);
    });
  }

  private async allocations(): Promise<void> {
    await this.stream('allocations', IMPORT_KINDS.allocations, async (rows) => {
      await this.write(
        'allocations',
        'allocation',
        rows.map((r) => ({
          id: str(r.id),
          node_id: str(r.node_id),
          ip: clip(str(r.ip), 45),
          port: num(r.port),
          alias: r.ip_alias === null || str(r.ip_alias) === '' ? null : clip(str(r.ip_alias), 191),
          notes: r.notes === null || str(r.notes) === '' ? null : clip(str(r.notes), 191),
          server_id: r.server_id === null || !this.servers.has(str(r.server_id)) ? null : str(r.server_id),
          created_at: date(r.created_at) ?? this.now,
        })),
      );
    });
  }

  private async serverVariables(): Promise<void> {
    await this.stream('server_variables', IMPORT_KINDS.serverVariables, async (rows) => {
      const values: TargetRow[] = [];
      for (const r of rows) {
        const serverId = text(r.server_id);
        const variable = this.variables.get(str(r.variable_id));
        if (serverId === null || !variable || this.serverEggs.get(serverId) !== variable.eggId) {
          this.report.leave("server variables of another egg than the server's (left over from an egg change)", undefined);
          continue;
        }
        values.push({ server_id: serverId, variable_id: variable.uuid, value: str(r.variable_value) });
      }
      const written = await this.write('serverVariables', 'server_variable', values, { skipConflicts: true });
      if (written < values.length) {
        this.report.leave('server variables a server had twice: the first was kept', undefined, values.length - written);
      }
    });
  }

  private async subusers(): Promise<void> {
    await this.stream('subusers', IMPORT_KINDS.subusers, async (rows) => {
      const subusers: TargetRow[] = [];
      for (const r of rows) {
        const serverId = str(r.server_id);
        const userId = str(r.user_id);
        const who = `${this.usernames.get(userId) ?? userId} on server ${serverId}`;
        if (this.serverOwners.get(serverId) === userId) {
          this.report.leave('subuser entries of a server\'s own owner (the owner holds every permission anyway)', who);
          continue;
        }
        const names = stringList(r.permissions) ?? [];
        const granted = toHatcheryPermissions(names);
        const carried = new Set(['websocket.connect', ...toPterodactylNames(granted)]);
        const dropped = names.filter((n) => !carried.has(n));
        if (dropped.length > 0) {
          this.report.leave(
            'subuser permissions Hatchery has no match for, or that make only part of one Hatchery permission (control.start alone: Hatchery\'s server.power also stops and restarts)',
            `${who}: ${dropped.join(', ')}`,
          );
        }
        const held = new Set<ServerPermission>(['server.view', ...granted]);
        const permissions = ALL_SERVER_PERMISSIONS.filter((p) => held.has(p));
        subusers.push({ server_id: serverId, user_id: userId, permissions: textArray(permissions), ...this.stamps(r) });
      }
      const written = await this.write('subusers', 'subuser', subusers, { skipConflicts: true });
      if (written < subusers.length) {
        this.report.leave('subuser entries a user had twice on one server: the first was kept', undefined, subusers.length - written);
      }
    });
  }

  private async databaseHosts(): Promise<void> {
    const names = new Set<string>();
    await this.stream('database_hosts', IMPORT_KINDS.databaseHosts, async (rows) => {
      const hosts: TargetRow[] = [];
      for (const r of rows) {
        const id = str(r.id);
        let name = clip(str(r.name), 191);
        if (names.has(name)) {
          const renamed = clip(`${name} (${id})`, 191);
          this.report.leave('database hosts whose name another host had: renamed', `${name} → ${renamed}`);
          name = renamed;
        }
        names.add(name);
        const password = this.open(r.password, `database host ${name}: password`);
        if (password === undefined) {
          this.report.leave('database hosts whose password could not be opened: set it again in Administration → Database hosts', name);
        }
        hosts.push({
          id,
          name,
          host: clip(str(r.host), 255),
          port: num(r.port),
          username: clip(str(r.username), 80),
          password: this.secrets.seal(password ?? '', hostPasswordContext({ id })),
          max_databases: r.max_databases === null ? null : num(r.max_databases),
          max_user_connections: null,
          node_id: text(r.node_id),
          ...this.stamps(r),
        });
      }
      await this.write('databaseHosts', 'database_host', hosts);
    });
  }

  private async databases(): Promise<void> {
    await this.stream('databases', IMPORT_KINDS.databases, async (rows) => {
      const databases: TargetRow[] = [];
      for (const r of rows) {
        // Hatchery keeps no database passwords (a rotation issues a new one); the dry run still proves each opens.
        this.open(r.password, `database ${str(r.database)}: password`);
        databases.push({
          id: str(r.id),
          server_id: str(r.server_id),
          host_id: str(r.database_host_id),
          database: clip(str(r.database), 64),
          username: clip(str(r.username), 32),
          remote: clip(str(r.remote) || '%', 60),
          max_connections: num(r.max_connections) > 0 ? num(r.max_connections) : null,
          status: 'ready',
          ...this.stamps(r),
        });
      }
      await this.write('databases', 'server_database', databases);
    });
  }

  private async schedulesPass(): Promise<void> {
    await this.stream('schedules', IMPORT_KINDS.schedules, async (rows) => {
      const schedules: TargetRow[] = [];
      for (const r of rows) {
        const fields: CronFields = {
          minute: str(r.cron_minute),
          hour: str(r.cron_hour),
          day_of_month: str(r.cron_day_of_month),
          month: str(r.cron_month) || '*',
          day_of_week: str(r.cron_day_of_week),
        };
        let active = bool(r.is_active);
        let next = date(r.next_run_at);
        if (validateCron(fields).length > 0) {
          if (active) {
            this.report.leave('schedules whose cron Hatchery cannot read: imported switched off', `${str(r.name)} on server ${str(r.server_id)}`);
          }
          active = false;
        } else if (next === null) {
          try {
            next = nextRunAfter(fields, this.now);
          } catch {
            active = false;
          }
        }
        if (bool(r.is_processing)) {
          this.report.leave('schedules caught mid-run in the old panel: imported as not running, they run again at their next time', str(r.name));
        }
        this.schedules.add(str(r.id));
        schedules.push({
          id: str(r.id),
          server_id: str(r.server_id),
          name: clip(str(r.name), 191),
          cron_minute: fields.minute,
          cron_hour: fields.hour,
          cron_day_of_month: fields.day_of_month,
          cron_month: fields.month,
          cron_day_of_week: fields.day_of_week,
          is_active: active,
          is_processing: false,
          only_when_online: bool(r.only_when_online),
          last_run_at: date(r.last_run_at),
          next_run_at: next ?? this.now,
          ...this.stamps(r),
        });
      }
      await this.write('schedules', 'schedule', schedules);
    });
  }

  private async tasks(): Promise<void> {
    await this.stream('tasks', IMPORT_KINDS.tasks, async (rows) => {
      const tasks: TargetRow[] = [];
      for (const r of rows) {
        const action = str(r.action);
        if (!this.schedules.has(str(r.schedule_id))) {
          continue;
        }
        if (!(TASK_ACTIONS as readonly string[]).includes(action)) {
          this.report.leave('schedule tasks of an action Hatchery does not know', action);
          continue;
        }
        tasks.push({
          id: str(r.id),
          schedule_id: str(r.schedule_id),
          sequence_id: num(r.sequence_id),
          action,
          payload: str(r.payload),
          time_offset: num(r.time_offset),
          continue_on_failure: bool(r.continue_on_failure),
          is_queued: false,
          ...this.stamps(r),
        });
      }
      await this.write('tasks', 'schedule_task', tasks);
    });
  }

  private async backups(): Promise<void> {
    await this.stream(
      'backups',
      IMPORT_KINDS.backups,
      async (rows) => {
        const backups: TargetRow[] = [];
        for (const r of rows) {
          const disk = str(r.disk);
          if (disk === 's3' && !this.options.backupS3) {
            this.report.leave('backups on the "s3" adapter: pass --backup-env with the old panel\'s .env to bring its S3 settings and these backups', str(r.uuid));
            continue;
          }
          if (disk !== 'wings' && disk !== 's3') {
            this.report.leave(`backups on the "${disk}" adapter, which Hatchery does not know`, str(r.uuid));
            continue;
          }
          const ignored = stringList(r.ignored_files) ?? [];
          backups.push({
            id: str(r.id),
            uuid: str(r.uuid),
            server_id: str(r.server_id),
            name: clip(str(r.name), 191),
            ignored_files: textArray(ignored),
            disk,
            backup_host_id: disk === 's3' ? IMPORTED_BACKUP_HOST_ID : null,
            upload_id: disk === 's3' ? text(r.upload_id) : null,
            checksum: text(r.checksum),
            bytes: str(r.bytes) || '0',
            is_successful: bool(r.is_successful),
            is_locked: bool(r.is_locked),
            completed_at: date(r.completed_at),
            ...this.stamps(r),
          });
        }
        await this.write('backups', 'backup', backups);
      },
      'deleted_at IS NULL',
    );
  }

  /**
   * Mounts with their ids and links. A mount whose paths Hatchery refuses (docs/admin-mounts.md#path-rules:
   * a target in /home/container or a system directory, a source in Wings' own directories) is left
   * behind with its links and named in the report, rather than kept where Wings would apply it.
   */
  private async mounts(): Promise<void> {
    const eggLinks = await this.source.links('egg_mount');
    const nodeLinks = await this.source.links('mount_node');
    const serverLinks = await this.source.links('mount_server');
    const kept = new Set<string>();
    await this.stream('mounts', IMPORT_KINDS.mounts, async (rows) => {
      const mounts: TargetRow[] = [];
      for (const r of rows) {
        const id = str(r.id);
        const name = str(r.name);
        const bases = nodeLinks.filter((l) => str(l.mount_id) === id).flatMap((l) => this.nodeBases.get(str(l.node_id)) ?? []);
        const paths = mountPaths(str(r.source), str(r.target), bases);
        if ('problem' in paths) {
          this.report.leave(
            'mounts whose paths Hatchery refuses (docs/admin-mounts.md#path-rules): left behind with their links; recreate them with allowed paths',
            `${name}: ${str(r.source)} → ${str(r.target)} (${paths.problem})`,
          );
          continue;
        }
        if (name.length > 64) {
          this.report.leave('mount names longer than 64 characters: shortened', name);
        }
        kept.add(id);
        mounts.push({
          id,
          uuid: str(r.uuid),
          name: clip(name, 64),
          description: text(r.description),
          source: paths.source,
          target: paths.target,
          read_only: bool(r.read_only),
          user_mountable: bool(r.user_mountable),
          created_at: this.now,
          updated_at: this.now,
        });
      }
      await this.write('mounts', 'mount', mounts);
    });
    const eggRows = eggLinks.flatMap((l) => {
      const egg = this.eggs.get(num(l.egg_id));
      return kept.has(str(l.mount_id)) && egg ? [{ egg_id: egg.uuid, mount_id: str(l.mount_id) }] : [];
    });
    const nodeRows = nodeLinks.flatMap((l) => (kept.has(str(l.mount_id)) && this.nodeBases.has(str(l.node_id)) ? [{ mount_id: str(l.mount_id), node_id: str(l.node_id) }] : []));
    const serverRows = serverLinks.flatMap((l) => (kept.has(str(l.mount_id)) && this.servers.has(str(l.server_id)) ? [{ mount_id: str(l.mount_id), server_id: str(l.server_id) }] : []));
    await this.write('mountLinks', 'egg_mount', eggRows, { skipConflicts: true });
    await this.write('mountLinks', 'mount_node', nodeRows, { skipConflicts: true });
    await this.write('mountLinks', 'mount_server', serverRows, { skipConflicts: true });
  }

  /** Pterodactyl's `server:power.start` is Hatchery's `server.power.start`. */
  private static eventName(event: string): string {
    return clip(event.replace(':', '.'), 64);
  }

  private async activity(): Promise<void> {
    if (this.options.skipActivity) {
      const n = await this.source.count('activity_logs');
      if (n > 0) {
        this.report.leave('activity log entries (--skip-activity)', undefined, n);
      }
      return;
    }
    await this.stream('activity_logs', `${IMPORT_KINDS.serverActivity} and account`, async (rows) => {
      const subjects = await this.source.subjectsOf(rows.map((r) => str(r.id)));
      const serversOf = new Map<string, string[]>();
      for (const s of subjects) {
        if (str(s.subject_type) === 'server' && this.servers.has(str(s.subject_id))) {
          const list = serversOf.get(str(s.activity_log_id)) ?? [];
          list.push(str(s.subject_id));
          serversOf.set(str(s.activity_log_id), list);
        }
      }
      const serverRows: TargetRow[] = [];
      const accountRows: TargetRow[] = [];
      for (const r of rows) {
        const event = str(r.event);
        const actorId = str(r.actor_type) === 'user' && this.usernames.has(str(r.actor_id)) ? str(r.actor_id) : null;
        const key = r.api_key_id === null ? undefined : this.keyIdentifiers.get(str(r.api_key_id));
        const via = key ? `pterodactyl-key:${key}` : event.startsWith('server:sftp.') ? 'sftp' : actorId ? 'session' : 'daemon';
        const at = date(r.timestamp) ?? this.now;
        const properties = objectOf(r.properties);
        const ip = text(r.ip) === null ? null : clip(str(r.ip), 64);
        const servers = serversOf.get(str(r.id));
        if (servers) {
          for (const serverId of servers) {
            serverRows.push({
              server_id: serverId,
              actor_id: actorId,
              actor_username: actorId ? (this.usernames.get(actorId) ?? null) : null,
              event: ImportRun.eventName(event),
              metadata: JSON.stringify(properties),
              ip,
              via: clip(via, 32),
              created_at: at,
            });
          }
        } else if (actorId) {
          accountRows.push({
            actor_id: actorId,
            actor_username: this.usernames.get(actorId) ?? null,
            via: clip(via, 32),
            action: ImportRun.eventName(event),
            target_type: 'user',
            target_id: actorId,
            changes: JSON.stringify(properties),
            ip,
            created_at: at,
          });
        } else {
          this.report.leave('activity entries with neither a server nor a user (failed sign-ins of unknown accounts, system events)', undefined);
        }
      }
      await this.write('serverActivity', 'server_activity', serverRows);
      await this.write('accountActivity', 'audit_log', accountRows);
    });
  }

  /**
   * Pterodactyl's "Require 2-Factor Authentication" (0 nobody, 1 administrators, 2 everyone) becomes the
   * two-factor policy. Its administrators are Hatchery's full administrators, whom `admins` covers.
   */
  private async settings(): Promise<void> {
    const raw = (await this.source.settings()).get(TWO_FACTOR_SETTING);
    if (raw === undefined) {
      return; // never changed from the default (nobody), or set in its .env (APP_2FA_REQUIRED), which the import does not read
    }
    const policy = TWO_FACTOR_LEVELS[raw.trim()];
    if (policy === undefined) {
      this.report.leave('a two-factor requirement Pterodactyl does not define (not 0, 1 or 2)', raw);
      return;
    }
    const row = { key: 'twoFactorPolicy', value: JSON.stringify(policy), updated_at: this.now };
    if ((await this.write('settings', 'panel_setting', [row], { skipConflicts: true })) === 0) {
      this.report.leave("the two-factor requirement: Hatchery's own policy was already set and is kept", policy);
      return;
    }
    // Pterodactyl's application API never asked for the second factor; Hatchery refuses every key of a held account.
    const held = policy === 'none' ? 0 : await this.source.count('users', policy === 'all' ? 'use_totp = 0' : 'use_totp = 0 AND root_admin = 1');
    if (held > 0) {
      this.report.note(
        `The two-factor policy is "${policy}": ${held} ${held === 1 ? 'account has' : 'accounts have'} no second factor yet. Each can sign in only to set one up, ` +
          'and its API keys (ptla_ keys of billing modules included) are refused until then. Set one up for such accounts first, or relax the policy in Administration → Settings.',
      );
    }
  }

  /** What exists in the old panel and has no place in Hatchery (yet): counted, so that the host knows. */
  private async leftovers(): Promise<void> {
    const sessions = await this.source.count('sessions');
    if (sessions > 0) {
      this.report.leave('sessions: everyone signs in again', undefined, sessions);
    }
    const settings = await this.source.settings();
    const kept = [...settings.keys()].filter((k) => k.startsWith('settings::') && k !== TWO_FACTOR_SETTING);
    if (kept.length > 0) {
      this.report.leave('panel settings (name, mail, reCAPTCHA …): set them in Hatchery\'s .env', kept.slice(0, 5).join(', '), kept.length);
    }
    const deletedBackups = await this.source.count('backups', 'deleted_at IS NOT NULL');
    if (deletedBackups > 0) {
      this.report.leave('deleted backups (Pterodactyl keeps them as soft-deleted rows)', undefined, deletedBackups);
    }
  }
}

/** Pterodactyl's settings row for its two-factor requirement, and what each of its levels is here. */
const TWO_FACTOR_SETTING = 'settings::pterodactyl:auth:2fa_required';
const TWO_FACTOR_LEVELS: Record<string, TwoFactorPolicy> = { '0': 'none', '1': 'admins', '2': 'all' };

export class PterodactylImporter {
  constructor(
    private readonly dataSource: DataSource,
    private readonly secrets: SecretBox,
    private readonly progress: ImportProgress,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async run(options: ImportOptions): Promise<ImportReport> {
    const box = new LaravelEncrypter(options.appKey);
    await this.refuseUnlessEmpty(this.dataSource.manager);
    const source = await PterodactylSource.open(options.from, options.prefix);
    try {
      await this.checkAppKey(source, box);
      const where = new URL(options.from);
      const report = new ImportReport(`${where.hostname}:${where.port || 3306}/${source.database}${source.prefix ? ` (prefix ${source.prefix})` : ''}`, options.dryRun);
      const importInto = (sink: RowSink): Promise<void> => new ImportRun(source, sink, box, this.secrets, report, this.progress, options, this.now()).run();
      if (options.dryRun) {
        await importInto(DRY_SINK);
        return report;
      }
      await this.dataSource.transaction(async (manager) => {
        await this.refuseUnlessEmpty(manager);
        const writer = new TargetWriter(manager);
        await importInto(writer);
        await writer.advanceSequences();
      });
      return report;
    } finally {
      await source.close();
    }
  }

  private async refuseUnlessEmpty(manager: EntityManager): Promise<void> {
    const held = await existingRows(manager);
    const kinds = Object.entries(held).filter(([, n]) => n > 0);
    if (kinds.length > 0) {
      throw new ImportRefusedError(
        `Hatchery already holds ${kinds.map(([k, n]) => `${n} ${n === 1 ? k.replace(/s$/, '') : k}`).join(', ')}: an import goes into an empty panel only. ` +
          'Use a new database (a new DATA_DIR or DATABASE_URL), or remove what is there. Nothing was written.',
      );
    }
  }

  /** The first encrypted value found (a node token first) must open, before anything is read for real. */
  private async checkAppKey(source: PterodactylSource, box: LaravelEncrypter): Promise<void> {
    const probes: [SourceTable, string, string][] = [
      ['nodes', 'daemon_token', 'a node token'],
      ['api_keys', 'token', 'an API key'],
      ['users', 'totp_secret', 'a two-factor secret'],
      ['database_hosts', 'password', 'a database host password'],
    ];
    for (const [table, column, what] of probes) {
      const [row] = await source.page(table, '0', 1, `${column} IS NOT NULL AND ${column} <> ''`);
      if (!row) {
        continue;
      }
      try {
        box.decrypt(str(row[column]));
        return;
      } catch (err) {
        if (err instanceof LaravelDecryptError) {
          throw new ImportRefusedError(
            err.reason === 'mac'
              ? `The APP_KEY does not open this panel's secrets (tried ${what}): give the APP_KEY from the old panel's .env. Nothing was written.`
              : `The old panel's secrets are not in Laravel's format (tried ${what}: ${err.message}). Nothing was written.`,
          );
        }
        throw err;
      }
    }
  }
}
