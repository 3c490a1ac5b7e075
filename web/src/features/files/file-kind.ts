// What a listed entry is for the file manager: a folder to open, text for the editor, an archive the
// node can unpack, or other bytes that are only downloaded. The node's sniffed mimetype decides
// first; the name decides what the sniff cannot tell (an empty or tiny `.jar` sniffs as text).
import { isArchive } from '@/features/files/paths';

type FileKind = 'directory' | 'text' | 'archive' | 'binary';

/** Mimetypes of the archives Wings' decompress unpacks (gabriel-vasile/mimetype's names). */
const ARCHIVE_MIMES = new Set([
  'application/zip',
  'application/gzip',
  'application/x-gzip',
  'application/x-tar',
  'application/x-bzip2',
  'application/x-xz',
  'application/x-7z-compressed',
  'application/vnd.rar',
  'application/x-rar-compressed',
]);

/** Text under an application/ type, as the sniffer names it. */
const TEXT_APPLICATION = new Set(['application/json', 'application/xml', 'application/javascript', 'application/x-sh', 'application/x-yaml', 'application/toml', 'application/x-ndjson', 'application/x-php', 'application/sql']);

/** Names that are not for a text editor whatever their first bytes look like. */
const BINARY_NAME =
  /\.(jar|war|ear|class|so|dll|exe|bin|dat|db|sqlite3?|mca|mcr|nbt|dat_old|png|jpe?g|gif|webp|bmp|ico|tiff?|mp3|ogg|wav|flac|mp4|webm|mkv|avi|pdf|woff2?|ttf|otf|iso|img|dmg|pyc|o|a|lib|pak|vpk|bsp|wad)$/i;

const isTextMime = (mime: string): boolean => {
  const type = mime.split(';')[0].trim().toLowerCase();
  return type.startsWith('text/') || TEXT_APPLICATION.has(type) || type.endsWith('+json') || type.endsWith('+xml');
};

/** The kind of one entry, from its `isDirectory`, `mimetype` (when the panel gives it) and name. */
export const fileKind = (entry: { name: string; isDirectory: boolean; mimetype?: string }): FileKind => {
  const mime = entry.mimetype?.split(';')[0].trim().toLowerCase();
  if (entry.isDirectory || mime === 'inode/directory') {
    return 'directory';
  }
  if (mime && ARCHIVE_MIMES.has(mime)) {
    // A .jar is a zip to the sniffer, but nobody unpacks a plugin in place.
    return BINARY_NAME.test(entry.name) ? 'binary' : 'archive';
  }
  if (isArchive(entry.name)) {
    return 'archive';
  }
  if (BINARY_NAME.test(entry.name)) {
    return 'binary';
  }
  return mime === undefined || isTextMime(mime) ? 'text' : 'binary';
};
