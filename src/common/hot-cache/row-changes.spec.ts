import { invalidationFor, isBookkeeping } from 'src/common/hot-cache/row-changes';

const at = (iso: string) => new Date(iso);

describe('invalidationFor', () => {
  it('should drop the tag of a known row', () => {
    expect(invalidationFor({ table: 'user', op: 'update', id: '5' })).toEqual({ tags: ['user:5'], clear: [] });
    expect(invalidationFor({ table: 'api_key', op: 'remove', id: '3' })).toEqual({ tags: ['api_key:3'], clear: [] });
    expect(invalidationFor({ table: 'pterodactyl_api_key', op: 'unknown', id: '7' })).toEqual({ tags: ['pterodactyl_api_key:7'], clear: [] });
    expect(invalidationFor({ table: 'server', op: 'unknown', id: '9' })).toEqual({ tags: ['server:9'], clear: [] });
    expect(invalidationFor({ table: 'node', op: 'update', id: '2', changed: ['tokenSecret'] })).toEqual({ tags: ['node:2'], clear: [] });
  });

  it('should clear whatever could hold unknown rows, and what their removal cascades to', () => {
    expect(invalidationFor({ table: 'session', op: 'remove' })).toEqual({ tags: [], clear: ['sessions'] });
    expect(invalidationFor({ table: 'user', op: 'update', after: { passwordHash: 'x' }, changed: ['passwordHash'] })).toEqual({
      tags: [],
      clear: ['apiKeys', 'pterodactylKeys', 'sessions', 'servers'],
    });
    expect(invalidationFor({ table: 'user', op: 'remove' }).clear).toEqual(['apiKeys', 'pterodactylKeys', 'sessions', 'servers', 'grants']);
    expect(invalidationFor({ table: 'pterodactyl_api_key', op: 'remove' })).toEqual({ tags: [], clear: ['pterodactylKeys'] });
    expect(invalidationFor({ table: 'node', op: 'update', after: { fqdn: 'x' }, changed: ['fqdn'] }).clear).toEqual(['servers', 'configs', 'daemonNodes']);
    expect(invalidationFor({ table: 'server', op: 'update', after: { status: null }, changed: ['status'] }).clear).toEqual(['servers', 'configs']);
    expect(invalidationFor({ table: 'server', op: 'remove' }).clear).toEqual(['servers', 'configs', 'allocations', 'grants']);
    // A TRUNCATE heard from the feed.
    expect(invalidationFor({ table: 'egg', op: 'unknown' }).clear).toEqual(['servers', 'configs']);
  });

  it('should drop every Wings configuration on any write to a table only they are built from', () => {
    for (const table of ['egg_variable', 'server_variable', 'location', 'mount', 'mount_node', 'mount_server']) {
      expect(invalidationFor({ table, op: 'insert', id: '1', after: { id: '1' } })).toEqual({ tags: [], clear: ['configs'] });
      expect(invalidationFor({ table, op: 'unknown' })).toEqual({ tags: [], clear: ['configs'] });
    }
  });

  it('should ignore inserts nothing cached can depend on', () => {
    expect(invalidationFor({ table: 'session', op: 'insert', after: { userId: '1' } })).toEqual({ tags: [], clear: [] });
    expect(invalidationFor({ table: 'server_activity', op: 'remove' })).toEqual({ tags: [], clear: [] });
  });

  it('should drop the old and the new server list of an allocation that moves', () => {
    expect(
      invalidationFor({ table: 'allocation', op: 'update', id: '4', before: { serverId: '1' }, after: { id: '4', serverId: '2' }, changed: ['serverId'] }),
    ).toEqual({ tags: ['allocation:4', 'allocations:1', 'allocations:2'], clear: [] });
    expect(invalidationFor({ table: 'allocation', op: 'insert', id: '5', after: { id: '5', serverId: '2' } })).toEqual({ tags: ['allocations:2'], clear: [] });
    expect(invalidationFor({ table: 'allocation', op: 'update', after: { serverId: '2' }, changed: ['serverId'] })).toEqual({ tags: [], clear: ['allocations', 'configs'] });
    // From the feed the new owner is unknown.
    expect(invalidationFor({ table: 'allocation', op: 'unknown', id: '4' })).toEqual({ tags: [], clear: ['allocations', 'configs'] });
  });

  it('should drop a cached grant, or its cached absence, by server and user', () => {
    expect(invalidationFor({ table: 'subuser', op: 'insert', id: '8', after: { id: '8', serverId: '1', userId: '2' } })).toEqual({ tags: ['grant:1:2'], clear: [] });
    expect(invalidationFor({ table: 'subuser', op: 'update', after: { permissions: [] }, changed: ['permissions'] })).toEqual({ tags: [], clear: ['grants'] });
    expect(invalidationFor({ table: 'subuser', op: 'unknown', id: '8' })).toEqual({ tags: [], clear: ['grants'] });
  });
});

describe('isBookkeeping', () => {
  it('should take "last used" and "last seen" marks for bookkeeping', () => {
    expect(isBookkeeping({ table: 'api_key', op: 'update', changed: ['lastUsedAt'] })).toBe(true);
    expect(isBookkeeping({ table: 'session', op: 'update', changed: ['lastSeenAt'] })).toBe(true);
    expect(isBookkeeping({ table: 'node', op: 'update', changed: ['lastSeenAt'] })).toBe(true);
    // A daemon's call (touchNode): seen, and contacted the first time.
    expect(isBookkeeping({ table: 'node', op: 'update', changed: ['lastSeenAt', 'daemonContactedAt'] })).toBe(true);
    expect(isBookkeeping({ table: 'pterodactyl_api_key', op: 'update', changed: ['lastUsedAt'] })).toBe(true);
    expect(isBookkeeping({ table: 'pterodactyl_api_key', op: 'update', changed: ['lastUsedAt', 'permissions'] })).toBe(false);
    expect(isBookkeeping({ table: 'api_key', op: 'update', changed: ['lastUsedAt', 'permissions'] })).toBe(false);
    expect(isBookkeeping({ table: 'api_key', op: 'remove', changed: ['lastUsedAt'] })).toBe(false);
    expect(isBookkeeping({ table: 'api_key', op: 'update' })).toBe(false);
    expect(isBookkeeping({ table: 'user', op: 'update', changed: ['lastSeenAt'] })).toBe(false);
  });

  it('should take a session refresh for bookkeeping, but not an expiry moved any other way', () => {
    const refresh = { refreshedAt: at('2026-01-01T00:00:00Z'), lastSeenAt: at('2026-01-01T00:00:00Z'), expiresAt: at('2026-01-15T00:00:00Z') };
    expect(isBookkeeping({ table: 'session', op: 'update', after: refresh, changed: Object.keys(refresh) })).toBe(true);
    const expireNow = { expiresAt: at('2026-01-01T00:00:00Z') };
    expect(isBookkeeping({ table: 'session', op: 'update', after: expireNow, changed: ['expiresAt'] })).toBe(false);
    const shortened = { ...refresh, expiresAt: at('2026-01-02T00:00:00Z') };
    expect(
      isBookkeeping({ table: 'session', op: 'update', before: { expiresAt: at('2026-01-10T00:00:00Z') }, after: shortened, changed: Object.keys(shortened) }),
    ).toBe(false);
  });
});
