// An application key's permissions: Pterodactyl's r_<resource> values (AdminAcl: read = 1, write = 2).

/** The resources, in Pterodactyl's order. */
export const RESOURCES = ['servers', 'nodes', 'allocations', 'users', 'locations', 'nests', 'eggs', 'database_hosts', 'server_databases'] as const;
export type Resource = (typeof RESOURCES)[number];

/** What the form offers for each resource: none, read, or read and write. */
export const LEVELS = [0, 1, 3] as const;
export type Level = (typeof LEVELS)[number];

export type PermissionGrid = Record<Resource, Level>;

export const emptyGrid = (): PermissionGrid => Object.fromEntries(RESOURCES.map((r) => [r, 0])) as PermissionGrid;

/** How a stored value reads: keys made through the API may carry write without read (2). */
type Access = 'none' | 'read' | 'write' | 'readWrite';

export const accessOf = (value: number | undefined): Access => {
  const read = ((value ?? 0) & 1) !== 0;
  const write = ((value ?? 0) & 2) !== 0;
  return read && write ? 'readWrite' : write ? 'write' : read ? 'read' : 'none';
};

/** The resources a key may touch, with how, in Pterodactyl's order. */
export const grantedOf = (permissions: Record<string, number> | undefined): { resource: Resource; access: Exclude<Access, 'none'> }[] =>
  RESOURCES.flatMap((resource) => {
    const access = accessOf(permissions?.[resource]);
    return access === 'none' ? [] : [{ resource, access }];
  });
