import { CronExpressionParser } from 'cron-parser';
import cronstrue from 'cronstrue';

/**
 * A schedule's cron as the panel reads it (src/modules/schedules/cron-expression.ts): five fields,
 * each digits and `* , - /` only, evaluated in UTC by the same cron-parser. What this module refuses
 * is what the panel refuses, so the form can say so before it is sent.
 */

export const CRON_FIELDS = ['minute', 'hour', 'day_of_month', 'month', 'day_of_week'] as const;
export type CronField = (typeof CRON_FIELDS)[number];
export type CronFields = Record<CronField, string>;

/** The zone the panel evaluates every cron in. */
export const PANEL_TIME_ZONE = 'UTC';

export const CRON_FIELD_RANGES: Record<CronField, { min: number; max: number }> = {
  minute: { min: 0, max: 59 },
  hour: { min: 0, max: 23 },
  day_of_month: { min: 1, max: 31 },
  month: { min: 1, max: 12 },
  day_of_week: { min: 0, max: 7 },
};

const MAX_LENGTH = 191;
const ALLOWED_CHARACTERS = /^[0-9*,/-]+$/;

/** Why a field is refused: `required` (empty), `tooLong`, or `form` (not a number, list, range, step or `*` in range). */
type CronFieldProblem = 'required' | 'tooLong' | 'form';

const parse = (expression: string, after: Date) => CronExpressionParser.parse(expression, { currentDate: after, tz: PANEL_TIME_ZONE });

export const cronFieldProblem = (field: CronField, raw: string): CronFieldProblem | null => {
  const value = raw.trim();
  if (value.length === 0) {
    return 'required';
  }
  if (value.length > MAX_LENGTH) {
    return 'tooLong';
  }
  if (!ALLOWED_CHARACTERS.test(value)) {
    return 'form';
  }
  try {
    parse(CRON_FIELDS.map((f) => (f === field ? value : '*')).join(' '), new Date(0));
  } catch {
    return 'form';
  }
  return null;
};

export const cronString = (fields: CronFields): string => CRON_FIELDS.map((f) => fields[f].trim()).join(' ');

/** The API's `cron` string back into its fields (extra spaces forgiven). */
export const parseCronString = (cron: string): CronFields => {
  const parts = cron.trim().split(/\s+/);
  return Object.fromEntries(CRON_FIELDS.map((f, i) => [f, parts[i] ?? ''])) as CronFields;
};

interface CronCheck {
  /** The problem of each field refused on its own. */
  fields: Partial<Record<CronField, CronFieldProblem>>;
  /** Every field is good but no date matches (30 February). */
  never: boolean;
  /** The next runs, when the expression is good. */
  next: Date[];
}

/** Each field on its own, then the whole, and the next `count` runs after `after` when it is good. */
export const checkCron = (fields: CronFields, after: Date, count = 5): CronCheck => {
  const problems: Partial<Record<CronField, CronFieldProblem>> = {};
  for (const field of CRON_FIELDS) {
    const problem = cronFieldProblem(field, fields[field]);
    if (problem) {
      problems[field] = problem;
    }
  }
  if (Object.keys(problems).length > 0) {
    return { fields: problems, never: false, next: [] };
  }
  try {
    return { fields: {}, never: false, next: parse(cronString(fields), after).take(count).map((d) => d.toDate()) };
  } catch {
    return { fields: {}, never: true, next: [] };
  }
};

export const isCronValid = (check: CronCheck): boolean => Object.keys(check.fields).length === 0 && !check.never;

/** The expression in English words, times being those of the panel's zone; null when cronstrue cannot read it. */
export const describeCron = (fields: CronFields): string | null => {
  try {
    return cronstrue.toString(cronString(fields), { use24HourTimeFormat: true, verbose: false, throwExceptionOnParseError: true });
  } catch {
    return null;
  }
};

/** The shapes the form offers before the five fields; times are hours and minutes in the panel's zone. */
export type CronPreset =
  | { kind: 'hourly'; minute: number }
  | { kind: 'daily'; hour: number; minute: number }
  | { kind: 'weekly'; day: number; hour: number; minute: number }
  | { kind: 'custom' };
export type CronPresetKind = CronPreset['kind'];

export const presetFields = (preset: Exclude<CronPreset, { kind: 'custom' }>): CronFields => {
  switch (preset.kind) {
    case 'hourly':
      return { minute: String(preset.minute), hour: '*', day_of_month: '*', month: '*', day_of_week: '*' };
    case 'daily':
      return { minute: String(preset.minute), hour: String(preset.hour), day_of_month: '*', month: '*', day_of_week: '*' };
    case 'weekly':
      return { minute: String(preset.minute), hour: String(preset.hour), day_of_month: '*', month: '*', day_of_week: String(preset.day) };
  }
};

const INTEGER = /^\d{1,2}$/;

/** The preset an expression is, so editing a schedule opens on it; anything else is `custom`. */
export const presetOf = (fields: CronFields): CronPreset => {
  const f = Object.fromEntries(CRON_FIELDS.map((k) => [k, fields[k].trim()])) as CronFields;
  const num = (v: string, field: CronField): number | null => {
    if (!INTEGER.test(v)) {
      return null;
    }
    const n = Number(v);
    return n >= CRON_FIELD_RANGES[field].min && n <= CRON_FIELD_RANGES[field].max ? n : null;
  };
  const minute = num(f.minute, 'minute');
  if (minute === null || f.day_of_month !== '*' || f.month !== '*') {
    return { kind: 'custom' };
  }
  if (f.hour === '*') {
    return f.day_of_week === '*' ? { kind: 'hourly', minute } : { kind: 'custom' };
  }
  const hour = num(f.hour, 'hour');
  if (hour === null) {
    return { kind: 'custom' };
  }
  if (f.day_of_week === '*') {
    return { kind: 'daily', hour, minute };
  }
  const day = num(f.day_of_week, 'day_of_week');
  // 7 is Sunday too; the preset names it 0.
  return day === null ? { kind: 'custom' } : { kind: 'weekly', day: day % 7, hour, minute };
};

/** "HH:MM" → hour and minute, or null. */
export const parseTime = (value: string): { hour: number; minute: number } | null => {
  const m = /^(\d{1,2}):(\d{2})$/.exec(value.trim());
  if (!m) {
    return null;
  }
  const hour = Number(m[1]);
  const minute = Number(m[2]);
  return hour <= 23 && minute <= 59 ? { hour, minute } : null;
};

export const formatTime = (hour: number, minute: number): string => `${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}`;

/** The viewer's zone from the browser. */
export const viewerTimeZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone || PANEL_TIME_ZONE;

/** Whether two zones show a different wall-clock time at `at` (Europe/London is UTC in winter, not in summer). */
export const zonesDiffer = (a: string, b: string, at: Date): boolean => {
  const wall = (timeZone: string) => new Intl.DateTimeFormat('en', { timeZone, year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric' }).format(at);
  return wall(a) !== wall(b);
};
