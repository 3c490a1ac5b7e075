// Paths inside a server, as the panel takes them: absolute, `/`-separated, no trailing slash
// (src/modules/files/server-path.ts normalises the same way on the other side).

/** `''`, `a/b/`, `//a//b` → `/`, `/a/b`, `/a/b`; `.` and `..` resolved without leaving the root. */
export const normalizePath = (raw: string | undefined): string => {
  const out: string[] = [];
  for (const part of (raw ?? '').split('/')) {
    if (part === '' || part === '.') {
      continue;
    }
    if (part === '..') {
      out.pop();
    } else {
      out.push(part);
    }
  }
  return `/${out.join('/')}`;
};

export const joinPath = (directory: string, name: string): string => normalizePath(`${directory}/${name}`);

export const parentOf = (path: string): string => normalizePath(`${normalizePath(path)}/..`);

export const baseName = (path: string): string => normalizePath(path).split('/').pop() ?? '';

/** The breadcrumb trail of a directory: the root, then each folder with its full path. */
export const breadcrumbs = (path: string): { name: string; path: string }[] => {
  const parts = normalizePath(path).split('/').filter(Boolean);
  return [{ name: '/', path: '/' }, ...parts.map((name, i) => ({ name, path: `/${parts.slice(0, i + 1).join('/')}` }))];
};

/** The name a pulled URL gets on the node (its last path segment, as Wings names it); undefined when it has none. */
export const pulledName = (url: string): string | undefined => {
  try {
    const last = new URL(url).pathname.split('/').pop() ?? '';
    return decodeURIComponent(last) || undefined;
  } catch {
    return undefined;
  }
};

const ARCHIVE = /\.(zip|tar|tar\.gz|tgz|tar\.bz2|tbz2?|tar\.xz|txz|gz|bz2|xz|rar|7z)$/i;

/** Names the daemon can unpack (Wings' decompress knows these formats). */
export const isArchive = (name: string): boolean => ARCHIVE.test(name);

/** Permission bits as an octal string and back: `644` ⇄ owner rw, group r, others r. */
type PermissionGrid = [boolean, boolean, boolean][];

export const gridFromOctal = (octal: string): PermissionGrid => {
  const digits = octal.padStart(3, '0').slice(-3).split('').map(Number);
  return digits.map((d) => [(d & 4) !== 0, (d & 2) !== 0, (d & 1) !== 0]);
};

export const octalFromGrid = (grid: PermissionGrid): string => grid.map(([r, w, x]) => String((r ? 4 : 0) + (w ? 2 : 0) + (x ? 1 : 0))).join('');

export const isOctalMode = (value: string): boolean => /^[0-7]{3,4}$/.test(value);
