import { describe, expect, it } from 'vitest';
import { parseDashboardSearch } from '@/features/dashboard/search-params';
import { addressOf, badgesOf, statusChanges, statusOf, usageBars, type ListedServer } from '@/features/dashboard/server-view';

const server = (over: Partial<ListedServer> = {}): ListedServer => ({
  id: '1',
  uuid: '0f3a9c1e-0000-4000-8000-000000000001',
  identifier: '0f3a9c1e',
  name: 'Survival',
  description: null,
  status: 'unknown',
  suspended: false,
  node: { id: '1', name: 'node-eu' },
  limits: { memory: 1024, disk: 2048, cpu: 200 },
  allocations: { primary: { ip: '10.0.0.5', port: 25565 } },
  owner: { id: '9', username: 'alice' },
  ...over,
});

const resources = { memoryBytes: 512 * 1024 * 1024, memoryLimitBytes: 0, cpuAbsolute: 50, diskBytes: 4096 * 1024 * 1024, networkRxBytes: 0, networkTxBytes: 0, uptime: 10 };

describe('statusOf', () => {
  it('says what the node says, and "node unreachable" above all', () => {
    expect(statusOf(server(), { kind: 'live', currentState: 'running', isSuspended: false, resources }, true)).toEqual({ key: 'running', tone: 'running' });
    expect(statusOf(server(), { kind: 'live', currentState: 'starting', isSuspended: false, resources }, true).key).toBe('starting');
    expect(statusOf(server(), { kind: 'live', currentState: 'missing', isSuspended: false, resources: null }, true).key).toBe('missing');
    expect(statusOf(server({ status: 'installing' }), { kind: 'unreachable', nodeId: '1', code: 'DAEMON_TIMEOUT' }, true).key).toBe('unreachable');
  });

  it('keeps the panel states the node does not know', () => {
    expect(statusOf(server({ status: 'install_failed' }), { kind: 'live', currentState: 'offline', isSuspended: false, resources }, true).key).toBe('installFailed');
    expect(statusOf(server({ status: 'installing' }), undefined, true).key).toBe('installing');
    expect(statusOf(server({ suspended: true, status: 'suspended' }), undefined, true).key).toBe('suspended');
  });

  it('waits for the first frame, or says unknown without a connection', () => {
    expect(statusOf(server(), undefined, true).key).toBe('connecting');
    expect(statusOf(server(), undefined, false).key).toBe('unknown');
    expect(statusOf(server(), { kind: 'live', currentState: 'weird', isSuspended: false, resources }, true).key).toBe('unknown');
  });
});

describe('badgesOf', () => {
  it('names install failures, installs, restores and suspension', () => {
    expect(badgesOf(server())).toEqual([]);
    expect(badgesOf(server({ status: 'install_failed' }))).toEqual(['installFailed']);
    expect(badgesOf(server({ status: 'installing' }))).toEqual(['installing']);
    expect(badgesOf(server({ status: 'suspended', suspended: true }))).toEqual(['suspended']);
    expect(badgesOf(server(), { kind: 'live', currentState: 'offline', isSuspended: true, resources })).toEqual(['suspended']);
  });
});

describe('usageBars', () => {
  it('measures against the limits, in bytes for memory and disk, capped at 100 %', () => {
    const [cpu, memory, disk] = usageBars(server().limits, resources);
    expect(cpu).toEqual({ key: 'cpu', used: 50, limit: 200, percent: 25 });
    expect(memory).toEqual({ key: 'memory', used: 512 * 1024 * 1024, limit: 1024 * 1024 * 1024, percent: 50 });
    expect(disk.percent).toBe(100);
  });

  it('has no bar without a limit, but uses the node memory limit when the panel sets none', () => {
    const [cpu, memory, disk] = usageBars({ memory: 0, disk: 0, cpu: 0 }, { ...resources, memoryLimitBytes: 1024 * 1024 * 1024 });
    expect(cpu.percent).toBeNull();
    expect(memory.percent).toBe(50);
    expect(disk).toMatchObject({ limit: null, percent: null });
  });
});

describe('addressOf', () => {
  it('writes ip:port, brackets IPv6, and null without an allocation', () => {
    expect(addressOf(server())).toBe('10.0.0.5:25565');
    expect(addressOf(server({ allocations: { primary: { ip: '::1', port: 1 } } }))).toBe('[::1]:1');
    expect(addressOf(server({ allocations: { primary: null } }))).toBeNull();
  });
});

describe('statusChanges', () => {
  it('reports changed servers only, not new ones nor the wait for a first frame', () => {
    const before = new Map([
      ['a', 'offline' as const],
      ['b', 'running' as const],
      ['d', 'connecting' as const],
    ]);
    const after = new Map([
      ['a', 'running' as const],
      ['b', 'connecting' as const],
      ['c', 'running' as const],
      ['d', 'offline' as const],
    ]);
    expect(statusChanges(before, after)).toEqual([{ uuid: 'a', key: 'running' }]);
  });
});

describe('parseDashboardSearch', () => {
  it('keeps valid values and leaves defaults out of the URL', () => {
    expect(parseDashboardSearch({ tab: 'shared', q: 'surv', page: 2 })).toEqual({ tab: 'shared', q: 'surv', page: 2 });
    expect(parseDashboardSearch({ tab: 'mine', q: '  ', page: 1 })).toEqual({});
    expect(parseDashboardSearch({ tab: 'nope', q: 5, page: '3' })).toEqual({ page: 3 });
    expect(parseDashboardSearch({ page: -1 })).toEqual({});
    expect(parseDashboardSearch({ page: 1.5 })).toEqual({});
  });
});
