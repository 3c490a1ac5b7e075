import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { components } from '@/api/schema';
import { sessionQuery } from '@/features/auth/api';

type AdminAccessDto = components['schemas']['AdminAccessDto'];
export type AdminArea = components['schemas']['AdminAccessAreaDto']['area'];
export type AdminAccessLevel = components['schemas']['AdminAccessAreaDto']['access'];

/** The parts of the administration, in the order the role form lists them (src/common/auth/admin-scope.ts). */
export const ADMIN_AREAS: readonly AdminArea[] = ['users', 'servers', 'nodes', 'locations', 'eggs', 'database_hosts', 'backup_hosts', 'mounts', 'webhooks', 'settings', 'audit'];

/** Areas with nothing to write: the audit log is only read. */
export const READ_ONLY_AREAS: ReadonlySet<AdminArea> = new Set(['audit']);

/** What the signed-in user may do in the administration, as `GET /api/auth/session` says (docs/permissions.md#administrator-roles). */
export interface AdminAccess {
  /** A full administrator: everything, roles included. */
  readonly full: boolean;
  /** Any part of the administration at all. */
  readonly any: boolean;
  /** Reads (`read`) or changes (`write`) this area; write includes read. */
  can(area: AdminArea, access: AdminAccessLevel): boolean;
  /** The nodes the area reaches at its highest access: null for every node (or none held). */
  nodeIds(area: AdminArea): readonly string[] | null;
  /** Holds the area on every node, not only some. */
  everyNode(area: AdminArea): boolean;
}

/** The access the session's `adminAccess` describes (null: none). */
export const adminAccessFrom = (dto: AdminAccessDto | null | undefined): AdminAccess => {
  const areas = new Map((dto?.areas ?? []).map((a) => [a.area, a]));
  const full = dto?.full === true;
  return {
    full,
    any: dto !== null && dto !== undefined && (full || areas.size > 0),
    can: (area, access) => {
      if (full) {
        return true;
      }
      const held = areas.get(area);
      return held !== undefined && (access === 'read' || held.access === 'write');
    },
    nodeIds: (area) => (full ? null : (areas.get(area)?.nodeIds ?? null)),
    everyNode: (area) => full || (areas.has(area) && areas.get(area)!.nodeIds === null),
  };
};

/** The signed-in user's admin access, following the session (reloaded when it changes). */
export const useAdminAccess = (): AdminAccess => {
  const dto = useQuery(sessionQuery).data?.adminAccess;
  return useMemo(() => adminAccessFrom(dto), [dto]);
};

/** Whether the signed-in user may change an area: the create, edit and delete buttons of its pages show only then. */
export const useCanWrite = (area: AdminArea): boolean => useAdminAccess().can(area, 'write');
