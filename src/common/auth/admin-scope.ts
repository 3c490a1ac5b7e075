/**
 * The parts of the administration (docs/permissions.md#administrator-roles). A role grants each one
 * read, or read and write; an admin API key's scopes are the same pairs (`servers.read`...).
 */
export const ADMIN_AREAS = ['users', 'servers', 'nodes', 'locations', 'eggs', 'database_hosts', 'backup_hosts', 'mounts', 'webhooks', 'settings', 'audit'] as const;
export type AdminArea = (typeof ADMIN_AREAS)[number];
export type AdminAccess = 'read' | 'write';

/** Areas with no write routes: the audit log is only read. */
export const READ_ONLY_AREAS: ReadonlySet<AdminArea> = new Set(['audit']);

/** Admin API-key scopes (docs/api.md#api-keys), one per area and access. */
export enum AdminScope {
  SERVERS_READ = 'servers.read',
  SERVERS_WRITE = 'servers.write',
  USERS_READ = 'users.read',
  USERS_WRITE = 'users.write',
  NODES_READ = 'nodes.read',
  NODES_WRITE = 'nodes.write',
  EGGS_READ = 'eggs.read',
  EGGS_WRITE = 'eggs.write',
  WEBHOOKS_READ = 'webhooks.read',
  WEBHOOKS_WRITE = 'webhooks.write',
  SETTINGS_READ = 'settings.read',
  SETTINGS_WRITE = 'settings.write',
  LOCATIONS_READ = 'locations.read',
  LOCATIONS_WRITE = 'locations.write',
  DATABASE_HOSTS_READ = 'database_hosts.read',
  DATABASE_HOSTS_WRITE = 'database_hosts.write',
  BACKUP_HOSTS_READ = 'backup_hosts.read',
  BACKUP_HOSTS_WRITE = 'backup_hosts.write',
  MOUNTS_READ = 'mounts.read',
  MOUNTS_WRITE = 'mounts.write',
  AUDIT_READ = 'audit.read',
}

export const ALL_ADMIN_SCOPES: readonly AdminScope[] = Object.values(AdminScope);

/** `eggs:read` is accepted as a spelling of `eggs.read`. */
export const normalizeScope = (scope: string): string => scope.trim().replace(':', '.');

/** The scope of an area and access (write on a read-only area is its read). */
export const scopeOf = (area: AdminArea, access: AdminAccess): AdminScope =>
  `${area}.${READ_ONLY_AREAS.has(area) ? 'read' : access}` as AdminScope;
