import type { DatabaseRecord } from 'src/modules/databases/server-databases.service';
import { toPterodactylDatabaseLimit } from 'src/modules/pterodactyl/common/database-limit';
import type { EggVariableEntity } from 'src/modules/eggs/egg-variable.entity';
import type { EggEntity } from 'src/modules/eggs/egg.entity';
import type { NestEntity } from 'src/modules/eggs/nest.entity';
import type { AdminServerDto } from 'src/modules/servers/dto/server-response.dto';
import type { AllocationResponseDto } from 'src/modules/nodes/dto/allocation.dto';
import type { LocationResponseDto } from 'src/modules/nodes/dto/location.dto';
import type { NodeResponseDto } from 'src/modules/nodes/dto/node.dto';
import type { AdminUserResponseDto } from 'src/modules/users/dto/user-response.dto';
import { atom, FractalItem, int, item } from 'src/modules/pterodactyl/common/fractal';

// Pterodactyl's application transformers (app/Transformers/Api/Application), over Hatchery's own views.

const iso = (value: string): string => atom(new Date(value));

/** Hatchery keeps one display name; Pterodactyl's first and last name are its first word and the rest. */
export const splitName = (name: string): { first: string; last: string } => {
  const trimmed = name.trim();
  const space = trimmed.indexOf(' ');
  return space === -1 ? { first: trimmed, last: '' } : { first: trimmed.slice(0, space), last: trimmed.slice(space + 1).trim() };
};

export const userItem = (u: AdminUserResponseDto): FractalItem => {
  const { first, last } = splitName(u.name);
  return item('user', {
    id: int(u.id),
    external_id: u.externalId,
    uuid: u.uuid,
    username: u.username,
    email: u.email,
    first_name: first,
    last_name: last,
    language: u.language,
    root_admin: u.admin,
    '2fa': u.twoFactorEnabled,
    created_at: iso(u.createdAt),
    updated_at: iso(u.updatedAt),
  });
};

export const locationItem = (l: LocationResponseDto): FractalItem =>
  item('location', { id: int(l.id), short: l.short, long: l.long, updated_at: iso(l.updatedAt), created_at: iso(l.createdAt) });

export const allocationItem = (a: AllocationResponseDto): FractalItem =>
  item('allocation', { id: int(a.id), ip: a.ip, alias: a.alias, port: a.port, notes: a.notes, assigned: a.assigned });

/** A node; `allocated` is the memory and disk its servers are given (Pterodactyl's allocated_resources). */
export const nodeItem = (n: NodeResponseDto, allocated: { memory: number; disk: number }): FractalItem =>
  item('node', {
    id: int(n.id),
    uuid: n.uuid,
    public: n.public,
    name: n.name,
    description: n.description,
    location_id: n.locationId === null ? null : int(n.locationId),
    fqdn: n.fqdn,
    scheme: n.scheme,
    behind_proxy: n.behindProxy,
    maintenance_mode: n.maintenanceMode,
    memory: n.memory,
    memory_overallocate: n.memoryOverallocate,
    disk: n.disk,
    disk_overallocate: n.diskOverallocate,
    upload_size: n.uploadSize,
    daemon_listen: n.daemonListen,
    daemon_sftp: n.daemonSftp,
    daemon_base: n.daemonBase,
    created_at: iso(n.createdAt),
    updated_at: iso(n.updatedAt),
    allocated_resources: allocated,
  });

export const nestItem = (n: NestEntity): FractalItem =>
  item('nest', {
    id: n.intId,
    uuid: n.id,
    author: n.author,
    name: n.name,
    description: n.description,
    created_at: atom(n.createdAt),
    updated_at: atom(n.updatedAt),
  });

/** JSON text kept verbatim by Hatchery, decoded as Pterodactyl's transformer decodes it (undecodable: null). */
const decoded = (text: string): unknown => {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
};

/** An egg; `scriptSource` is the integer id of the egg its install script comes from, if any. */
export const eggItem = (e: EggEntity, nest: NestEntity, scriptSource: number | null): FractalItem => {
  const files = decoded(e.configFiles);
  return item('egg', {
    id: e.intId,
    uuid: e.id,
    name: e.name,
    nest: nest.intId,
    author: e.author,
    description: e.description,
    docker_image: e.dockerImages[0]?.image ?? e.dockerImage,
    docker_images: Object.fromEntries(e.dockerImages.map((i) => [i.name, i.image])),
    config: {
      files: files && typeof files === 'object' && Object.keys(files).length > 0 ? files : {},
      startup: decoded(e.configStartup),
      stop: e.configStop,
      logs: decoded(e.configLogs),
      file_denylist: e.fileDenylist,
      extends: null,
    },
    startup: e.startup,
    script: {
      privileged: true,
      install: e.scriptInstall,
      entry: e.scriptEntry,
      container: e.scriptContainer,
      extends: scriptSource,
    },
    created_at: atom(e.createdAt),
    updated_at: atom(e.updatedAt),
  });
};

export const eggVariableItem = (v: EggVariableEntity, egg: EggEntity): FractalItem =>
  item('egg_variable', {
    id: v.intId,
    egg_id: egg.intId,
    name: v.name,
    description: v.description,
    env_variable: v.envVariable,
    default_value: v.defaultValue,
    user_viewable: v.userViewable,
    user_editable: v.userEditable,
    rules: v.rules,
    created_at: atom(v.createdAt),
    updated_at: atom(v.updatedAt),
  });

/** A server; the egg and nest as their integer ids, the environment as Wings gets it. */
export const serverItem = (s: AdminServerDto, ids: { egg: number; nest: number }, environment: Record<string, string | number>): FractalItem =>
  item('server', {
    id: int(s.id),
    external_id: s.externalId,
    uuid: s.uuid,
    identifier: s.identifier,
    name: s.name,
    description: s.description ?? '',
    status: s.suspended ? 'suspended' : s.installStatus,
    suspended: s.suspended,
    limits: {
      memory: s.limits.memory,
      swap: s.limits.swap,
      disk: s.limits.disk,
      io: s.limits.io,
      cpu: s.limits.cpu,
      threads: s.threads,
      oom_disabled: s.oomDisabled,
    },
    feature_limits: { databases: toPterodactylDatabaseLimit(s.featureLimits.databases), allocations: s.featureLimits.allocations, backups: s.featureLimits.backups },
    user: int(s.ownerId),
    node: int(s.nodeId),
    allocation: s.allocationId === null ? null : int(s.allocationId),
    nest: ids.nest,
    egg: ids.egg,
    container: {
      startup_command: s.startup,
      image: s.image,
      installed: s.installedAt !== null && s.installStatus === null ? 1 : 0,
      environment,
    },
    updated_at: iso(s.updatedAt),
    created_at: iso(s.createdAt),
  });

/** ServerDatabaseTransformer. */
export const databaseItem = (d: DatabaseRecord): FractalItem =>
  item('server_database', {
    id: int(d.id),
    server: int(d.serverId),
    host: int(d.hostId),
    database: d.database,
    username: d.username,
    remote: d.remote,
    max_connections: d.maxConnections ?? 0,
    created_at: atom(d.createdAt),
    updated_at: atom(d.updatedAt),
  });
