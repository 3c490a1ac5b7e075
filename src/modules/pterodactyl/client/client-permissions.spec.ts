import { PTERODACTYL_PERMISSIONS, toHatcheryPermissions, toPterodactylNames, userPermissionsOf } from 'src/modules/pterodactyl/client/client-permissions';
import type { ServerContext } from 'src/modules/servers/server-context';
import { ALL_SERVER_PERMISSIONS } from 'src/modules/servers/server-permissions';

describe('Pterodactyl permission names', () => {
  it('should grant a Hatchery permission only when every name of its group is asked for', () => {
    expect(toHatcheryPermissions(['control.start'])).toEqual([]);
    expect(toHatcheryPermissions(['control.start', 'control.stop', 'control.restart'])).toEqual(['server.power']);
    expect(toHatcheryPermissions(['file.read'])).toEqual([]);
    expect(toHatcheryPermissions(['file.read', 'file.read-content', 'file.create'])).toEqual(['server.files.read']);
  });

  it('should drop names Hatchery has no equivalent for, and unknown ones', () => {
    expect(toHatcheryPermissions(['database.view_password', 'admin.websocket.errors', '*'])).toEqual([]);
  });

  it('should give back the names of what was granted, and nothing for server.view', () => {
    expect(toPterodactylNames(['server.view', 'server.power', 'server.backup.read'])).toEqual(['control.start', 'control.stop', 'control.restart', 'backup.read']);
  });

  it('should round-trip every Hatchery permission but server.view', () => {
    const all = ALL_SERVER_PERMISSIONS.filter((p) => p !== 'server.view');
    expect(toHatcheryPermissions(toPterodactylNames(all)).sort()).toEqual([...all].sort());
  });

  it('should offer in the catalogue exactly the names it maps', () => {
    const catalogue = Object.entries(PTERODACTYL_PERMISSIONS).flatMap(([group, { keys }]) => Object.keys(keys).map((k) => `${group}.${k}`));
    expect(catalogue.sort()).toEqual(toPterodactylNames(ALL_SERVER_PERMISSIONS).sort());
  });

  it('should answer user_permissions as Pterodactyl does for owners, administrators and subusers', () => {
    const context = (role: ServerContext['role'], permissions: ServerContext['permissions']) => ({ role, permissions, server: {} }) as unknown as ServerContext;
    expect(userPermissionsOf(context('owner', ALL_SERVER_PERMISSIONS))).toEqual(['*']);
    expect(userPermissionsOf(context('admin', ALL_SERVER_PERMISSIONS))).toEqual(['*', 'admin.websocket.errors', 'admin.websocket.install', 'admin.websocket.transfer']);
    expect(userPermissionsOf(context('subuser', ['server.view', 'server.console']))).toEqual(['control.console']);
  });
});
