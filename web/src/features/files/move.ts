// Moving several entries of one folder into another in one call: Wings' rename takes many from/to
// pairs (PUT /files/rename, docs/wings.md), so the move is one request, not one per entry.
import { joinPath } from '@/features/files/paths';

type MoveProblem = 'empty' | 'outside' | 'same' | 'intoItself';

type MovePlan = { ok: true; target: string; files: { from: string; to: string }[] } | { ok: false; problem: MoveProblem };

/** `input` (relative to `directory`, or absolute from the server's root) as an absolute path; null when `..` climbs above the root. */
export const resolveTarget = (directory: string, input: string): string | null => {
  const parts: string[] = [];
  for (const part of `${input.startsWith('/') ? '' : directory}/${input}`.split('/')) {
    if (part === '' || part === '.') {
      continue;
    }
    if (part === '..') {
      if (parts.length === 0) {
        return null;
      }
      parts.pop();
    } else {
      parts.push(part);
    }
  }
  return `/${parts.join('/')}`;
};

/** `path` relative to `directory` (the rename route joins `to` with its `root`): `../` steps, then the rest. */
const relativeTo = (directory: string, path: string): string => {
  const from = directory.split('/').filter(Boolean);
  const to = path.split('/').filter(Boolean);
  let common = 0;
  while (common < from.length && common < to.length && from[common] === to[common]) {
    common++;
  }
  return [...from.slice(common).map(() => '..'), ...to.slice(common)].join('/');
};

/** The rename pairs that move `names` (entries of `directory`) into the folder `input` names, or why not. */
export const planMove = (directory: string, names: readonly string[], input: string): MovePlan => {
  if (input.trim() === '') {
    return { ok: false, problem: 'empty' };
  }
  const target = resolveTarget(directory, input.trim());
  if (target === null) {
    return { ok: false, problem: 'outside' };
  }
  if (target === joinPath(directory, '.')) {
    return { ok: false, problem: 'same' };
  }
  // A folder cannot go inside itself (Wings would answer with an error for the whole call).
  if (names.some((name) => target === joinPath(directory, name) || target.startsWith(`${joinPath(directory, name)}/`))) {
    return { ok: false, problem: 'intoItself' };
  }
  return { ok: true, target, files: names.map((name) => ({ from: name, to: relativeTo(directory, joinPath(target, name)) })) };
};
