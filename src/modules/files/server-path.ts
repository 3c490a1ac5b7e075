import { AppException } from 'src/common/errors/app.exception';
import { FilesError } from 'src/modules/files/files.errors';

/** Longest path accepted (Linux PATH_MAX). */
const MAX_PATH = 4096;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;
const PERCENT = /(?:%[0-9a-f]{2})+/gi;

const invalid = (why: string): AppException => new AppException(FilesError.PATH_INVALID, { message: `Invalid path: ${why}` });

/** One round of percent-decoding that leaves a lone `%` alone ("100%.txt") but refuses malformed UTF-8 (overlong dots). */
const decodeOnce = (value: string): string =>
  value.replace(PERCENT, (run) => {
    const bytes = Buffer.from(run.replace(/%/g, ''), 'hex');
    try {
      return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      throw invalid('it contains a malformed percent-encoding');
    }
  });

/** `.`/`..` resolved against `/`; undefined when a `..` climbs above the root. */
const collapse = (value: string): string[] | undefined => {
  const out: string[] = [];
  for (const segment of value.split('/')) {
    if (segment === '' || segment === '.') {
      continue;
    }
    if (segment === '..') {
      if (out.length === 0) {
        return undefined;
      }
      out.pop();
      continue;
    }
    out.push(segment);
  }
  return out;
};

const dotSegments = (value: string): number => value.split('/').filter((s) => s === '.' || s === '..').length;

const checkForm = (value: string): void => {
  if (CONTROL.test(value)) {
    throw invalid('it contains a NUL or control character');
  }
  if (value.includes('\\')) {
    throw invalid('it contains a backslash');
  }
  if (collapse(value) === undefined) {
    throw invalid('it leads outside the server');
  }
};

/**
 * The one path normaliser of the file manager: refuses NUL and control characters,
 * backslashes, and anything that climbs out of the server root — also once percent-decoded, so an
 * encoded `..` (`%2e%2e`, `%252e%252e`, overlong UTF-8) never reaches the daemon — and returns the
 * absolute, normalised path (`/` for the root, no trailing slash). The path itself is kept as given
 * (a file may be named `100%.txt`); the decoded forms are only checked.
 */
export const normalizeServerPath = (raw: unknown): string => {
  if (raw === undefined || raw === null || raw === '') {
    return '/';
  }
  if (typeof raw !== 'string') {
    throw invalid('it must be a string');
  }
  if (raw.length > MAX_PATH) {
    throw invalid(`it is longer than ${MAX_PATH} characters`);
  }
  let form = raw;
  for (let round = 0; ; round++) {
    checkForm(form);
    const decoded = decodeOnce(form);
    if (decoded === form) {
      break;
    }
    if (round === 3) {
      throw invalid('it is encoded too many times');
    }
    // An encoded `.`/`..` segment has no honest use: refuse it even where it would not escape.
    if (dotSegments(decoded) > dotSegments(form)) {
      throw invalid('it contains an encoded dot segment');
    }
    form = decoded;
  }
  return `/${(collapse(raw) ?? []).join('/')}`;
};

/** A name or relative path inside `root` (delete, compress, chmod...): must stay strictly below it. */
export const childPath = (root: string, name: unknown): { path: string; relative: string } => {
  if (typeof name !== 'string' || name === '') {
    throw invalid('a file name is required');
  }
  const full = normalizeServerPath(`${root}/${name}`);
  const prefix = root === '/' ? '/' : `${root}/`;
  if (!full.startsWith(prefix) || full === root) {
    throw invalid(`${name} is not inside ${root}`);
  }
  return { path: full, relative: full.slice(prefix.length) };
};

/** The directory holding `path` (`/` for a top-level entry). */
export const parentOf = (path: string): string => path.slice(0, path.lastIndexOf('/')) || '/';

/** The last segment of `path`. */
export const baseName = (path: string): string => path.slice(path.lastIndexOf('/') + 1);
