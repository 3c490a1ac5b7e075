/**
 * The per-server permission catalogue (docs/permissions.md): what a subuser may be granted, and the Wings
 * permissions each one carries into a console JWT or an SFTP login.
 */
export const SERVER_PERMISSIONS = {
  'server.view': [],
  'websocket.connect': ['websocket.connect'],
  'server.console': ['control.console'],
  'server.power': ['control.start', 'control.stop', 'control.restart'],
  'server.files.read': ['file.read', 'file.read-content'],
  'server.files.write': ['file.create', 'file.update'],
  'server.files.delete': ['file.delete'],
  'server.files.archive': ['file.archive'],
  'server.files.sftp': ['file.sftp'],
  'server.backup.read': ['backup.read'],
  'server.backup.create': [],
  'server.backup.delete': [],
  'server.backup.download': [],
  'server.backup.restore': [],
  'server.database.read': [],
  'server.database.create': [],
  'server.database.update': [],
  'server.database.delete': [],
  'server.schedule.read': [],
  'server.schedule.create': [],
  'server.schedule.update': [],
  'server.schedule.delete': [],
  'server.subuser.read': [],
  'server.subuser.create': [],
  'server.subuser.update': [],
  'server.subuser.delete': [],
  'server.allocation.read': [],
  'server.allocation.update': [],
  'server.allocation.create': [],
  'server.allocation.delete': [],
  'server.startup.read': [],
  'server.startup.update': [],
  'server.startup.docker-image': [],
  'server.settings.rename': [],
  'server.settings.reinstall': [],
  'server.activity.read': [],
  'server.webhook': [],
} as const satisfies Record<string, readonly string[]>;

export type ServerPermission = keyof typeof SERVER_PERMISSIONS;

export const ALL_SERVER_PERMISSIONS = Object.keys(SERVER_PERMISSIONS) as ServerPermission[];

export const isServerPermission = (value: string): value is ServerPermission => value in SERVER_PERMISSIONS;

/** What owners and admins hold on Wings: everything (admins add the admin.* extras). */
export const WINGS_ALL = ['*'] as const;
export const WINGS_ADMIN_EXTRAS = ['admin.websocket.errors', 'admin.websocket.install', 'admin.websocket.transfer'] as const;

/** The Wings permissions a set of panel permissions maps to (a subuser's JWT or SFTP answer). */
export const toWingsPermissions = (permissions: readonly ServerPermission[]): string[] => [
  ...new Set(permissions.flatMap((p) => SERVER_PERMISSIONS[p])),
];
