import type { components } from '@/api/schema';

// Ordering and filtering of a directory listing, done in the browser over the whole directory
// (the panel answers every entry; nothing is cut at 250 as in other panels).

/** One entry of `GET /files/list` (docs/api.md#files), as the panel's OpenAPI describes it. */
export type FileEntry = components['schemas']['FileEntryDto'];

export type SortKey = 'name' | 'size' | 'modified';
export type SortDir = 'asc' | 'desc';

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

const compare = (a: FileEntry, b: FileEntry, key: SortKey): number => {
  if (key === 'size') {
    return a.size - b.size || collator.compare(a.name, b.name);
  }
  if (key === 'modified') {
    return (Date.parse(a.modified ?? '') || 0) - (Date.parse(b.modified ?? '') || 0) || collator.compare(a.name, b.name);
  }
  return collator.compare(a.name, b.name);
};

/**
 * Folders first (always, whatever the direction), then files; each group by `key` in `dir`;
 * only names containing `filter` (any case).
 */
export const arrangeEntries = (entries: readonly FileEntry[], key: SortKey, dir: SortDir, filter: string): FileEntry[] => {
  const needle = filter.trim().toLocaleLowerCase();
  const sign = dir === 'asc' ? 1 : -1;
  return entries
    .filter((e) => needle === '' || e.name.toLocaleLowerCase().includes(needle))
    .sort((a, b) => Number(b.isDirectory) - Number(a.isDirectory) || sign * compare(a, b, key));
};
