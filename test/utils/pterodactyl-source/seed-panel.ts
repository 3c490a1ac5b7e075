import { createHash, generateKeyPairSync, randomInt, randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createConnection, ResultSetHeader } from 'mysql2/promise';
import sshpk from 'sshpk';
import { EGG_FIXTURES_DIR } from 'test/utils/fixtures';
import { laravelEncrypt } from 'test/utils/laravel-encrypt';
import { bcryptHash, databasePassword, phpJsonEncode, phpSerializeValue, strRandom, totpSecret } from 'test/utils/pterodactyl-source/php';
import { PterodactylTable } from 'test/utils/pterodactyl-source/schema';
import { PterodactylSource } from 'test/utils/pterodactyl-source/source';

/**
 * A small but complete Pterodactyl 1.11 panel, written the way the old panel writes its rows
 * (docs/pterodactyl-source-schema.md): every secret Laravel-encrypted under the given APP_KEY,
 * bcrypt `$2y$10$` passwords and recovery codes, `json_encode` JSON (`\/`), eggs from the stock egg
 * fixtures stored as the egg importer stores them.
 */

interface SeedNodeOptions {
  fqdn: string;
  scheme: 'http' | 'https';
  daemonListen: number;
  /** daemonSFTP; 2022 by default. */
  daemonSftp?: number;
  /** The IP of the node's allocations; 127.0.0.1 by default. */
  allocationIp?: string;
}

interface SeedDatabaseHostOptions {
  host: string;
  port: number;
  username: string;
  password: string;
}

/** @public */
export interface SeedOptions {
  /** The panel's APP_KEY (`base64:…`), under which every encrypted column is written. */
  appKey: string;
  /** One node per entry (at least one); the five servers are spread over them. */
  nodes: SeedNodeOptions[];
  /**
   * A real MySQL/MariaDB account: becomes the panel's database host, and one customer database with
   * its user is created on it for real (dropped again by `source.drop()`).
   */
  databaseHost?: SeedDatabaseHostOptions;
  /**
   * The first server id (the five servers take it and the four after it). By default a random id from
   * 10,000,000 on, so that the customer databases (`s<serverId>_…`) of fixtures seeded in parallel on
   * the same MariaDB never share a name.
   */
  firstServerId?: number;
}

export interface SeededUser {
  id: number;
  uuid: string;
  /** As stored: lower-cased. */
  username: string;
  /** As typed, uppercase letters kept. */
  email: string;
  nameFirst: string;
  nameLast: string;
  /** The plaintext password (stored as bcrypt `$2y$10$`). */
  password: string;
  admin: boolean;
  language: string;
  externalId: string | null;
  useTotp: boolean;
  /** The plaintext TOTP secret where one is stored (encrypted), also when use_totp is 0 (setup never finished). */
  totpSecret?: string;
  /** The ten plaintext recovery codes of a user with 2FA on (stored as bcrypt hashes). */
  recoveryCodes?: string[];
}

export interface SeededSshKey {
  id: number;
  userId: number;
  name: string;
  algorithm: 'ed25519' | 'rsa';
  /** As stored: PKCS#8 PEM as phpseclib writes it (CRLF line ends, no final newline). */
  publicKeyPem: string;
  /** The same key in OpenSSH's one-line form (`ssh-ed25519 AAAA…`), not stored anywhere. */
  openSsh: string;
  /** As stored: base64 SHA-256 of the OpenSSH wire blob without `=` (43 characters). */
  fingerprint: string;
  /** Soft-deleted (deleted_at set): the importer skips it. */
  deleted: boolean;
}

type ApplicationResource = 'servers' | 'nodes' | 'allocations' | 'users' | 'locations' | 'nests' | 'eggs' | 'database_hosts' | 'server_databases';

export interface SeededApiKey {
  id: number;
  /** The 16-character identifier: `ptlc_…`, `ptla_…`, or 16 alphanumerics for keys from before 1.8. */
  identifier: string;
  /** The 32-character secret (stored encrypted). */
  secret: string;
  /** What the user holds: identifier + secret (48 characters). */
  full: string;
  /** 0 none, 1 account (client), 2 application, 3 daemon user, 4 daemon application. */
  keyType: 0 | 1 | 2 | 3 | 4;
  ownerId: number;
  expired: boolean;
  /** As the array cast decodes allowed_ips; null where the column is NULL. */
  allowedIps: string[] | null;
  memo: string;
  /** The r_* columns (all 0 except on the application key). */
  permissions: Record<ApplicationResource, number>;
}

export interface SeededLocation {
  id: number;
  short: string;
  long: string;
}

export interface SeededNode {
  id: number;
  uuid: string;
  name: string;
  locationId: number;
  /** daemon_token_id (16 alphanumerics). */
  tokenId: string;
  /** The plaintext daemon token (64 alphanumerics; stored encrypted). */
  token: string;
  fqdn: string;
  scheme: 'http' | 'https';
  daemonListen: number;
  daemonSftp: number;
}

export interface SeededAllocation {
  id: number;
  nodeId: number;
  ip: string;
  port: number;
  alias: string | null;
  notes: string | null;
  serverId: number | null;
}

export interface SeededNest {
  id: number;
  uuid: string;
  name: string;
}

interface SeededEggVariable {
  id: number;
  eggId: number;
  name: string;
  envVariable: string;
  defaultValue: string;
  rules: string;
  userViewable: boolean;
  userEditable: boolean;
}

export interface SeededEgg {
  id: number;
  uuid: string;
  name: string;
  nestId: number;
  /** The egg fixture file it was imported from (in EGG_FIXTURES_DIR). */
  fixture: string;
  /** PTDL_v1 or PTDL_v2: the format of that file. */
  fixtureVersion: string;
  /** config_from: config_files/startup/logs/stop and features are NULL and come from this egg. */
  configFromId?: number;
  /** copy_script_from: script_install is NULL and comes from this egg. */
  copyScriptFromId?: number;
  variables: SeededEggVariable[];
}

export interface SeededServer {
  id: number;
  uuid: string;
  uuidShort: string;
  nodeId: number;
  ownerId: number;
  nestId: number;
  eggId: number;
  name: string;
  externalId: string | null;
  /** servers.status: null (installed), 'installing' or 'suspended'. */
  status: string | null;
  suspended: boolean;
  allocationId: number;
  /** Allocations assigned besides the primary one. */
  extraAllocationIds: number[];
  image: string;
  /** Every egg variable's value, by env name (a server_variables row each). */
  variables: Record<string, string>;
}

export interface SeededSubuser {
  id: number;
  userId: number;
  serverId: number;
  permissions: string[];
}

export interface SeededDatabaseHost {
  id: number;
  name: string;
  host: string;
  port: number;
  username: string;
  /** Plaintext (stored encrypted). */
  password: string;
  nodeId: number | null;
}

export interface SeededDatabase {
  id: number;
  serverId: number;
  hostId: number;
  /** `s<serverId>_<name>`: exists on the database host. */
  database: string;
  /** `u<serverId>_<10 random>`, '<username>'@'%' on the database host. */
  username: string;
  /** Plaintext (stored encrypted): logs in as `username`. */
  password: string;
  remote: string;
  maxConnections: number;
}

type TaskAction = 'command' | 'power' | 'backup';

interface SeededTask {
  id: number;
  sequenceId: number;
  action: TaskAction;
  payload: string;
  timeOffset: number;
  continueOnFailure: boolean;
}

export interface SeededSchedule {
  id: number;
  serverId: number;
  name: string;
  /** minute hour day-of-month month day-of-week */
  cron: string;
  active: boolean;
  processing: boolean;
  onlyWhenOnline: boolean;
  tasks: SeededTask[];
}

/** successful, locked (successful and locked), failed, deleted (soft, was successful), in-progress (completed_at NULL). */
type SeededBackupState = 'successful' | 'locked' | 'failed' | 'deleted' | 'in-progress';

export interface SeededBackup {
  id: number;
  uuid: string;
  serverId: number;
  name: string;
  state: SeededBackupState;
  disk: 'wings' | 's3';
  checksum: string | null;
  bytes: number;
  ignoredFiles: string[];
}

export interface SeededMount {
  id: number;
  uuid: string;
  name: string;
  source: string;
  target: string;
  readOnly: boolean;
  serverIds: number[];
  nodeIds: number[];
  eggIds: number[];
}

interface SeededActivitySubject {
  type: 'user' | 'api_key' | 'server' | 'backup';
  id: number;
}

export interface SeededActivity {
  id: number;
  event: string;
  ip: string;
  actorId: number | null;
  apiKeyId: number | null;
  /** The properties column as stored (PHP json_encode). */
  properties: string;
  timestamp: Date;
  subjects: SeededActivitySubject[];
}

export interface SeededPanel {
  appKey: string;
  users: SeededUser[];
  sshKeys: SeededSshKey[];
  keys: SeededApiKey[];
  locations: SeededLocation[];
  nodes: SeededNode[];
  allocations: SeededAllocation[];
  nests: SeededNest[];
  eggs: SeededEgg[];
  servers: SeededServer[];
  subuser: SeededSubuser;
  databaseHost: SeededDatabaseHost | null;
  databases: SeededDatabase[];
  schedules: SeededSchedule[];
  backups: SeededBackup[];
  mounts: SeededMount[];
  activity: SeededActivity[];
  /** Row counts of activity_logs and activity_log_subjects. */
  activityCounts: { logs: number; subjects: number };
  /** The settings rows, key → plaintext value (the SMTP password is stored encrypted). */
  settings: Record<string, string>;
  sessions: { id: string; userId: number }[];
}

// ---------------------------------------------------------------------------------------------

type SqlValue = string | number | Date | null;
type Row = Record<string, SqlValue>;

/** Inserts one row; returns its id (auto-increment, or the id given). */
const insert = async (source: PterodactylSource, table: PterodactylTable, row: Row): Promise<number> => {
  const columns = Object.keys(row)
    .map((c) => `\`${c}\``)
    .join(', ');
  const result = await source.query<ResultSetHeader>(`INSERT INTO ${source.table(table)} (${columns}) VALUES (?)`, [Object.values(row)]);
  return typeof row.id === 'number' ? row.id : result.insertId;
};

/** An egg export file (PTDL_v1 or PTDL_v2), the fields read here. */
interface EggFile {
  meta: { version: string; update_url?: string | null };
  name: string;
  author: string;
  description?: string | null;
  features?: string[] | null;
  docker_images?: Record<string, string>;
  images?: string[];
  file_denylist?: string[];
  startup: string;
  config: { files: string; startup: string; logs: string; stop: string };
  scripts: { installation: { script: string; container: string; entrypoint: string } };
  variables: { name: string; description: string; env_variable: string; default_value: string | null; user_viewable: boolean | number; user_editable: boolean | number; rules: string }[];
}

const readEgg = (file: string): EggFile => {
  const path = join(EGG_FIXTURES_DIR, file);
  if (!existsSync(path)) {
    throw new Error(`seedPanel needs the stock egg ${file} in ${EGG_FIXTURES_DIR} (set HATCHERY_EGG_FIXTURES)`);
  }
  return JSON.parse(readFileSync(path, 'utf8')) as EggFile;
};

/** docker_images as the importer stores them: PTDL_v1's list becomes an object with each image as its own name. */
const dockerImages = (egg: EggFile): Record<string, string> => egg.docker_images ?? Object.fromEntries((egg.images ?? []).map((image) => [image, image]));

/** PKCS#8 PEM as phpseclib's `toString('PKCS8')` writes it: 64-column base64, CRLF, no final newline. */
const phpseclibPem = (der: Buffer): string => {
  const lines = der.toString('base64').match(/.{1,64}/g) ?? [];
  return `-----BEGIN PUBLIC KEY-----\r\n${lines.join('\r\n')}\r\n-----END PUBLIC KEY-----`;
};

const sshKey = (algorithm: 'ed25519' | 'rsa', comment: string): { pem: string; openSsh: string; fingerprint: string } => {
  const { publicKey } = algorithm === 'rsa' ? generateKeyPairSync('rsa', { modulusLength: 2048 }) : generateKeyPairSync('ed25519');
  const der = publicKey.export({ type: 'spki', format: 'der' });
  const parsed = sshpk.parseKey(publicKey.export({ type: 'spki', format: 'pem' }), 'pem');
  const blob = parsed.toBuffer('rfc4253', {});
  return {
    pem: phpseclibPem(der),
    openSsh: `${parsed.toString('ssh')} ${comment}`.replace(' (unnamed)', ''),
    fingerprint: createHash('sha256').update(blob).digest('base64').replace(/=+$/, ''),
  };
};

const NO_PERMISSIONS: Record<ApplicationResource, number> = {
  servers: 0,
  nodes: 0,
  allocations: 0,
  users: 0,
  locations: 0,
  nests: 0,
  eggs: 0,
  database_hosts: 0,
  server_databases: 0,
};

const SUBUSER_PERMISSIONS = ['websocket.connect', 'control.console', 'control.start', 'control.stop', 'control.restart', 'file.read', 'file.read-content', 'backup.read'];

/**
 * Fills `source` with a small, complete panel (see SeededPanel; the ids in a fresh source start at
 * 1 except the servers', see SeedOptions.firstServerId). Needs the egg fixtures (Paper, Vanilla
 * Minecraft, Garry's Mod, Rust).
 */
export const seedPanel = async (source: PterodactylSource, options: SeedOptions): Promise<SeededPanel> => {
  if (options.nodes.length === 0) {
    throw new Error('seedPanel: at least one node');
  }
  const encrypt = (value: string): string => laravelEncrypt(value, options.appKey);
  const now = new Date(Math.floor(Date.now() / 1000) * 1000);
  const MINUTE = 60;
  const HOUR = 60 * MINUTE;
  const DAY = 24 * HOUR;
  const ago = (seconds: number): Date => new Date(now.getTime() - seconds * 1000);
  const stamps = (seconds: number, updatedSeconds = seconds): Row => ({ created_at: ago(seconds), updated_at: ago(updatedSeconds) });
  const row = (table: PterodactylTable, values: Row): Promise<number> => insert(source, table, values);

  // --- users ---------------------------------------------------------------------------------
  const userSpecs: { username: string; email: string; nameFirst: string; nameLast: string; admin?: boolean; language?: string; externalId?: string; totp?: 'on' | 'pending'; age: number }[] = [
    { username: 'admin', email: 'admin@example.com', nameFirst: 'Ada', nameLast: 'Admin', admin: true, age: 900 * DAY },
    { username: 'anna', email: 'Anna.Schmidt@Example.de', nameFirst: 'Anna', nameLast: 'Schmidt', language: 'de', age: 400 * DAY },
    { username: 'bob', email: 'bob@example.com', nameFirst: 'Bob', nameLast: 'Builder', totp: 'on', age: 300 * DAY },
    { username: 'carol', email: 'carol@example.org', nameFirst: 'Carol', nameLast: 'Danvers', externalId: 'whmcs-client-1042', totp: 'pending', age: 30 * DAY },
  ];
  const users: SeededUser[] = [];
  for (const spec of userSpecs) {
    const password = strRandom(20);
    const secret = spec.totp ? totpSecret() : undefined;
    const user: SeededUser = {
      id: 0,
      uuid: randomUUID(),
      username: spec.username.toLowerCase(),
      email: spec.email,
      nameFirst: spec.nameFirst,
      nameLast: spec.nameLast,
      password,
      admin: spec.admin ?? false,
      language: spec.language ?? 'en',
      externalId: spec.externalId ?? null,
      useTotp: spec.totp === 'on',
      ...(secret ? { totpSecret: secret } : {}),
    };
    user.id = await row('users', {
      external_id: user.externalId,
      uuid: user.uuid,
      username: user.username,
      email: user.email,
      name_first: user.nameFirst,
      name_last: user.nameLast,
      password: await bcryptHash(password),
      remember_token: spec.admin ? strRandom(60) : null,
      language: user.language,
      root_admin: user.admin ? 1 : 0,
      use_totp: user.useTotp ? 1 : 0,
      totp_secret: secret ? encrypt(secret) : null,
      totp_authenticated_at: user.useTotp ? ago(200 * DAY) : null,
      gravatar: spec.username === 'carol' ? 0 : 1,
      ...stamps(spec.age, 10 * DAY),
    });
    if (user.useTotp) {
      user.recoveryCodes = Array.from({ length: 10 }, () => strRandom(10));
      for (const code of user.recoveryCodes) {
        await row('recovery_tokens', { user_id: user.id, token: await bcryptHash(code), created_at: ago(200 * DAY) });
      }
    }
    users.push(user);
  }
  const [admin, anna, bob, carol] = users;

  // --- SSH keys ------------------------------------------------------------------------------
  const sshKeys: SeededSshKey[] = [];
  for (const spec of [
    { user: anna, name: 'laptop', algorithm: 'ed25519' as const, deleted: false },
    { user: anna, name: 'old laptop', algorithm: 'ed25519' as const, deleted: true },
    { user: bob, name: 'workstation', algorithm: 'rsa' as const, deleted: false },
  ]) {
    const key = sshKey(spec.algorithm, `${spec.user.username}@${spec.name.replace(/ /g, '-')}`);
    const id = await row('user_ssh_keys', {
      user_id: spec.user.id,
      name: spec.name,
      fingerprint: key.fingerprint,
      public_key: key.pem,
      ...stamps(90 * DAY, spec.deleted ? 20 * DAY : 90 * DAY),
      deleted_at: spec.deleted ? ago(20 * DAY) : null,
    });
    sshKeys.push({ id, userId: spec.user.id, name: spec.name, algorithm: spec.algorithm, publicKeyPem: key.pem, openSsh: key.openSsh, fingerprint: key.fingerprint, deleted: spec.deleted });
  }

  // --- API keys ------------------------------------------------------------------------------
  const keys: SeededApiKey[] = [];
  const keySpecs: {
    owner: SeededUser;
    keyType: SeededApiKey['keyType'];
    identifier: string;
    allowedIps: string[] | null;
    memo: string;
    lastUsed: Date | null;
    expiresAt: Date | null;
    age: number;
    permissions?: Partial<Record<ApplicationResource, number>>;
  }[] = [
    // A client key with an IP allow-list, used yesterday.
    { owner: anna, keyType: 1, identifier: `ptlc_${strRandom(11)}`, allowedIps: ['127.0.0.1', '10.0.0.0/8'], memo: 'Home automation', lastUsed: ago(DAY), expiresAt: null, age: 60 * DAY },
    // An application key of the admin.
    { owner: admin, keyType: 2, identifier: `ptla_${strRandom(11)}`, allowedIps: null, memo: 'Billing integration', lastUsed: ago(2 * HOUR), expiresAt: null, age: 200 * DAY, permissions: { servers: 3, nodes: 1, users: 3 } },
    // A client key from before 1.8: no prefix.
    { owner: bob, keyType: 1, identifier: strRandom(16), allowedIps: [], memo: 'Old Discord bot', lastUsed: ago(500 * DAY), expiresAt: null, age: 1_000 * DAY },
    // An expired client key.
    { owner: bob, keyType: 1, identifier: `ptlc_${strRandom(11)}`, allowedIps: [], memo: 'Expired', lastUsed: null, expiresAt: ago(7 * DAY), age: 40 * DAY },
    // A legacy daemon-user key (0.7): the importer skips it.
    { owner: admin, keyType: 3, identifier: strRandom(16), allowedIps: null, memo: '', lastUsed: null, expiresAt: null, age: 1_500 * DAY },
  ];
  for (const spec of keySpecs) {
    const secret = strRandom(32);
    const permissions = { ...NO_PERMISSIONS, ...spec.permissions };
    const id = await row('api_keys', {
      user_id: spec.owner.id,
      key_type: spec.keyType,
      identifier: spec.identifier,
      token: encrypt(secret),
      allowed_ips: spec.allowedIps === null ? null : phpJsonEncode(spec.allowedIps),
      memo: spec.memo,
      last_used_at: spec.lastUsed,
      expires_at: spec.expiresAt,
      ...stamps(spec.age),
      ...Object.fromEntries(Object.entries(permissions).map(([resource, value]) => [`r_${resource}`, value])),
    });
    keys.push({
      id,
      identifier: spec.identifier,
      secret,
      full: spec.identifier + secret,
      keyType: spec.keyType,
      ownerId: spec.owner.id,
      expired: spec.expiresAt !== null && spec.expiresAt < now,
      allowedIps: spec.allowedIps,
      memo: spec.memo,
      permissions,
    });
  }

  // --- locations, nodes, allocations -----------------------------------------------------------
  const locations: SeededLocation[] = [];
  for (const [short, long] of [
    ['fra1', 'Frankfurt am Main, Germany'],
    ['nyc1', 'New York, USA'],
  ]) {
    locations.push({ id: await row('locations', { short, long, ...stamps(800 * DAY) }), short, long });
  }
  const nodes: SeededNode[] = [];
  const allocations: SeededAllocation[] = [];
  for (const [i, spec] of options.nodes.entries()) {
    const node: SeededNode = {
      id: 0,
      uuid: randomUUID(),
      name: `${locations[i % 2].short}-node${String(i + 1).padStart(2, '0')}`,
      locationId: locations[i % 2].id,
      tokenId: strRandom(16),
      token: strRandom(64),
      fqdn: spec.fqdn,
      scheme: spec.scheme,
      daemonListen: spec.daemonListen,
      daemonSftp: spec.daemonSftp ?? 2022,
    };
    node.id = await row('nodes', {
      uuid: node.uuid,
      public: i === 2 ? 0 : 1,
      name: node.name,
      description: i === 0 ? 'Ryzen 9 7950X, 128 GB' : null,
      location_id: node.locationId,
      fqdn: node.fqdn,
      scheme: node.scheme,
      behind_proxy: 0,
      maintenance_mode: 0,
      memory: 65_536,
      memory_overallocate: i === 1 ? -1 : 0,
      disk: 512_000,
      disk_overallocate: i === 1 ? 10 : 0,
      upload_size: i === 0 ? 100 : 512,
      daemon_token_id: node.tokenId,
      daemon_token: encrypt(node.token),
      daemonListen: node.daemonListen,
      daemonSFTP: node.daemonSftp,
      daemonBase: '/var/lib/pterodactyl/volumes',
      ...stamps(700 * DAY - i * DAY, 5 * DAY),
    });
    nodes.push(node);
    for (let p = 0; p < 8; p++) {
      const allocation: SeededAllocation = {
        id: 0,
        nodeId: node.id,
        ip: spec.allocationIp ?? '127.0.0.1',
        port: 25_565 + p,
        alias: i === 0 && p === 0 ? 'play.example.com' : null,
        notes: null,
        serverId: null,
      };
      allocation.id = await row('allocations', {
        node_id: node.id,
        ip: allocation.ip,
        ip_alias: allocation.alias,
        port: allocation.port,
        server_id: null,
        notes: null,
        ...stamps(700 * DAY - i * DAY),
      });
      allocations.push(allocation);
    }
  }

  // --- nests and eggs ------------------------------------------------------------------------
  const nests: SeededNest[] = [];
  for (const [name, description] of [
    ['Minecraft', 'Minecraft - the classic game from Mojang. With support for Vanilla MC, Spigot, and many others!'],
    ['Source Engine', 'Includes support for most Source Dedicated Server games.'],
    ['Rust', 'Rust - A game where you must fight to survive.'],
  ]) {
    const nest = { uuid: randomUUID(), name };
    nests.push({ id: await row('nests', { uuid: nest.uuid, author: 'support@pterodactyl.io', name, description, ...stamps(900 * DAY) }), ...nest });
  }
  const eggs: SeededEgg[] = [];
  const eggFiles = new Map<number, EggFile>();
  const insertEgg = async (
    fixture: string,
    nest: SeededNest,
    inherit?: { from: SeededEgg; extraVariables: EggFile['variables'] },
  ): Promise<SeededEgg> => {
    const file = readEgg(fixture);
    const egg: SeededEgg = {
      id: 0,
      uuid: randomUUID(),
      name: file.name,
      nestId: nest.id,
      fixture,
      fixtureVersion: file.meta.version,
      ...(inherit ? { configFromId: inherit.from.id, copyScriptFromId: inherit.from.id } : {}),
      variables: [],
    };
    egg.id = await row('eggs', {
      uuid: egg.uuid,
      nest_id: nest.id,
      author: file.author,
      name: file.name,
      description: file.description ?? null,
      features: inherit || !file.features ? null : phpJsonEncode(file.features),
      docker_images: phpJsonEncode(dockerImages(file)),
      file_denylist: inherit ? null : phpJsonEncode(file.file_denylist ?? []),
      update_url: file.meta.update_url ?? null,
      config_files: inherit ? null : file.config.files,
      config_startup: inherit ? null : file.config.startup,
      config_logs: inherit ? null : file.config.logs,
      config_stop: inherit ? null : file.config.stop,
      config_from: inherit ? inherit.from.id : null,
      startup: file.startup,
      script_container: file.scripts.installation.container,
      copy_script_from: inherit ? inherit.from.id : null,
      script_entry: file.scripts.installation.entrypoint,
      script_is_privileged: 1,
      script_install: inherit ? null : file.scripts.installation.script,
      ...stamps(600 * DAY, 100 * DAY),
      force_outgoing_ip: 0,
    });
    for (const variable of [...file.variables, ...(inherit?.extraVariables ?? [])]) {
      const seeded: SeededEggVariable = {
        id: 0,
        eggId: egg.id,
        name: variable.name,
        envVariable: variable.env_variable,
        defaultValue: variable.default_value ?? '',
        rules: variable.rules,
        userViewable: Boolean(variable.user_viewable),
        userEditable: Boolean(variable.user_editable),
      };
      seeded.id = await row('egg_variables', {
        egg_id: egg.id,
        name: seeded.name,
        description: variable.description,
        env_variable: seeded.envVariable,
        default_value: seeded.defaultValue,
        user_viewable: seeded.userViewable ? 1 : 0,
        user_editable: seeded.userEditable ? 1 : 0,
        rules: seeded.rules,
        ...stamps(600 * DAY, 100 * DAY),
      });
      egg.variables.push(seeded);
    }
    eggs.push(egg);
    eggFiles.set(egg.id, file);
    return egg;
  };
  const paper = await insertEgg('egg-paper.json', nests[0]);
  const gmod = await insertEgg('egg-garrys-mod.json', nests[1]);
  const rust = await insertEgg('egg-rust.json', nests[2]);
  // An egg made in the admin UI from Vanilla's settings that copies Paper's config and install
  // script, with a variable whose rule RE2 cannot run (a lookahead).
  const vanilla = await insertEgg('egg-vanilla-minecraft.json', nests[0], {
    from: paper,
    extraVariables: [
      {
        name: 'Admin Password',
        description: 'Password of the in-game admin console. At least one digit.',
        env_variable: 'ADMIN_PASSWORD',
        default_value: 'changeme1',
        user_viewable: true,
        user_editable: true,
        rules: 'required|regex:/^(?=.*\\d).+$/',
      },
    ],
  });

  // --- servers -------------------------------------------------------------------------------
  const firstServerId = options.firstServerId ?? 10_000_000 + randomInt(80_000_000);
  const nodeFor = (i: number): SeededNode => nodes[i % nodes.length];
  const freeAllocation = (node: SeededNode): SeededAllocation => {
    const found = allocations.find((a) => a.nodeId === node.id && a.serverId === null);
    if (!found) {
      throw new Error(`seedPanel: node ${node.id} has no free allocation left`);
    }
    return found;
  };
  const serverSpecs: {
    name: string;
    description: string;
    owner: SeededUser;
    egg: SeededEgg;
    status: string | null;
    externalId?: string;
    values?: Record<string, string>;
    limits: { memory: number; swap: number; disk: number; io: number; cpu: number; threads: string | null; oomDisabled: boolean };
    features: { databases: number | null; allocations: number | null; backups: number };
    extraAllocation?: string;
    skipScripts?: boolean;
    image?: string;
    age: number;
  }[] = [
    {
      name: 'Anna’s Paper',
      description: 'Survival für Freunde',
      owner: anna,
      egg: paper,
      status: null,
      values: { MINECRAFT_VERSION: '1.20.4', BUILD_NUMBER: '496' },
      limits: { memory: 4_096, swap: 0, disk: 10_240, io: 500, cpu: 200, threads: null, oomDisabled: true },
      features: { databases: 2, allocations: 3, backups: 5 },
      extraAllocation: 'Dynmap',
      age: 300 * DAY,
    },
    {
      name: 'Sandbox GMod',
      description: '',
      owner: anna,
      egg: gmod,
      status: 'suspended',
      values: { MAX_PLAYERS: '24', STEAM_ACC: 'ABCDEF0123456789ABCDEF0123456789' },
      limits: { memory: 2_048, swap: 512, disk: 20_480, io: 500, cpu: 100, threads: null, oomDisabled: true },
      features: { databases: null, allocations: null, backups: 0 },
      age: 250 * DAY,
    },
    {
      name: 'Rust Weekly Wipe',
      description: 'Installing after a reinstall',
      owner: bob,
      egg: rust,
      status: 'installing',
      values: { HOSTNAME: "Bob's Rust", RCON_PASS: 'rust-admin.1', WORLD_SIZE: '3500' },
      limits: { memory: 8_192, swap: 0, disk: 40_960, io: 500, cpu: 300, threads: '0-1', oomDisabled: true },
      features: { databases: 0, allocations: 0, backups: 2 },
      image: 'ghcr.io/pterodactyl/games:rust',
      age: 120 * DAY,
    },
    {
      name: 'Carol Vanilla',
      description: 'Ordered through the billing panel',
      owner: carol,
      egg: vanilla,
      status: null,
      externalId: 'whmcs-service-77',
      values: { VANILLA_VERSION: '1.20.1', ADMIN_PASSWORD: 'hunter22' },
      limits: { memory: 0, swap: -1, disk: 0, io: 500, cpu: 0, threads: null, oomDisabled: false },
      features: { databases: 1, allocations: 1, backups: 1 },
      image: 'ghcr.io/pterodactyl/yolks:java_17',
      age: 25 * DAY,
    },
    {
      name: 'Staff Test',
      description: 'Scratch server of the staff',
      owner: admin,
      egg: paper,
      status: null,
      limits: { memory: 1_024, swap: 0, disk: 5_120, io: 500, cpu: 100, threads: null, oomDisabled: true },
      features: { databases: null, allocations: null, backups: 0 },
      skipScripts: true,
      age: 10 * DAY,
    },
  ];
  const servers: SeededServer[] = [];
  for (const [i, spec] of serverSpecs.entries()) {
    const node = nodeFor(i);
    const primary = freeAllocation(node);
    const id = firstServerId + i;
    primary.serverId = id;
    const extra = spec.extraAllocation ? freeAllocation(node) : undefined;
    if (extra) {
      extra.serverId = id;
      extra.notes = spec.extraAllocation ?? null;
    }
    const uuid = randomUUID();
    const eggFile = eggFiles.get(spec.egg.id);
    if (!eggFile) {
      throw new Error(`seedPanel: no egg file for egg ${spec.egg.id}`);
    }
    const server: SeededServer = {
      id,
      uuid,
      uuidShort: uuid.slice(0, 8),
      nodeId: node.id,
      ownerId: spec.owner.id,
      nestId: spec.egg.nestId,
      eggId: spec.egg.id,
      name: spec.name,
      externalId: spec.externalId ?? null,
      status: spec.status,
      suspended: spec.status === 'suspended',
      allocationId: primary.id,
      extraAllocationIds: extra ? [extra.id] : [],
      image: spec.image ?? Object.values(dockerImages(eggFile))[0],
      variables: Object.fromEntries(spec.egg.variables.map((v) => [v.envVariable, spec.values?.[v.envVariable] ?? v.defaultValue])),
    };
    await row('servers', {
      id,
      external_id: server.externalId,
      uuid,
      uuidShort: server.uuidShort,
      node_id: node.id,
      name: spec.name,
      description: spec.description,
      status: spec.status,
      skip_scripts: spec.skipScripts ? 1 : 0,
      owner_id: spec.owner.id,
      memory: spec.limits.memory,
      swap: spec.limits.swap,
      disk: spec.limits.disk,
      io: spec.limits.io,
      cpu: spec.limits.cpu,
      threads: spec.limits.threads,
      oom_disabled: spec.limits.oomDisabled ? 1 : 0,
      allocation_id: primary.id,
      nest_id: spec.egg.nestId,
      egg_id: spec.egg.id,
      startup: eggFile.startup,
      image: server.image,
      allocation_limit: spec.features.allocations,
      database_limit: spec.features.databases,
      backup_limit: spec.features.backups,
      ...stamps(spec.age, 3 * DAY),
      installed_at: spec.status === 'installing' ? null : ago(spec.age - 10 * MINUTE),
    });
    for (const allocation of extra ? [primary, extra] : [primary]) {
      await source.query(`UPDATE ${source.table('allocations')} SET server_id = ?, notes = ? WHERE id = ?`, [id, allocation.notes, allocation.id]);
    }
    for (const variable of spec.egg.variables) {
      await row('server_variables', { server_id: id, variable_id: variable.id, variable_value: server.variables[variable.envVariable], ...stamps(spec.age, 3 * DAY) });
    }
    servers.push(server);
  }
  const [annaPaper, , , carolVanilla, staffTest] = servers;

  // --- subuser -------------------------------------------------------------------------------
  const subuser: SeededSubuser = { id: 0, userId: carol.id, serverId: annaPaper.id, permissions: SUBUSER_PERMISSIONS };
  subuser.id = await row('subusers', { user_id: carol.id, server_id: annaPaper.id, permissions: phpJsonEncode(SUBUSER_PERMISSIONS), ...stamps(20 * DAY) });

  // --- database host and a customer database ---------------------------------------------------
  let databaseHost: SeededDatabaseHost | null = null;
  const databases: SeededDatabase[] = [];
  if (options.databaseHost) {
    const hostSpec = options.databaseHost;
    databaseHost = { id: 0, name: 'MariaDB fra1', host: hostSpec.host, port: hostSpec.port, username: hostSpec.username, password: hostSpec.password, nodeId: nodes[0].id };
    databaseHost.id = await row('database_hosts', {
      name: databaseHost.name,
      host: hostSpec.host,
      port: hostSpec.port,
      username: hostSpec.username,
      password: encrypt(hostSpec.password),
      max_databases: null,
      node_id: databaseHost.nodeId,
      ...stamps(500 * DAY),
    });
    const database: SeededDatabase = {
      id: 0,
      serverId: annaPaper.id,
      hostId: databaseHost.id,
      database: `s${annaPaper.id}_luckperms`,
      username: `u${annaPaper.id}_${strRandom(10)}`,
      password: databasePassword(),
      remote: '%',
      maxConnections: 0,
    };
    const host = await createConnection({ host: hostSpec.host, port: hostSpec.port, user: hostSpec.username, password: hostSpec.password, connectTimeout: 5_000 });
    const dropOnHost = async (): Promise<void> => {
      const c = await createConnection({ host: hostSpec.host, port: hostSpec.port, user: hostSpec.username, password: hostSpec.password, connectTimeout: 5_000 });
      try {
        await c.query(`DROP DATABASE IF EXISTS \`${database.database}\``);
        await c.query('DROP USER IF EXISTS ?@?', [database.username, database.remote]);
      } finally {
        await c.end();
      }
    };
    try {
      await host.query(`CREATE DATABASE \`${database.database}\``);
      source.onDrop(dropOnHost);
      await host.query('CREATE USER ?@? IDENTIFIED BY ?', [database.username, database.remote, database.password]);
      await host.query(`GRANT ALL PRIVILEGES ON \`${database.database}\`.* TO ?@?`, [database.username, database.remote]);
    } finally {
      await host.end();
    }
    database.id = await row('databases', {
      server_id: database.serverId,
      database_host_id: database.hostId,
      database: database.database,
      username: database.username,
      remote: database.remote,
      password: encrypt(database.password),
      max_connections: database.maxConnections,
      ...stamps(100 * DAY),
    });
    databases.push(database);
  }

  // --- schedules and tasks -------------------------------------------------------------------
  const schedules: SeededSchedule[] = [];
  const scheduleSpecs: {
    server: SeededServer;
    name: string;
    cron: [minute: string, hour: string, dayOfMonth: string, month: string, dayOfWeek: string];
    active: boolean;
    processing: boolean;
    onlyWhenOnline: boolean;
    lastRun: Date | null;
    nextRun: Date | null;
    tasks: { action: TaskAction; payload: string; timeOffset: number; continueOnFailure: boolean }[];
  }[] = [
    {
      server: annaPaper,
      name: 'Nightly restart',
      cron: ['0', '4', '*', '*', '*'],
      active: true,
      processing: false,
      onlyWhenOnline: true,
      lastRun: ago(20 * HOUR),
      nextRun: new Date(now.getTime() + 4 * HOUR * 1000),
      tasks: [
        { action: 'command', payload: 'say Restart in 60 seconds!', timeOffset: 0, continueOnFailure: false },
        { action: 'power', payload: 'restart', timeOffset: 60, continueOnFailure: true },
      ],
    },
    {
      server: annaPaper,
      name: 'Weekly backup',
      cron: ['30', '3', '*', '*', '0'],
      active: false,
      processing: false,
      onlyWhenOnline: false,
      lastRun: ago(40 * DAY),
      nextRun: ago(33 * DAY),
      tasks: [
        { action: 'command', payload: 'save-all', timeOffset: 0, continueOnFailure: false },
        { action: 'backup', payload: 'logs/\ncache/*.tmp', timeOffset: 30, continueOnFailure: false },
        { action: 'command', payload: 'say Backup done', timeOffset: 900, continueOnFailure: true },
      ],
    },
    {
      server: staffTest,
      name: 'Morning start',
      cron: ['*/15', '6-8', '*', '1-6', '1-5'],
      active: true,
      processing: true,
      onlyWhenOnline: false,
      lastRun: ago(3 * DAY),
      nextRun: ago(2 * DAY),
      tasks: [{ action: 'power', payload: 'start', timeOffset: 0, continueOnFailure: false }],
    },
  ];
  for (const spec of scheduleSpecs) {
    const [minute, hour, dayOfMonth, month, dayOfWeek] = spec.cron;
    const schedule: SeededSchedule = {
      id: 0,
      serverId: spec.server.id,
      name: spec.name,
      cron: spec.cron.join(' '),
      active: spec.active,
      processing: spec.processing,
      onlyWhenOnline: spec.onlyWhenOnline,
      tasks: [],
    };
    schedule.id = await row('schedules', {
      server_id: spec.server.id,
      name: spec.name,
      cron_day_of_week: dayOfWeek,
      cron_month: month,
      cron_day_of_month: dayOfMonth,
      cron_hour: hour,
      cron_minute: minute,
      is_active: spec.active ? 1 : 0,
      is_processing: spec.processing ? 1 : 0,
      only_when_online: spec.onlyWhenOnline ? 1 : 0,
      last_run_at: spec.lastRun,
      next_run_at: spec.nextRun,
      ...stamps(60 * DAY, 20 * HOUR),
    });
    for (const [i, task] of spec.tasks.entries()) {
      const id = await row('tasks', {
        schedule_id: schedule.id,
        sequence_id: i + 1,
        action: task.action,
        payload: task.payload,
        time_offset: task.timeOffset,
        is_queued: spec.processing && i === 0 ? 1 : 0,
        continue_on_failure: task.continueOnFailure ? 1 : 0,
        ...stamps(60 * DAY),
      });
      schedule.tasks.push({ id, sequenceId: i + 1, ...task });
    }
    schedules.push(schedule);
  }

  // --- backups -------------------------------------------------------------------------------
  const backups: SeededBackup[] = [];
  const backupSpecs: { state: SeededBackupState; name: string; age: number; ignoredFiles: string[] }[] = [
    { state: 'successful', name: 'Before 1.20.4', age: 30 * DAY, ignoredFiles: [] },
    { state: 'locked', name: 'World before the dragon', age: 60 * DAY, ignoredFiles: ['logs/', '*.log'] },
    { state: 'failed', name: `Backup at ${ago(5 * DAY).toISOString().slice(0, 19).replace('T', ' ')}`, age: 5 * DAY, ignoredFiles: [] },
    { state: 'deleted', name: 'Old world', age: 120 * DAY, ignoredFiles: [] },
    { state: 'in-progress', name: 'Right now', age: 2 * MINUTE, ignoredFiles: ['cache/'] },
  ];
  for (const spec of backupSpecs) {
    const finished = spec.state !== 'in-progress';
    const successful = finished && spec.state !== 'failed';
    const backup: SeededBackup = {
      id: 0,
      uuid: randomUUID(),
      serverId: annaPaper.id,
      name: spec.name,
      state: spec.state,
      disk: 'wings',
      checksum: successful ? `sha1:${createHash('sha1').update(spec.name).digest('hex')}` : null,
      bytes: successful ? 50_000_000 + randomInt(500_000_000) : 0,
      ignoredFiles: spec.ignoredFiles,
    };
    backup.id = await row('backups', {
      server_id: backup.serverId,
      uuid: backup.uuid,
      upload_id: null,
      is_successful: successful ? 1 : 0,
      is_locked: spec.state === 'locked' ? 1 : 0,
      name: backup.name,
      ignored_files: phpJsonEncode(spec.ignoredFiles),
      disk: backup.disk,
      checksum: backup.checksum,
      bytes: backup.bytes,
      completed_at: finished ? ago(spec.age - 3 * MINUTE) : null,
      ...stamps(spec.age, finished ? spec.age - 3 * MINUTE : spec.age),
      deleted_at: spec.state === 'deleted' ? ago(90 * DAY) : null,
    });
    backups.push(backup);
  }

  // --- mounts --------------------------------------------------------------------------------
  const mount: SeededMount = {
    id: 0,
    uuid: randomUUID(),
    name: 'shared-maps',
    source: '/srv/pterodactyl/maps/',
    target: '/mnt/maps',
    readOnly: true,
    serverIds: [annaPaper.id],
    nodeIds: [nodes[0].id],
    eggIds: [paper.id],
  };
  mount.id = await row('mounts', {
    uuid: mount.uuid,
    name: mount.name,
    description: 'Read-only adventure maps',
    source: mount.source,
    target: mount.target,
    read_only: 1,
    user_mountable: 0,
  });
  await row('mount_server', { server_id: annaPaper.id, mount_id: mount.id });
  await row('mount_node', { node_id: nodes[0].id, mount_id: mount.id });
  await row('egg_mount', { egg_id: paper.id, mount_id: mount.id });
  // Pterodactyl took this one; Hatchery refuses a target inside the server's own files.
  const inContainer: SeededMount = { ...mount, uuid: randomUUID(), name: 'maps-in-container', target: '/home/container/maps', readOnly: false };
  inContainer.id = await row('mounts', { uuid: inContainer.uuid, name: inContainer.name, description: null, source: inContainer.source, target: inContainer.target, read_only: 0, user_mountable: 1 });
  await row('mount_server', { server_id: annaPaper.id, mount_id: inContainer.id });
  await row('mount_node', { node_id: nodes[0].id, mount_id: inContainer.id });

  // --- activity ------------------------------------------------------------------------------
  const annaKey = keys[0];
  const successfulBackup = backups[0];
  const userAgent = 'Mozilla/5.0 (X11; Linux x86_64; rv:131.0) Gecko/20100101 Firefox/131.0';
  const events: (Omit<SeededActivity, 'id' | 'properties'> & { properties: unknown })[] = [
    { event: 'auth:success', ip: '203.0.113.7', actorId: bob.id, apiKeyId: null, properties: { ip: '203.0.113.7', useragent: userAgent }, timestamp: ago(3 * DAY), subjects: [{ type: 'user', id: bob.id }] },
    { event: 'user:api-key.create', ip: '198.51.100.23', actorId: anna.id, apiKeyId: null, properties: { identifier: annaKey.identifier }, timestamp: ago(60 * DAY), subjects: [{ type: 'api_key', id: annaKey.id }] },
    { event: 'server:power.start', ip: '10.0.0.12', actorId: anna.id, apiKeyId: annaKey.id, properties: [], timestamp: ago(DAY), subjects: [{ type: 'server', id: annaPaper.id }] },
    { event: 'server:file.write', ip: '198.51.100.23', actorId: anna.id, apiKeyId: null, properties: { file: '/server.properties' }, timestamp: ago(DAY - HOUR), subjects: [{ type: 'server', id: annaPaper.id }] },
    {
      event: 'server:backup.complete',
      ip: '127.0.0.1',
      actorId: null,
      apiKeyId: null,
      properties: { name: successfulBackup.name },
      timestamp: ago(30 * DAY - 3 * MINUTE),
      subjects: [
        { type: 'backup', id: successfulBackup.id },
        { type: 'server', id: annaPaper.id },
      ],
    },
    {
      event: 'server:subuser.create',
      ip: '198.51.100.23',
      actorId: anna.id,
      apiKeyId: null,
      properties: { email: carol.email, permissions: SUBUSER_PERMISSIONS },
      timestamp: ago(20 * DAY),
      subjects: [
        { type: 'server', id: annaPaper.id },
        { type: 'user', id: carol.id },
      ],
    },
    { event: 'server:startup.edit', ip: '203.0.113.99', actorId: carol.id, apiKeyId: null, properties: { variable: 'VANILLA_VERSION', old: 'latest', new: '1.20.1' }, timestamp: ago(24 * DAY), subjects: [{ type: 'server', id: carolVanilla.id }] },
  ];
  const activity: SeededActivity[] = [];
  for (const spec of events) {
    const properties = phpJsonEncode(spec.properties);
    const id = await row('activity_logs', {
      batch: null,
      event: spec.event,
      ip: spec.ip,
      description: null,
      actor_type: spec.actorId === null ? null : 'user',
      actor_id: spec.actorId,
      api_key_id: spec.apiKeyId,
      properties,
      timestamp: spec.timestamp,
    });
    for (const subject of spec.subjects) {
      await row('activity_log_subjects', { activity_log_id: id, subject_type: subject.type, subject_id: subject.id });
    }
    activity.push({ ...spec, id, properties });
  }

  // --- settings and a session ----------------------------------------------------------------
  const smtpPassword = strRandom(24);
  const settings: Record<string, string> = {
    'settings::app:name': 'Dino Hosting',
    'settings::pterodactyl:auth:2fa_required': '1',
    'settings::mail:mailers:smtp:password': smtpPassword,
  };
  for (const [key, value] of Object.entries(settings)) {
    await row('settings', { key, value: key === 'settings::mail:mailers:smtp:password' ? encrypt(value) : value });
  }
  const sessionId = strRandom(40);
  await row('sessions', {
    id: sessionId,
    user_id: anna.id,
    ip_address: '198.51.100.23',
    user_agent: userAgent,
    payload: Buffer.from(
      phpSerializeValue({
        _token: strRandom(40),
        _previous: { url: 'https://panel.example.com/server/' + annaPaper.uuidShort },
        _flash: { old: [], new: [] },
        login_web_59ba36addc2b2f9401580f014c7f58ea4e30989d: anna.id,
      }),
    ).toString('base64'),
    last_activity: Math.floor(now.getTime() / 1000) - 600,
  });

  return {
    appKey: options.appKey,
    users,
    sshKeys,
    keys,
    locations,
    nodes,
    allocations,
    nests,
    eggs,
    servers,
    subuser,
    databaseHost,
    databases,
    schedules,
    backups,
    mounts: [mount, inContainer],
    activity,
    activityCounts: { logs: activity.length, subjects: activity.reduce((n, a) => n + a.subjects.length, 0) },
    settings,
    sessions: [{ id: sessionId, userId: anna.id }],
  };
};
