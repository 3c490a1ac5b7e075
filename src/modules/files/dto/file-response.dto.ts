import type { DaemonFileStat } from 'src/modules/daemon-gateway/daemon.gateway';

/** One entry of a directory listing. */
export class FileEntryDto {
  name!: string;
  path!: string;
  size!: number;
  mode!: string;
  modeBits?: number;
  created?: string;
  modified?: string;
  isDirectory!: boolean;
  isFile!: boolean;
  isSymlink?: boolean;
  /** What the node sniffed from the content (`inode/directory`, `text/plain; charset=utf-8`, `application/zip` …); may be omitted. */
  mimetype?: string;
}

const iso = (value: string | undefined): string | undefined => {
  const date = value ? new Date(value) : undefined;
  return date && !Number.isNaN(date.getTime()) ? date.toISOString() : undefined;
};

/**
 * Wings' Stat to a file entry: `mode` is the octal permission string (`644`, Wings' `mode_bits`),
 * `modeBits` its numeric value; the optional fields only when the daemon gives them.
 */
export const toFileEntry = (directory: string, stat: DaemonFileStat): FileEntryDto => {
  const octal = stat.mode_bits && /^[0-7]+$/.test(stat.mode_bits) ? stat.mode_bits : undefined;
  const created = iso(stat.created);
  const modified = iso(stat.modified);
  return {
    name: stat.name,
    path: `${directory === '/' ? '' : directory}/${stat.name}`,
    size: stat.size,
    mode: octal ?? stat.mode,
    ...(octal ? { modeBits: Number.parseInt(octal, 8) } : {}),
    ...(created ? { created } : {}),
    ...(modified ? { modified } : {}),
    isDirectory: stat.directory,
    isFile: stat.file,
    ...(typeof stat.symlink === 'boolean' ? { isSymlink: stat.symlink } : {}),
    ...(typeof stat.mime === 'string' && stat.mime !== '' ? { mimetype: stat.mime } : {}),
  };
};

export class DirectoryListingDto {
  /** The directory listed, normalised (absolute inside the server). */
  directory!: string;
  entries!: FileEntryDto[];
}

/** A one-time signed URL on the node, valid 15 minutes. */
export class SignedUrlDto {
  url!: string;
}

export class PullStartedDto {
  /** The node's id for the download it started. */
  identifier!: string;
}
