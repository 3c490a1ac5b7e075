/**
 * The rules for a mount's paths (docs/admin-mounts.md#path-rules). Wings bind-mounts `source` from
 * the node into the server's container at `target` as given, so the panel is where a path that
 * would hand a server the node's secrets, other servers' files or the container's own system gets
 * stopped.
 */

/** Where Wings keeps its configuration (with the node's token), every server's files, archives, backups and logs. */
const WINGS_DIRECTORIES = [
  '/etc/pterodactyl',
  '/var/lib/pterodactyl',
  '/var/log/pterodactyl',
  '/tmp/pterodactyl',
  // Pterodactyl's daemon before Wings kept servers here.
  '/srv/daemon-data',
  // The Docker socket: whoever holds it is root on the node.
  '/run/docker.sock',
  '/var/run/docker.sock',
] as const;

/** The server's own files inside its container. */
const SERVER_DATA_PATH = '/home/container';

/** Directories of the container's system that a mount may not cover or be put inside. */
const SYSTEM_TARGETS = [
  '/bin',
  '/boot',
  '/dev',
  '/etc',
  '/lib',
  '/lib32',
  '/lib64',
  '/libx32',
  '/proc',
  '/root',
  '/run',
  '/sbin',
  '/sys',
  '/usr',
  '/var',
] as const;

export const MAX_PATH_LENGTH = 255;

/** Whether `path` is `dir` or lies under it (both normalised). */
const within = (path: string, dir: string): boolean => path === dir || path.startsWith(`${dir}/`);

/** `path`, normalised (repeated and trailing slashes dropped), or why it is not an absolute POSIX path. */
export const normalizeMountPath = (value: string): { path: string } | { error: string } => {
  if (value.length === 0) {
    return { error: 'must not be empty' };
  }
  if (value.length > MAX_PATH_LENGTH) {
    return { error: `must be at most ${MAX_PATH_LENGTH} characters` };
  }
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(value)) {
    return { error: 'must not contain control characters' };
  }
  if (!value.startsWith('/')) {
    return { error: 'must be an absolute path (start with /)' };
  }
  const segments = value.split('/').filter((s) => s !== '');
  if (segments.some((s) => s === '..' || s === '.')) {
    return { error: 'must not contain . or .. segments' };
  }
  return { path: `/${segments.join('/')}` };
};

/**
 * Why a source may not be used, or undefined. A source may not be, lie under, or contain a Wings
 * directory (nor the node's own data directory, `daemonBases`): `/var/lib` would show a server
 * every other server's files, `/etc` the node's token.
 */
export const sourceProblem = (source: string, daemonBases: readonly string[] = []): string | undefined => {
  if (source === '/') {
    return 'must not be the root of the node';
  }
  for (const dir of [...WINGS_DIRECTORIES, ...daemonBases]) {
    if (within(source, dir) || within(dir, source)) {
      return `must not be, lie under or contain ${dir} (Wings' own files and every server's data are there)`;
    }
  }
  return undefined;
};

/** Why a target may not be used, or undefined: the server's own files and the container's system are off limits. */
export const targetProblem = (target: string): string | undefined => {
  if (target === '/') {
    return 'must not be the root of the container';
  }
  if (within(target, SERVER_DATA_PATH) || within(SERVER_DATA_PATH, target)) {
    return `must not be, lie under or contain ${SERVER_DATA_PATH} (the server's own files)`;
  }
  const system = SYSTEM_TARGETS.find((dir) => within(target, dir));
  return system ? `must not be or lie under ${system} (a system directory of the container)` : undefined;
};
