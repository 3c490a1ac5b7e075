/**
 * The subuser permission matrix: every panel permission of src/modules/servers/server-permissions.ts,
 * grouped by the area it opens. Labels are `subusers.perm.<name with dots as underscores>`.
 */
export const PERMISSION_GROUPS = [
  { key: 'console', permissions: ['server.view', 'websocket.connect', 'server.console', 'server.power'] },
  { key: 'files', permissions: ['server.files.read', 'server.files.write', 'server.files.delete', 'server.files.archive', 'server.files.sftp'] },
  { key: 'backups', permissions: ['server.backup.read', 'server.backup.create', 'server.backup.download', 'server.backup.restore', 'server.backup.delete'] },
  { key: 'databases', permissions: ['server.database.read', 'server.database.create', 'server.database.update', 'server.database.delete'] },
  { key: 'schedules', permissions: ['server.schedule.read', 'server.schedule.create', 'server.schedule.update', 'server.schedule.delete'] },
  { key: 'users', permissions: ['server.subuser.read', 'server.subuser.create', 'server.subuser.update', 'server.subuser.delete'] },
  { key: 'network', permissions: ['server.allocation.read', 'server.allocation.update', 'server.allocation.create', 'server.allocation.delete'] },
  { key: 'startup', permissions: ['server.startup.read', 'server.startup.update', 'server.startup.docker-image'] },
  { key: 'settings', permissions: ['server.settings.rename', 'server.settings.reinstall'] },
  { key: 'activity', permissions: ['server.activity.read'] },
  { key: 'webhooks', permissions: ['server.webhook'] },
] as const;

type Permission = (typeof PERMISSION_GROUPS)[number]['permissions'][number];

const CATALOGUE: readonly Permission[] = PERMISSION_GROUPS.flatMap((g) => g.permissions);

/** The chosen names that are permissions of the catalogue, in its order: what a request body carries. */
export const inCatalogue = (chosen: Iterable<string>): Permission[] => {
  const wanted = new Set(chosen);
  return CATALOGUE.filter((p) => wanted.has(p));
};
type Underscored<S extends string> = S extends `${infer A}.${infer B}` ? `${A}_${Underscored<B>}` : S;

/** The label's i18n key; typed per permission, so a permission without its label fails the typecheck. */
export const permissionLabelKey = <P extends Permission>(permission: P) => `subusers.perm.${permission.replaceAll('.', '_')}` as `subusers.perm.${Underscored<P>}`;

/** The state of a group's "select all" box: what the granter can toggle in it, and whether all/some of that is chosen. */
export const groupState = (permissions: readonly string[], chosen: ReadonlySet<string>, grantable: ReadonlySet<string>) => {
  const toggleable = permissions.filter((p) => grantable.has(p));
  const on = toggleable.filter((p) => chosen.has(p)).length;
  return { toggleable, all: toggleable.length > 0 && on === toggleable.length, some: on > 0 && on < toggleable.length };
};

/** Chooses or clears every permission of a group the granter holds; the rest stay as they are. */
export const toggleGroup = (permissions: readonly string[], chosen: ReadonlySet<string>, grantable: ReadonlySet<string>): Set<string> => {
  const { toggleable, all } = groupState(permissions, chosen, grantable);
  const next = new Set(chosen);
  for (const p of toggleable) {
    if (all) {
      next.delete(p);
    } else {
      next.add(p);
    }
  }
  return next;
};
