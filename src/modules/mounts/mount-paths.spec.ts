import { normalizeMountPath, sourceProblem, targetProblem } from 'src/modules/mounts/mount-paths';

describe('mount paths', () => {
  it.each([
    ['/srv//maps/', '/srv/maps'],
    ['//', '/'],
    ['/a/b/c', '/a/b/c'],
  ])('should normalise %j to %j', (given, normal) => {
    expect(normalizeMountPath(given)).toEqual({ path: normal });
  });

  it.each(['srv', '', '/srv/../etc', '/srv/./x', '/srv/x\u0007', `/${'a'.repeat(255)}`])('should refuse %j', (given) => {
    expect(normalizeMountPath(given)).toEqual({ error: expect.any(String) });
  });

  it('should refuse a source that is, lies under or contains a Wings directory or the node data directory, and nothing else', () => {
    for (const bad of ['/', '/etc', '/etc/pterodactyl', '/var', '/var/lib/pterodactyl/volumes/x', '/srv/daemon-data', '/run', '/var/run/docker.sock']) {
      expect(sourceProblem(bad)).toBeDefined();
    }
    expect(sourceProblem('/data/games/x', ['/data/games'])).toMatch('/data/games');
    expect(sourceProblem('/data', ['/data/games'])).toMatch('/data/games');
    for (const good of ['/srv/maps', '/var/lib/maps', '/etc2', '/var/lib/pterodactyl2', '/opt/plugins', '/data/other']) {
      expect(sourceProblem(good, ['/data/games'])).toBeUndefined();
    }
  });

  it('should refuse a target in the server data path or a system directory, and nothing else', () => {
    for (const bad of ['/', '/home', '/home/container', '/home/container/x', '/etc', '/etc/x', '/usr/lib', '/proc', '/var/tmp']) {
      expect(targetProblem(bad)).toBeDefined();
    }
    for (const good of ['/mnt/maps', '/srv/x', '/opt/x', '/data', '/home/other', '/etcetera', '/tmp/x']) {
      expect(targetProblem(good)).toBeUndefined();
    }
  });
});
