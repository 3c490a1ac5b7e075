import type { AuditLogResponseDto } from 'src/modules/audit/dto/audit-log-response.dto';
import type { BackupResponseDto } from 'src/modules/backups/dto/backup.dto';
import type { ServerDatabaseResponseDto } from 'src/modules/databases/dto/server-database.dto';
import type { FileEntryDto } from 'src/modules/files/dto/file-response.dto';
import { splitName } from 'src/modules/pterodactyl/application/transformers';
import { atom, FractalItem, int, item } from 'src/modules/pterodactyl/common/fractal';
import type { PterodactylKeyEntity } from 'src/modules/pterodactyl/keys/pterodactyl-key.entity';
import type { ScheduleResponseDto, ScheduleTaskResponseDto } from 'src/modules/schedules/dto/schedule-response.dto';
import type { ServerActivityDto } from 'src/modules/servers/dto/server-response.dto';
import type { ServerResourcesDto } from 'src/modules/servers/dto/server-resources.dto';
import type { StartupVariableDto } from 'src/modules/servers/dto/server-settings.dto';
import type { SubuserResponseDto } from 'src/modules/servers/subusers/dto/subuser.dto';
import type { SshKeyResponseDto } from 'src/modules/ssh-keys/dto/ssh-key.dto';
import type { UserEntity } from 'src/modules/users/user.entity';
import { toPterodactylNames } from 'src/modules/pterodactyl/client/client-permissions';
import { createHash } from 'node:crypto';

// Pterodactyl's client transformers (app/Transformers/Api/Client), over Hatchery's own views.

const iso = (value: string): string => atom(new Date(value));
const isoOrNull = (value: string | null | undefined): string | null => (value ? iso(value) : null);

const gravatar = (email: string): string => `https://gravatar.com/avatar/${createHash('md5').update(email.toLowerCase()).digest('hex')}`;

export const accountItem = (u: UserEntity): FractalItem => {
  const { first, last } = splitName(u.name);
  return item('user', { id: int(u.id), admin: u.admin, username: u.username, email: u.email, first_name: first, last_name: last, language: u.language });
};

export const apiKeyItem = (k: PterodactylKeyEntity): FractalItem =>
  item('api_key', {
    identifier: k.identifier,
    description: k.memo,
    allowed_ips: [...k.allowedIps],
    last_used_at: k.lastUsedAt ? atom(k.lastUsedAt) : null,
    created_at: atom(k.createdAt),
  });

export const sshKeyItem = (k: SshKeyResponseDto): FractalItem =>
  item('ssh_key', { name: k.name, fingerprint: k.fingerprint, public_key: k.publicKey, created_at: iso(k.createdAt) });

/** An allocation as the client API shows it (Hatchery's network and allocation answers both fit). */
export interface ClientAllocation {
  id: string;
  ip: string;
  alias: string | null;
  port: number;
  notes: string | null;
}

export const allocationItem = (a: ClientAllocation, primaryId: string | null, hideNotes = false): FractalItem =>
  item('allocation', { id: int(a.id), ip: a.ip, ip_alias: a.alias, port: a.port, notes: hideNotes ? null : a.notes, is_default: a.id === primaryId });

export const variableItem = (v: StartupVariableDto): FractalItem =>
  item('egg_variable', {
    name: v.name,
    description: v.description,
    env_variable: v.envVariable,
    default_value: v.defaultValue,
    server_value: v.serverValue,
    is_editable: v.isEditable,
    rules: v.rules,
  });

export const statsItem = (r: ServerResourcesDto): FractalItem =>
  item('stats', {
    current_state: r.currentState,
    is_suspended: r.isSuspended,
    resources: {
      memory_bytes: r.resources.memoryBytes,
      cpu_absolute: r.resources.cpuAbsolute,
      disk_bytes: r.resources.diskBytes,
      network_rx_bytes: r.resources.networkRxBytes,
      network_tx_bytes: r.resources.networkTxBytes,
      uptime: r.resources.uptime,
    },
  });

/** Wings' mode string (`-rw-r--r--`) is not kept by Hatchery's listing: rebuilt from the octal bits. */
const modeString = (f: FileEntryDto): string => {
  const bits = f.modeBits ?? (/^[0-7]+$/.test(f.mode) ? Number.parseInt(f.mode, 8) : 0);
  const rwx = (n: number): string => `${n & 4 ? 'r' : '-'}${n & 2 ? 'w' : '-'}${n & 1 ? 'x' : '-'}`;
  const type = f.isDirectory ? 'd' : f.isSymlink ? 'L' : '-';
  return `${type}${rwx((bits >> 6) & 7)}${rwx((bits >> 3) & 7)}${rwx(bits & 7)}`;
};

export const fileItem = (f: FileEntryDto, mimetype?: string): FractalItem =>
  item('file_object', {
    name: f.name,
    mode: modeString(f),
    mode_bits: /^[0-7]+$/.test(f.mode) ? f.mode : (f.modeBits ?? 0).toString(8),
    size: f.size,
    is_file: f.isFile,
    is_symlink: f.isSymlink ?? false,
    mimetype: mimetype ?? (f.isDirectory ? 'inode/directory' : 'application/octet-stream'),
    created_at: f.created ? iso(f.created) : atom(new Date(f.modified ?? 0)),
    modified_at: f.modified ? iso(f.modified) : atom(new Date(0)),
  });

export const backupItem = (b: BackupResponseDto): FractalItem =>
  item('backup', {
    uuid: b.uuid,
    is_successful: b.isSuccessful,
    is_locked: b.isLocked,
    name: b.name,
    ignored_files: b.ignoredFiles,
    checksum: b.checksum,
    bytes: b.bytes,
    created_at: iso(b.createdAt),
    completed_at: isoOrNull(b.completedAt),
  });

export const taskItem = (t: ScheduleTaskResponseDto): FractalItem =>
  item('schedule_task', {
    id: int(t.id),
    sequence_id: t.sequence_id,
    action: t.action,
    payload: t.payload,
    time_offset: t.time_offset,
    is_queued: t.is_queued,
    continue_on_failure: t.continue_on_failure,
    created_at: iso(t.created_at),
    updated_at: iso(t.updated_at),
  });

/** Hatchery's cron string (`minute hour day_of_month month day_of_week`) back into Pterodactyl's fields. */
const cronFields = (cron: string) => {
  const [minute = '*', hour = '*', dayOfMonth = '*', month = '*', dayOfWeek = '*'] = cron.split(/\s+/);
  return { day_of_week: dayOfWeek, day_of_month: dayOfMonth, month, hour, minute };
};

export const scheduleItem = (s: ScheduleResponseDto): FractalItem =>
  item('server_schedule', {
    id: int(s.id),
    name: s.name,
    cron: cronFields(s.cron),
    is_active: s.is_active,
    is_processing: s.is_processing,
    only_when_online: s.only_when_online,
    last_run_at: isoOrNull(s.last_run_at),
    next_run_at: isoOrNull(s.next_run_at),
    created_at: iso(s.created_at),
    updated_at: iso(s.updated_at),
    relationships: { tasks: { object: 'list', data: s.tasks.map(taskItem) } },
  });

export const databaseItem = (d: ServerDatabaseResponseDto | { id: string; name: string; username: string; remote: string; host: { hostname: string; port: number } }): FractalItem =>
  item('server_database', {
    id: d.id,
    host: { address: d.host.hostname, port: d.host.port },
    name: d.name,
    username: d.username,
    connections_from: d.remote,
    max_connections: 0,
  });

export const subuserItem = (s: SubuserResponseDto): FractalItem =>
  item('server_subuser', {
    uuid: s.uuid,
    username: s.username,
    email: s.email,
    image: gravatar(s.email),
    '2fa_enabled': s.twoFactorEnabled,
    created_at: iso(s.createdAt),
    permissions: toPterodactylNames(s.permissions),
  });

/** One entry of an activity log the layer shows: a server's (ServerActivityDto), or the account's own (accountActivityItem). */
type ActivityEntry = Pick<ServerActivityDto, 'id' | 'event' | 'ip' | 'metadata' | 'via' | 'timestamp'>;

/** Properties Pterodactyl's transformer never counts as additional metadata. */
const PLAIN_PROPERTIES = new Set(['ip', 'useragent', 'using_sftp']);

/**
 * Pterodactyl's ActivityLogTransformer over Hatchery's entries. `is_api`: made with a key (Hatchery's
 * or a Pterodactyl one), not a session. Hatchery keeps no `batch` or `description` (null); no
 * Pterodactyl description names Hatchery's properties, so any but the plain ones are additional metadata.
 */
export const activityItem = (a: ActivityEntry): FractalItem =>
  item('activity_log', {
    id: createHash('sha1').update(a.id).digest('hex'),
    batch: null,
    event: a.event,
    is_api: a.via !== null && (a.via.startsWith('api-key:') || a.via.startsWith('pterodactyl-key:')),
    ip: a.ip,
    description: null,
    properties: a.metadata,
    has_additional_metadata: Object.keys(a.metadata).some((key) => !PLAIN_PROPERTIES.has(key)),
    timestamp: iso(a.timestamp),
  });

/** Pterodactyl's client UserTransformer (an activity entry's `actor`). */
export const clientUserItem = (u: UserEntity): FractalItem =>
  item('user', { uuid: u.uuid, username: u.username, email: u.email, image: gravatar(u.email), '2fa_enabled': u.twoFactorEnabled, created_at: atom(u.createdAt) });

/** An audit entry of the caller's own account as an activity entry: its changes are the properties. */
export const accountActivityItem = (e: AuditLogResponseDto): FractalItem =>
  activityItem({ id: e.id, event: e.action, ip: e.ip, metadata: { ...e.changes }, via: e.actor.via, timestamp: e.createdAt });
