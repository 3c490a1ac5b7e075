import type { DatabaseHostEntity } from 'src/modules/databases/database-host.entity';
import type { HostWithCount } from 'src/modules/databases/databases.repository';
import { hasRoom, rankHosts } from 'src/modules/databases/host-choice';

const host = (id: string, nodeId: string | null, databases: number, maxDatabases: number | null = null): HostWithCount => ({
  host: { id, nodeId, maxDatabases } as DatabaseHostEntity,
  databases,
});

const ids = (hosts: HostWithCount[]): string[] => hosts.map((h) => h.host.id);

describe(rankHosts.name, () => {
  it('should rank hosts linked to the node first, fewest databases first, then by id', () => {
    const hosts = [host('1', null, 0), host('2', '7', 5), host('3', '7', 1), host('4', '7', 1), host('5', '8', 0)];
    expect(ids(rankHosts(hosts, '7'))).toEqual(['3', '4', '2', '1']);
  });

  it('should use global hosts, fewest first, for a node without hosts of its own, and never another node’s', () => {
    const hosts = [host('1', null, 3), host('2', null, 1), host('5', '8', 0)];
    expect(ids(rankHosts(hosts, '7'))).toEqual(['2', '1']);
  });

  it('should skip full hosts and fall back to global hosts when every linked host is full', () => {
    const hosts = [host('1', '7', 2, 2), host('2', null, 9), host('3', null, 4, 4)];
    expect(ids(rankHosts(hosts, '7'))).toEqual(['2']);
  });

  it('should rank nothing when no host can take a database', () => {
    expect(rankHosts([host('1', null, 0, 0), host('2', '8', 0)], '7')).toEqual([]);
  });
});

describe(hasRoom.name, () => {
  it.each([
    [null, 1000, true],
    [3, 2, true],
    [3, 3, false],
    [0, 0, false],
  ])('should say a host with maxDatabases %p and %i databases has room: %p', (max, count, expected) => {
    expect(hasRoom(host('1', null, count, max))).toBe(expected);
  });
});
