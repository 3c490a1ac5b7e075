import { describe, expect, it } from 'vitest';
import type { AdminNode } from '@/features/admin-servers/api';
import { fits, nodeCapacity } from '@/features/admin-servers/capacity';

const node = (over: Partial<AdminNode> = {}): AdminNode => ({
  id: '1',
  name: 'sim',
  fqdn: '127.0.0.1',
  maintenanceMode: false,
  memory: 8192,
  memoryOverallocate: 0,
  disk: 100_000,
  diskOverallocate: 0,
  ...over,
});

describe('nodeCapacity', () => {
  it('should grow the node by its overallocation and take off what the servers hold', () => {
    const c = nodeCapacity(node({ memoryOverallocate: 50 }), { nodeId: '1', servers: 2, memory: 4096, disk: 20_000 });
    expect(c.memory).toEqual({ limit: 12_288, used: 4096, free: 8192 });
    expect(c.disk).toEqual({ limit: 100_000, used: 20_000, free: 80_000 });
    expect(c).toMatchObject({ servers: 2, blocked: null });
  });

  it('should not check a resource whose overallocation is -1', () => {
    const c = nodeCapacity(node({ memoryOverallocate: -1 }), { nodeId: '1', servers: 9, memory: 999_999, disk: 0 });
    expect(c.memory).toEqual({ limit: null, used: 999_999, free: null });
    expect(c.blocked).toBeNull();
  });

  it('should block a node in maintenance, or with no memory or disk left', () => {
    expect(nodeCapacity(node({ maintenanceMode: true }), undefined).blocked).toBe('maintenance');
    expect(nodeCapacity(node(), { nodeId: '1', servers: 1, memory: 8192, disk: 0 }).blocked).toBe('noMemory');
    expect(nodeCapacity(node(), { nodeId: '1', servers: 1, memory: 0, disk: 100_001 }).blocked).toBe('noDisk');
    expect(nodeCapacity(node(), undefined)).toMatchObject({ servers: 0, blocked: null, memory: { used: 0, free: 8192 } });
  });
});

describe('fits', () => {
  it('should take unlimited and unchecked, and count what a resized server already holds', () => {
    expect(fits(0, 10)).toBe(true);
    expect(fits(5000, null)).toBe(true);
    expect(fits(1024, 1024)).toBe(true);
    expect(fits(1025, 1024)).toBe(false);
    expect(fits(3000, 1000, 2048)).toBe(true);
    expect(fits(3100, 1000, 2048)).toBe(false);
  });
});
