// Sizes, percentages and dates for display, through Intl so they follow the reader's locale.

const UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'] as const;

/** 1536 → "1.5 KiB": binary units, as the node and the server limits count them. */
export const formatBytes = (bytes: number, locale?: string): string => {
  if (!Number.isFinite(bytes)) {
    return '–';
  }
  const sign = bytes < 0 ? '-' : '';
  let value = Math.abs(bytes);
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const digits = unit === 0 || value >= 100 ? 0 : value >= 10 ? 1 : 2;
  return `${sign}${new Intl.NumberFormat(locale, { maximumFractionDigits: digits }).format(value)} ${UNITS[unit]}`;
};

/**
 * A server's memory limit in bytes, the one figure the dashboard card and the console both write
 * (through formatBytes, so 2048 MiB reads "2 GiB" in both): its own limit (MiB, as the panel stores it)
 * when it has one. The node's container limit only stands in for a server without one: Wings adds
 * 5–15 % overhead to the container, so that figure is never the limit the host set. Null when neither is known.
 */
export const serverMemoryLimit = (limitMiB: number, containerLimitBytes = 0): number | null =>
  limitMiB > 0 ? limitMiB * 1024 * 1024 : containerLimitBytes > 0 ? containerLimitBytes : null;

/** 42.345 → "42.3%"; the input is a percentage (0–100, or more for several CPU cores). */
export const formatPercent = (percent: number, locale?: string): string =>
  Number.isFinite(percent) ? new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 1 }).format(percent / 100) : '–';

/** An ISO date as local date and time, with the time zone named (schedules run in the panel's zone). */
export const formatDateTime = (iso: string, locale?: string, timeZone?: string): string => {
  const date = new Date(iso);
  return Number.isNaN(date.getTime())
    ? '–'
    : new Intl.DateTimeFormat(locale, { year: 'numeric', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit', timeZone, timeZoneName: 'short' }).format(date);
};

/** Seconds as "in 5 minutes" / "3 hours ago" in the reader's language. */
export const formatRelativeSeconds = (seconds: number, locale?: string): string => {
  const rtf = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
  const abs = Math.abs(seconds);
  if (abs < 60) {
    return rtf.format(Math.round(seconds), 'second');
  }
  if (abs < 3600) {
    return rtf.format(Math.round(seconds / 60), 'minute');
  }
  if (abs < 86_400) {
    return rtf.format(Math.round(seconds / 3600), 'hour');
  }
  return rtf.format(Math.round(seconds / 86_400), 'day');
};

/** Seconds as a duration for waiting messages: 75 → "1 min 15 s" (Intl units). */
export const formatDuration = (seconds: number, locale?: string): string => {
  const s = Math.max(0, Math.ceil(seconds));
  const unit = (value: number, name: 'hour' | 'minute' | 'second') =>
    new Intl.NumberFormat(locale, { style: 'unit', unit: name, unitDisplay: 'short' }).format(value);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const rest = s % 60;
  const parts = [h > 0 ? unit(h, 'hour') : '', m > 0 ? unit(m, 'minute') : '', rest > 0 || s === 0 ? unit(rest, 'second') : ''];
  return parts.filter(Boolean).join(' ');
};
