/** Admin API-key scopes (docs/api.md#api-keys). */
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
}

export const ALL_ADMIN_SCOPES: readonly AdminScope[] = Object.values(AdminScope);

/** `eggs:read` is accepted as a spelling of `eggs.read`. */
export const normalizeScope = (scope: string): string => scope.trim().replace(':', '.');
