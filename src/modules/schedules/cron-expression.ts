import { CronExpressionParser } from 'cron-parser';

/** The five fields of a schedule's cron, in expression order. */
export const CRON_FIELDS = ['minute', 'hour', 'day_of_month', 'month', 'day_of_week'] as const;
export type CronField = (typeof CRON_FIELDS)[number];
export type CronFields = Record<CronField, string>;

/** What each field may hold; day_of_week takes 0-7, 0 and 7 both being Sunday (as cron-parser reads it). */
const CRON_FIELD_RANGES: Record<CronField, { min: number; max: number }> = {
  minute: { min: 0, max: 59 },
  hour: { min: 0, max: 23 },
  day_of_month: { min: 1, max: 31 },
  month: { min: 1, max: 12 },
  day_of_week: { min: 0, max: 7 },
};

const CRON_FIELD_MAX_LENGTH = 191;

/**
 * Each field is a number, a list, a range, a step or `*` (docs/api.md#schedules): digits and
 * `* , - /` only. cron-parser also reads names (`mon`, `jan`), `L`, `#`, `H` and `?`; those are
 * refused here so that every panel shows and runs the same thing.
 */
const ALLOWED_CHARACTERS = /^[0-9*,/-]+$/;

const allowedForms = (field: CronField): string => {
  const { min, max } = CRON_FIELD_RANGES[field];
  return `${field} must be *, a number from ${min} to ${max}, a list (1,2), a range (1-5) or a step (*/5, 1-30/5)`;
};

/** The expression with `value` in `field` and `*` everywhere else, so a parse error belongs to that field. */
const isolated = (field: CronField, value: string): string => CRON_FIELDS.map((f) => (f === field ? value : '*')).join(' ');

const parse = (expression: string, after: Date) => CronExpressionParser.parse(expression, { currentDate: after, tz: 'UTC' });

/** The message for a field cron-parser or the grammar refuses, or null when the field is good. */
export const cronFieldError = (field: CronField, raw: unknown): string | null => {
  if (raw === undefined || raw === null) {
    return `${field} is required`;
  }
  if (typeof raw !== 'string') {
    return `${field} must be a string`;
  }
  const value = raw.trim();
  if (value.length === 0) {
    return `${field} must not be empty`;
  }
  if (value.length > CRON_FIELD_MAX_LENGTH) {
    return `${field} must be at most ${CRON_FIELD_MAX_LENGTH} characters`;
  }
  if (!ALLOWED_CHARACTERS.test(value)) {
    return `${allowedForms(field)}; got "${value}"`;
  }
  try {
    parse(isolated(field, value), new Date(0));
  } catch (e) {
    return `${allowedForms(field)}; got "${value}" (${(e as Error).message})`;
  }
  return null;
};

/** The five-field string the API shows. */
export const cronString = (fields: CronFields): string => CRON_FIELDS.map((f) => fields[f].trim()).join(' ');

export class CronNeverMatchesError extends Error {}

/**
 * The first time strictly after `after` that the expression matches, in UTC. When both
 * day_of_month and day_of_week are restricted a day matching either runs (Vixie cron, as
 * cron-parser and Pterodactyl's cron library read it). Throws CronNeverMatchesError for an
 * expression that names no real date (30 February).
 */
export const nextRunAfter = (fields: CronFields, after: Date): Date => {
  try {
    return parse(cronString(fields), after).next().toDate();
  } catch (e) {
    throw new CronNeverMatchesError(`The expression "${cronString(fields)}" never matches a date (${(e as Error).message})`);
  }
};

/** Each field checked on its own, then the whole: field → message, empty when the expression is good. */
export const validateCron = (fields: Partial<Record<CronField, unknown>>): { field: CronField | 'cron'; message: string }[] => {
  const errors = CRON_FIELDS.flatMap((field) => {
    const message = cronFieldError(field, fields[field]);
    return message === null ? [] : [{ field, message }];
  });
  if (errors.length > 0) {
    return errors;
  }
  try {
    nextRunAfter(fields as CronFields, new Date(0));
  } catch (e) {
    return [{ field: 'cron', message: (e as Error).message }];
  }
  return [];
};
