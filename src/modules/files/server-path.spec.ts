import { AppException } from 'src/common/errors/app.exception';
import { childPath, normalizeServerPath } from 'src/modules/files/server-path';
import { HOSTILE_PATHS } from 'test/utils/hostile-paths';


const reason = (fn: () => unknown): string | undefined => {
  try {
    fn();
  } catch (e) {
    return e instanceof AppException ? `${e.status} ${e.code}` : String(e);
  }
  return undefined;
};

describe('normalizeServerPath', () => {
  it.each(HOSTILE_PATHS)('should refuse %j with a 400', (p) => {
    expect(reason(() => normalizeServerPath(p))).toBe('400 FILE_PATH_INVALID');
  });

  it.each([
    [undefined, '/'],
    ['', '/'],
    ['/', '/'],
    ['plugins', '/plugins'],
    ['/plugins/', '/plugins'],
    ['//plugins//a.jar', '/plugins/a.jar'],
    ['./plugins/./a.jar', '/plugins/a.jar'],
    ['/plugins/x/../a.jar', '/plugins/a.jar'],
    ['100%.txt', '/100%.txt'],
    ['my file %20.txt', '/my file %20.txt'],
    ['..hidden/...', '/..hidden/...'],
    ['C:/x', '/C:/x'],
  ])('should normalise %j to %j', (input, expected) => {
    expect(normalizeServerPath(input)).toBe(expected);
  });

  it('should refuse a non-string and an over-long path', () => {
    expect(reason(() => normalizeServerPath(['a']))).toBe('400 FILE_PATH_INVALID');
    expect(reason(() => normalizeServerPath('a/'.repeat(3000)))).toBe('400 FILE_PATH_INVALID');
  });
});

describe('childPath', () => {
  it('should give the path below the root and its relative form', () => {
    expect(childPath('/plugins', 'a.jar')).toEqual({ path: '/plugins/a.jar', relative: 'a.jar' });
    expect(childPath('/', 'world/region')).toEqual({ path: '/world/region', relative: 'world/region' });
  });

  it.each(['', '.', '..', '../b', 'x/../..', '/', '%2e%2e'])('should refuse %j as a name in /plugins', (name) => {
    expect(reason(() => childPath('/plugins', name))).toBe('400 FILE_PATH_INVALID');
  });
});
