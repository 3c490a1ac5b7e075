import { ADMIN_AREAS, type AdminAccess, type AdminArea, ALL_ADMIN_SCOPES, AdminScope, scopeOf } from 'src/common/auth/admin-scope';
import type { RolePermission } from 'src/modules/roles/admin-role.entity';

/** The nodes a grant reaches: null for every node. */
export type NodeLimit = ReadonlySet<string> | null;

/** A role as every process holds it. */
export interface RoleSnapshot {
  readonly id: string;
  readonly name: string;
  readonly scopes: ReadonlySet<AdminScope>;
  /** null: every node. */
  readonly nodes: NodeLimit;
}

/**
 * What a caller may do in the administration: each scope it holds, with the nodes it reaches there.
 * A full administrator holds every scope on every node; a role holder the union of its roles (a scope
 * reaches every node when any role granting it does, else the nodes of all those roles together).
 */
export interface AdminGrants {
  readonly full: boolean;
  readonly scopes: ReadonlyMap<AdminScope, NodeLimit>;
}

/** Whether the user administers anything: a full administrator, or the holder of a role. */
export const administers = (user: { admin: boolean; adminRoleIds: readonly string[] }): boolean => user.admin || user.adminRoleIds.length > 0;

export const NO_GRANTS: AdminGrants = { full: false, scopes: new Map() };
const FULL: AdminGrants = { full: true, scopes: new Map(ALL_ADMIN_SCOPES.map((s) => [s, null])) };

/** The scopes permissions name: write brings read with it. */
export const scopesOfPermissions = (permissions: readonly RolePermission[]): Set<AdminScope> =>
  new Set(permissions.flatMap(({ area, access }) => (access === 'write' ? [scopeOf(area, 'read'), scopeOf(area, 'write')] : [scopeOf(area, 'read')])));

export const grantsOf = (user: { admin: boolean; adminRoleIds: readonly string[] }, roles: ReadonlyMap<string, RoleSnapshot>): AdminGrants => {
  if (user.admin) {
    return FULL;
  }
  const scopes = new Map<AdminScope, Set<string> | null>();
  for (const id of user.adminRoleIds) {
    const role = roles.get(id);
    if (!role) {
      continue; // deleted meanwhile: it grants nothing
    }
    for (const scope of role.scopes) {
      const held = scopes.get(scope);
      if (held === null) {
        continue;
      }
      scopes.set(scope, role.nodes === null ? null : new Set([...(held ?? []), ...role.nodes]));
    }
  }
  return scopes.size === 0 ? NO_GRANTS : { full: false, scopes };
};

/** Grants narrowed to an API key's scopes: a key never reaches beyond its owner, nor beyond itself. */
export const narrowToKey = (grants: AdminGrants, keyScopes: ReadonlySet<AdminScope>): AdminGrants => ({
  full: grants.full && ALL_ADMIN_SCOPES.every((s) => keyScopes.has(s)),
  scopes: new Map([...grants.scopes].filter(([scope]) => keyScopes.has(scope))),
});

/** The grants as the web UI reads them: each area with its access and nodes; null when none. */
export const adminAccessOf = (grants: AdminGrants): { full: boolean; areas: { area: AdminArea; access: AdminAccess; nodeIds: string[] | null }[] } | null => {
  if (grants.scopes.size === 0) {
    return null;
  }
  const areas = ADMIN_AREAS.flatMap((area) => {
    const read = grants.scopes.get(scopeOf(area, 'read'));
    if (read === undefined) {
      return [];
    }
    const write = grants.scopes.get(scopeOf(area, 'write'));
    const access: AdminAccess = write !== undefined && scopeOf(area, 'write') !== scopeOf(area, 'read') ? 'write' : 'read';
    const nodes = access === 'write' ? write : read;
    return [{ area, access, nodeIds: nodes === null || nodes === undefined ? null : [...nodes].sort((a, b) => Number(a) - Number(b)) }];
  });
  return { full: grants.full, areas };
};
