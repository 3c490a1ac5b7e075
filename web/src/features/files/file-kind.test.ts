import { describe, expect, it } from 'vitest';
import { fileKind } from '@/features/files/file-kind';

const file = (name: string, mimetype?: string) => ({ name, isDirectory: false, mimetype });

describe('fileKind', () => {
  it('should call folders directories, whatever their name', () => {
    expect(fileKind({ name: 'world.zip', isDirectory: true, mimetype: 'inode/directory' })).toBe('directory');
  });

  it('should take the mimetype first: text is edited, other bytes are not', () => {
    expect(fileKind(file('server.properties', 'text/plain; charset=utf-8'))).toBe('text');
    expect(fileKind(file('ops.json', 'application/json'))).toBe('text');
    expect(fileKind(file('icon', 'image/png'))).toBe('binary');
    expect(fileKind(file('start', 'application/octet-stream'))).toBe('binary');
    expect(fileKind(file('backup', 'application/gzip'))).toBe('archive');
    expect(fileKind(file('world', 'application/zip'))).toBe('archive');
  });

  it('should take the name second, for what the sniff cannot tell', () => {
    for (const name of ['world.zip', 'world.tar.gz', 'world.tgz', 'world.tar', 'maps.rar', 'maps.7z', 'log.gz', 'log.bz2', 'log.xz']) {
      expect([name, fileKind(file(name, 'text/plain; charset=utf-8'))]).toEqual([name, 'archive']);
      expect([name, fileKind(file(name))]).toEqual([name, 'archive']);
    }
    for (const name of ['paper.jar', 'libsteam.so', 'steam_api.dll', 'srcds.exe', 'data.db', 'level.dat', 'logo.PNG']) {
      expect([name, fileKind(file(name, 'text/plain; charset=utf-8'))]).toEqual([name, 'binary']);
    }
    // A plugin is a zip to the sniffer, but not one to unpack in place.
    expect(fileKind(file('paper.jar', 'application/zip'))).toBe('binary');
  });

  it('should edit a file with a plain name when the panel gives no mimetype', () => {
    expect(fileKind(file('eula.txt'))).toBe('text');
    expect(fileKind(file('start.sh'))).toBe('text');
  });
});
