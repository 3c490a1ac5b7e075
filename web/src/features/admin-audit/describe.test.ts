import { describe, expect, it } from 'vitest';
import { actionKey, targetLink } from '@/features/admin-audit/describe';
import en from '@/lib/i18n/en.json';
import { KNOWN_ACTIONS } from '@/features/admin-audit/api';

const target = (type: string, id = '7', parentId: string | null = null) => ({ type, id, name: 'Survival', parentId });

describe('actionKey', () => {
  it('should have words for every action the panel records', () => {
    expect(KNOWN_ACTIONS.filter((a) => actionKey(a) === null)).toEqual([]);
    expect(actionKey('server.details.updated')).toBe('server_details_updated');
    expect(en.adminAudit.actions[actionKey('server.created')!]).toBe('Created server');
    expect(actionKey('server.something_new')).toBeNull();
  });
});

describe('targetLink', () => {
  it("should link each kind of target to its administration page, an egg variable to its egg's variables", () => {
    expect(targetLink({ action: 'server.created', target: target('server') })).toEqual({ to: '/admin/servers/$sid', params: { sid: '7' } });
    expect(targetLink({ action: 'user.updated', target: target('user') })).toEqual({ to: '/admin/users/$uid', params: { uid: '7' } });
    expect(targetLink({ action: 'node.token_reset', target: target('node') })).toEqual({ to: '/admin/nodes/$nid', params: { nid: '7' } });
    expect(targetLink({ action: 'egg.updated', target: target('egg', 'e1') })).toEqual({ to: '/admin/eggs/$eggId', params: { eggId: 'e1' } });
    expect(targetLink({ action: 'nest.updated', target: target('nest', 'n1') })).toEqual({ to: '/admin/nests/$nestId', params: { nestId: 'n1' } });
    expect(targetLink({ action: 'egg.variable.deleted', target: target('egg_variable', 'v1', 'e1') })).toEqual({ to: '/admin/eggs/$eggId/variables', params: { eggId: 'e1' } });
    expect(targetLink({ action: 'allocation.deleted', target: target('allocation', '9', '3') })).toEqual({ to: '/admin/nodes/$nid', params: { nid: '3' }, search: { tab: 'allocations' } });
    expect(targetLink({ action: 'location.created', target: target('location') })).toEqual({ to: '/admin/locations' });
    expect(targetLink({ action: 'database_host.updated', target: target('database_host') })).toEqual({ to: '/admin/database-hosts' });
    expect(targetLink({ action: 'mount.nodes.linked', target: target('mount') })).toEqual({ to: '/admin/mounts/$mountId', params: { mountId: '7' } });
  });

  it('should not link what is deleted, an unknown kind, or a variable whose egg is unknown', () => {
    expect(targetLink({ action: 'server.deleted', target: target('server') })).toBeNull();
    expect(targetLink({ action: 'thing.created', target: target('thing') })).toBeNull();
    expect(targetLink({ action: 'egg.variable.updated', target: target('egg_variable', 'v1', null) })).toBeNull();
  });
});
