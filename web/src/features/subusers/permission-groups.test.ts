import { describe, expect, it } from 'vitest';
import { ALL_SERVER_PERMISSIONS } from 'src/modules/servers/server-permissions';
import { groupState, inCatalogue, PERMISSION_GROUPS, toggleGroup } from '@/features/subusers/permission-groups';

const files = PERMISSION_GROUPS.find((g) => g.key === 'files')!.permissions;

describe('permission groups', () => {
  it("lists every one of the panel's permissions once", () => {
    const all = PERMISSION_GROUPS.flatMap((g) => g.permissions);
    expect(new Set(all).size).toBe(all.length);
    expect([...all].sort()).toEqual([...ALL_SERVER_PERMISSIONS].sort());
  });

  it('select-all only touches what the granter holds', () => {
    const grantable = new Set(['server.files.read', 'server.files.write']);
    const next = toggleGroup(files, new Set(), grantable);
    expect([...next].sort()).toEqual(['server.files.read', 'server.files.write']);
    expect(groupState(files, next, grantable)).toEqual({ toggleable: ['server.files.read', 'server.files.write'], all: true, some: false });
    expect([...toggleGroup(files, next, grantable)]).toEqual([]);
  });

  it('a partly chosen group is "some", and select-all fills it', () => {
    const grantable = new Set(files);
    const chosen = new Set(['server.files.read']);
    expect(groupState(files, chosen, grantable).some).toBe(true);
    expect(toggleGroup(files, chosen, grantable).size).toBe(files.length);
  });

  it('a group with nothing grantable is never "all"', () => {
    expect(groupState(files, new Set(), new Set()).all).toBe(false);
  });

  it('a request carries the chosen catalogue permissions in catalogue order, nothing else', () => {
    expect(inCatalogue(['server.power', 'server.everything', 'server.view', 'server.power'])).toEqual(['server.view', 'server.power']);
    expect(inCatalogue(ALL_SERVER_PERMISSIONS)).toEqual(PERMISSION_GROUPS.flatMap((g) => g.permissions));
  });
});
