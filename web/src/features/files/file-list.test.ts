import { describe, expect, it } from 'vitest';
import { arrangeEntries, type FileEntry } from '@/features/files/file-list';
import { baseName, breadcrumbs, gridFromOctal, isArchive, joinPath, normalizePath, octalFromGrid, parentOf, pulledName } from '@/features/files/paths';

const entry = (name: string, isDirectory: boolean, size = 0, modified?: string): FileEntry => ({
  name,
  path: `/${name}`,
  size,
  mode: '644',
  modified,
  isDirectory,
  isFile: !isDirectory,
});

const list = [
  entry('b.txt', false, 30, '2026-01-03T00:00:00Z'),
  entry('plugins', true, 4096, '2026-01-01T00:00:00Z'),
  entry('A.jar', false, 10, '2026-01-02T00:00:00Z'),
  entry('file10.log', false, 20),
  entry('file9.log', false, 20),
  entry('config', true, 4096, '2026-01-05T00:00:00Z'),
];
const names = (entries: FileEntry[]) => entries.map((e) => e.name);

describe('arrangeEntries', () => {
  it('should put folders first, then sort by name without case and with numbers in order', () => {
    expect(names(arrangeEntries(list, 'name', 'asc', ''))).toEqual(['config', 'plugins', 'A.jar', 'b.txt', 'file9.log', 'file10.log']);
  });

  it('should keep folders first when sorting descending', () => {
    expect(names(arrangeEntries(list, 'name', 'desc', ''))).toEqual(['plugins', 'config', 'file10.log', 'file9.log', 'b.txt', 'A.jar']);
  });

  it('should sort by size with the name breaking ties, and by modified time (unknown first)', () => {
    expect(names(arrangeEntries(list, 'size', 'asc', ''))).toEqual(['config', 'plugins', 'A.jar', 'file9.log', 'file10.log', 'b.txt']);
    expect(names(arrangeEntries(list, 'modified', 'desc', ''))).toEqual(['config', 'plugins', 'b.txt', 'A.jar', 'file10.log', 'file9.log']);
  });

  it('should keep only names containing the filter, in any case, and not change its input', () => {
    const copy = [...list];
    expect(names(arrangeEntries(list, 'name', 'asc', ' FILE '))).toEqual(['file9.log', 'file10.log']);
    expect(list).toEqual(copy);
  });
});

describe('paths', () => {
  it('should normalise like the panel does', () => {
    expect(normalizePath('')).toBe('/');
    expect(normalizePath('a//b/')).toBe('/a/b');
    expect(normalizePath('/a/../../b/./c')).toBe('/b/c');
    expect(joinPath('/', 'x')).toBe('/x');
    expect(parentOf('/a/b')).toBe('/a');
    expect(parentOf('/')).toBe('/');
    expect(baseName('/a/b.txt')).toBe('b.txt');
  });

  it('should give breadcrumbs from the root', () => {
    expect(breadcrumbs('/world/region')).toEqual([
      { name: '/', path: '/' },
      { name: 'world', path: '/world' },
      { name: 'region', path: '/world/region' },
    ]);
  });

  it('should name a pulled URL by its last path segment, as the node does', () => {
    expect(pulledName('https://example.com/plugins/Essentials%20X.jar?v=2')).toBe('Essentials X.jar');
    expect(pulledName('https://example.com/')).toBeUndefined();
    expect(pulledName('not a url')).toBeUndefined();
  });

  it('should know archives by their extension', () => {
    expect(['a.zip', 'b.tar.gz', 'c.TGZ', 'd.tar.xz', 'e.rar'].every(isArchive)).toBe(true);
    expect(['a.txt', 'zip', 'jar.jar'].some(isArchive)).toBe(false);
  });

  it('should turn octal modes into permission boxes and back', () => {
    expect(gridFromOctal('754')).toEqual([
      [true, true, true],
      [true, false, true],
      [true, false, false],
    ]);
    expect(octalFromGrid(gridFromOctal('640'))).toBe('640');
    expect(octalFromGrid(gridFromOctal('0755'))).toBe('755');
  });
});
