import en from '@/lib/i18n/en.json';

/** The filters the page offers: all, or every event under one of these prefixes. */
export const EVENT_GROUPS = [
  'server.schedule.*',
  'server.task.*',
  'server.power.*',
  'server.console.*',
  'server.file.*',
  'server.backup.*',
  'server.database.*',
  'server.subuser.*',
  'server.settings.*',
  'server.startup.*',
  'server.sftp.*',
] as const;
type EventGroup = (typeof EVENT_GROUPS)[number];

export const isEventGroup = (value: string): value is EventGroup => (EVENT_GROUPS as readonly string[]).includes(value);

type KnownEventKey = keyof typeof en.activity.events;

/** The translation key of an event's plain words (`server.power.start` → `server_power_start`), or null for an event without words. */
export const eventKey = (event: string): KnownEventKey | null => {
  const key = event.replace(/[.:-]/g, '_');
  return Object.hasOwn(en.activity.events, key) ? (key as KnownEventKey) : null;
};

/** The metadata values worth a line on their own (a command, a file, a schedule's name), in this order. */
const SUMMARY_KEYS = ['name', 'command', 'file', 'files', 'directory', 'payload', 'action', 'status', 'reason', 'error', 'email'] as const;

/** One short line from an entry's metadata: the first few of SUMMARY_KEYS that hold a string, a number or strings. */
export const metadataSummary = (metadata: Record<string, unknown>, max = 2): string => {
  const parts: string[] = [];
  for (const key of SUMMARY_KEYS) {
    const value = metadata[key];
    if (typeof value === 'string' && value !== '') {
      parts.push(value);
    } else if (typeof value === 'number') {
      parts.push(String(value));
    } else if (Array.isArray(value) && value.length > 0 && value.every((v) => typeof v === 'string')) {
      parts.push(value.join(', '));
    }
    if (parts.length === max) {
      break;
    }
  }
  return parts.join(' · ');
};
