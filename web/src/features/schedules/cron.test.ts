import { describe, expect, it } from 'vitest';
import { checkCron, cronFieldProblem, cronString, describeCron, isCronValid, parseCronString, parseTime, presetFields, presetOf, zonesDiffer } from '@/features/schedules/cron';

const fields = (expression: string) => parseCronString(expression);

describe('cronFieldProblem', () => {
  it.each([
    ['minute', '*/5'],
    ['minute', '0'],
    ['minute', '59'],
    ['hour', '1-23/5'],
    ['day_of_month', '1,15'],
    ['month', '12'],
    ['day_of_week', '7'],
    ['day_of_week', '1-5'],
    ['minute', ' 5 '],
  ] as const)('should accept %s = %s, as the panel does', (field, value) => {
    expect(cronFieldProblem(field, value)).toBeNull();
  });

  it.each([
    ['minute', '', 'required'],
    ['minute', '   ', 'required'],
    ['minute', '1'.repeat(192), 'tooLong'],
    // What the panel refuses although cron-parser reads it: names, L, #, ?, H.
    ['day_of_week', 'mon', 'form'],
    ['month', 'jan', 'form'],
    ['day_of_month', 'L', 'form'],
    ['day_of_week', '5#3', 'form'],
    ['day_of_month', '?', 'form'],
    // Out of range, reversed, a zero step, an empty list item.
    ['minute', '60', 'form'],
    ['hour', '24', 'form'],
    ['day_of_month', '0', 'form'],
    ['month', '13', 'form'],
    ['day_of_week', '8', 'form'],
    ['minute', '5-1', 'form'],
    ['minute', '*/0', 'form'],
    ['minute', '1,,2', 'form'],
  ] as const)('should refuse %s = %j as %s', (field, value, problem) => {
    expect(cronFieldProblem(field, value)).toBe(problem);
  });
});

describe('checkCron', () => {
  const after = new Date('2026-03-10T10:17:00Z');

  it('should give the next five runs in UTC, strictly after the given time', () => {
    const check = checkCron(fields('0 4 * * *'), after);
    expect(isCronValid(check)).toBe(true);
    expect(check.next.map((d) => d.toISOString())).toEqual([
      '2026-03-11T04:00:00.000Z',
      '2026-03-12T04:00:00.000Z',
      '2026-03-13T04:00:00.000Z',
      '2026-03-14T04:00:00.000Z',
      '2026-03-15T04:00:00.000Z',
    ]);
  });

  it('should run a day that matches either day field when both are restricted (as the panel does)', () => {
    // 13th of the month or a Friday: 2026-03-13 is a Friday, then Friday the 20th, the 27th, 10 April the Friday, 13 April.
    const next = checkCron(fields('0 0 13 * 5'), after).next.map((d) => d.toISOString().slice(0, 10));
    expect(next).toEqual(['2026-03-13', '2026-03-20', '2026-03-27', '2026-04-03', '2026-04-10']);
  });

  it('should read 7 as Sunday', () => {
    expect(checkCron(fields('0 0 * * 7'), after).next[0].getUTCDay()).toBe(0);
  });

  it('should name every refused field and give no runs', () => {
    const check = checkCron(fields('60 * * jan mon'), after);
    expect(check.fields).toEqual({ minute: 'form', month: 'form', day_of_week: 'form' });
    expect(check.next).toEqual([]);
    expect(isCronValid(check)).toBe(false);
  });

  it('should refuse good fields that never name a date (30 February), as the panel does', () => {
    const check = checkCron(fields('0 0 30 2 *'), after);
    expect(check).toEqual({ fields: {}, never: true, next: [] });
    expect(isCronValid(check)).toBe(false);
    expect(isCronValid(checkCron(fields('0 0 29 2 *'), after))).toBe(true);
  });

  it('should count missing fields as empty', () => {
    expect(checkCron(fields('0 4'), after).fields).toEqual({ day_of_month: 'required', month: 'required', day_of_week: 'required' });
  });
});

describe('presets', () => {
  it.each([
    [{ kind: 'hourly', minute: 15 } as const, '15 * * * *'],
    [{ kind: 'daily', hour: 4, minute: 30 } as const, '30 4 * * *'],
    [{ kind: 'weekly', day: 1, hour: 23, minute: 0 } as const, '0 23 * * 1'],
  ])('should turn %j into %s and back', (preset, expression) => {
    expect(cronString(presetFields(preset))).toBe(expression);
    expect(presetOf(fields(expression))).toEqual(preset);
  });

  it.each(['*/5 * * * *', '0 4 1 * *', '0 4 * 6 *', '0 1-5 * * *', '0 4 * * 1-5', '0 * * * 1', '60 4 * * *'])('should read %s as custom', (expression) => {
    expect(presetOf(fields(expression))).toEqual({ kind: 'custom' });
  });

  it('should read a weekly Sunday written 7 as day 0', () => {
    expect(presetOf(fields('0 4 * * 7'))).toEqual({ kind: 'weekly', day: 0, hour: 4, minute: 0 });
  });
});

describe('describeCron', () => {
  it.each([
    ['*/5 * * * *', 'Every 5 minutes'],
    ['30 4 * * *', 'At 04:30'],
    ['0 23 * * 1', 'At 23:00, only on Monday'],
    ['0 4 * * 7', 'At 04:00, only on Sunday'],
  ])('should say %s in words', (expression, words) => {
    expect(describeCron(fields(expression))).toBe(words);
  });

  it('should give null for what it cannot read', () => {
    expect(describeCron(fields('x y z'))).toBeNull();
  });
});

describe('parseTime', () => {
  it.each([
    ['04:30', { hour: 4, minute: 30 }],
    ['4:05', { hour: 4, minute: 5 }],
    ['23:59', { hour: 23, minute: 59 }],
    ['24:00', null],
    ['12:60', null],
    ['noon', null],
    ['', null],
  ])('should read %j', (value, expected) => {
    expect(parseTime(value)).toEqual(expected);
  });
});

describe('zonesDiffer', () => {
  it('should tell zones apart by the wall clock at that moment', () => {
    expect(zonesDiffer('UTC', 'Etc/UTC', new Date('2026-07-01T12:00:00Z'))).toBe(false);
    expect(zonesDiffer('UTC', 'Europe/London', new Date('2026-01-15T12:00:00Z'))).toBe(false);
    expect(zonesDiffer('UTC', 'Europe/London', new Date('2026-07-01T12:00:00Z'))).toBe(true);
    expect(zonesDiffer('UTC', 'Asia/Kolkata', new Date('2026-01-15T12:00:00Z'))).toBe(true);
  });
});
