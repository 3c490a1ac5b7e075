// Per-server command history for the console's command line: ↑/↓ walk it like a shell's, the
// newest last, 100 entries, kept in localStorage so it survives reloads.

export const HISTORY_LIMIT = 100;

const keyOf = (serverId: string) => `hatchery.console.history.${serverId}`;

/** The stored entries, oldest first; anything unreadable counts as empty. */
export const loadHistory = (storage: Pick<Storage, 'getItem'>, serverId: string): string[] => {
  try {
    const parsed: unknown = JSON.parse(storage.getItem(keyOf(serverId)) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter((x): x is string => typeof x === 'string').slice(-HISTORY_LIMIT) : [];
  } catch {
    return [];
  }
};

/** Appends a command (a repeat of the newest is not stored twice) and keeps the last 100. */
export const appendHistory = (entries: readonly string[], command: string): string[] => {
  if (command.trim() === '' || entries[entries.length - 1] === command) {
    return [...entries];
  }
  return [...entries, command].slice(-HISTORY_LIMIT);
};

export const saveHistory = (storage: Pick<Storage, 'setItem'>, serverId: string, entries: readonly string[]): void => {
  try {
    storage.setItem(keyOf(serverId), JSON.stringify(entries.slice(-HISTORY_LIMIT)));
  } catch {
    // Storage full or refused (private mode): the history lives for this page only.
  }
};

/**
 * Walking the history: `index` null is the line being typed (kept in `draft`), 0 the oldest entry.
 * Returns the new cursor and the text the input should show.
 */
export interface HistoryCursor {
  index: number | null;
  draft: string;
}

export const stepHistory = (
  entries: readonly string[],
  cursor: HistoryCursor,
  current: string,
  direction: 'up' | 'down',
): { cursor: HistoryCursor; text: string } => {
  if (entries.length === 0) {
    return { cursor, text: current };
  }
  if (direction === 'up') {
    if (cursor.index === null) {
      const index = entries.length - 1;
      return { cursor: { index, draft: current }, text: entries[index] };
    }
    const index = Math.max(0, cursor.index - 1);
    return { cursor: { ...cursor, index }, text: entries[index] };
  }
  if (cursor.index === null) {
    return { cursor, text: current };
  }
  if (cursor.index >= entries.length - 1) {
    return { cursor: { index: null, draft: '' }, text: cursor.draft };
  }
  const index = cursor.index + 1;
  return { cursor: { ...cursor, index }, text: entries[index] };
};
