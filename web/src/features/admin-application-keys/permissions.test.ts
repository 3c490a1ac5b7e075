import { describe, expect, it } from 'vitest';
import { accessOf, emptyGrid, grantedOf, RESOURCES } from '@/features/admin-application-keys/permissions';

describe('application key permissions', () => {
  it('starts with nothing granted on each of the nine resources', () => {
    expect(Object.keys(emptyGrid())).toEqual([...RESOURCES]);
    expect(Object.values(emptyGrid()).every((v) => v === 0)).toBe(true);
  });

  it('reads AdminAcl bits: 1 read, 2 write, 3 both', () => {
    expect([0, 1, 2, 3, undefined].map(accessOf)).toEqual(['none', 'read', 'write', 'readWrite', 'none']);
  });

  it('lists what a key may touch in Pterodactyl order, leaving out the rest', () => {
    expect(grantedOf({ users: 1, servers: 3, nodes: 0, eggs: 2 })).toEqual([
      { resource: 'servers', access: 'readWrite' },
      { resource: 'users', access: 'read' },
      { resource: 'eggs', access: 'write' },
    ]);
    expect(grantedOf(undefined)).toEqual([]);
  });
});
