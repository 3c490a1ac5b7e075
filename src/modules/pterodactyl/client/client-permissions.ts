import { ALL_SERVER_PERMISSIONS, ServerPermission } from 'src/modules/servers/server-permissions';
import type { ServerContext } from 'src/modules/servers/server-context';

/**
 * Pterodactyl's subuser permission names (app/Models/Permission.php) and the Hatchery permission each
 * group of them makes (docs/pterodactyl-compat.md#client-api). A Hatchery permission is granted only
 * when every Pterodactyl name of its group is asked for: Hatchery's `server.power` starts, stops and
 * restarts, so `control.start` alone must not give it. A name with no Hatchery equivalent
 * (`database.view_password`) is dropped, as Pterodactyl drops names it does not know.
 */
const GROUPS: readonly [ServerPermission, readonly string[]][] = [
  ['websocket.connect', ['websocket.connect']],
  ['server.console', ['control.console']],
  ['server.power', ['control.start', 'control.stop', 'control.restart']],
  ['server.subuser.create', ['user.create']],
  ['server.subuser.read', ['user.read']],
  ['server.subuser.update', ['user.update']],
  ['server.subuser.delete', ['user.delete']],
  ['server.files.read', ['file.read', 'file.read-content']],
  ['server.files.write', ['file.create', 'file.update']],
  ['server.files.delete', ['file.delete']],
  ['server.files.archive', ['file.archive']],
  ['server.files.sftp', ['file.sftp']],
  ['server.backup.create', ['backup.create']],
  ['server.backup.read', ['backup.read']],
  ['server.backup.delete', ['backup.delete']],
  ['server.backup.download', ['backup.download']],
  ['server.backup.restore', ['backup.restore']],
  ['server.allocation.read', ['allocation.read']],
  ['server.allocation.update', ['allocation.update']],
  ['server.allocation.create', ['allocation.create']],
  ['server.allocation.delete', ['allocation.delete']],
  ['server.startup.read', ['startup.read']],
  ['server.startup.update', ['startup.update']],
  ['server.startup.docker-image', ['startup.docker-image']],
  ['server.database.create', ['database.create']],
  ['server.database.read', ['database.read']],
  ['server.database.update', ['database.update']],
  ['server.database.delete', ['database.delete']],
  ['server.schedule.create', ['schedule.create']],
  ['server.schedule.read', ['schedule.read']],
  ['server.schedule.update', ['schedule.update']],
  ['server.schedule.delete', ['schedule.delete']],
  ['server.settings.rename', ['settings.rename']],
  ['server.settings.reinstall', ['settings.reinstall']],
  ['server.activity.read', ['activity.read']],
  // Hatchery's own: Pterodactyl has no webhooks. Named in its style so a subuser edited through the
  // Pterodactyl API keeps it.
  ['server.webhook', ['webhook.manage']],
];

/** Pterodactyl's permission catalogue (`GET /permissions`), with its descriptions shortened to what Hatchery grants. */
export const PTERODACTYL_PERMISSIONS: Record<string, { description: string; keys: Record<string, string> }> = {
  websocket: { description: "Connect to the server's websocket (console and live stats).", keys: { connect: 'Stream the console.' } },
  control: {
    description: "Control the server's power state and send commands.",
    keys: { console: 'Send commands to the console.', start: 'Start the server.', stop: 'Stop the server.', restart: 'Restart the server.' },
  },
  user: {
    description: 'Manage the subusers of the server.',
    keys: { create: 'Add subusers.', read: 'View subusers and their permissions.', update: 'Change subusers.', delete: 'Remove subusers.' },
  },
  file: {
    description: "Work with the server's files.",
    keys: {
      create: 'Create files and folders, and upload.',
      read: 'List directories.',
      'read-content': 'Read and download files.',
      update: 'Change files and folders.',
      delete: 'Delete files and folders.',
      archive: 'Compress and decompress.',
      sftp: 'Connect over SFTP.',
    },
  },
  backup: {
    description: "Manage the server's backups.",
    keys: { create: 'Create backups.', read: 'View backups.', delete: 'Delete and lock backups.', download: 'Download backups.', restore: 'Restore backups.' },
  },
  allocation: { description: "View and annotate the server's allocations.", keys: { read: 'View allocations.', update: 'Set the primary allocation and notes.', create: 'Add a free allocation, within the limit.', delete: 'Remove an allocation.' } },
  startup: { description: "The server's startup variables and image.", keys: { read: 'View startup variables.', update: 'Change startup variables.', 'docker-image': "Choose the Docker image among the egg's images." } },
  database: {
    description: "Manage the server's databases.",
    keys: { create: 'Create databases.', read: 'View databases.', update: 'Rotate passwords.', delete: 'Delete databases.' },
  },
  schedule: {
    description: "Manage the server's schedules.",
    keys: { create: 'Create schedules.', read: 'View schedules and tasks.', update: 'Change schedules and tasks, run them.', delete: 'Delete schedules.' },
  },
  settings: { description: "The server's settings.", keys: { rename: 'Rename the server.', reinstall: 'Reinstall the server.' } },
  activity: { description: "The server's activity log.", keys: { read: 'View the activity log.' } },
  webhook: { description: "The server's webhooks (Hatchery's own).", keys: { manage: "Add, change and remove the server's webhooks and see their deliveries." } },
};

/** Pterodactyl names → the Hatchery permissions they grant together (unknown or incomplete groups dropped). */
export const toHatcheryPermissions = (names: readonly string[]): ServerPermission[] => {
  const asked = new Set(names);
  return GROUPS.filter(([, group]) => group.every((n) => asked.has(n))).map(([permission]) => permission);
};

/** Hatchery permissions → the Pterodactyl names that say the same (server.view has none: every subuser sees the server). */
export const toPterodactylNames = (permissions: readonly string[]): string[] =>
  GROUPS.filter(([permission]) => permissions.includes(permission)).flatMap(([, names]) => names);

/** What Pterodactyl's GetUserPermissionsService answers: `*` for the owner, `*` and the admin extras for an administrator, else the subuser's names. */
export const userPermissionsOf = (context: ServerContext): string[] => {
  if (context.role === 'owner') {
    return ['*'];
  }
  if (context.role === 'admin' && context.permissions.length === ALL_SERVER_PERMISSIONS.length) {
    return ['*', 'admin.websocket.errors', 'admin.websocket.install', 'admin.websocket.transfer'];
  }
  return toPterodactylNames(context.permissions);
};
