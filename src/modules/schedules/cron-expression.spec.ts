import { CronFields, CronNeverMatchesError, cronFieldError, cronString, nextRunAfter, validateCron } from 'src/modules/schedules/cron-expression';

const fields = (expression: string): CronFields => {
  const [minute, hour, day_of_month, month, day_of_week] = expression.split(' ');
  return { minute, hour, day_of_month, month, day_of_week };
};

// A Wednesday.
const WED = '2025-01-15T10:07:30.000Z';

const next = (expression: string, after: string): string => nextRunAfter(fields(expression), new Date(after)).toISOString();

describe('nextRunAfter', () => {
  it('should start from a Wednesday', () => {
    expect(new Date(WED).getUTCDay()).toBe(3);
  });

  it.each([
    // minutes and hours
    ['* * * * *', WED, '2025-01-15T10:08:00.000Z'],
    ['*/5 * * * *', WED, '2025-01-15T10:10:00.000Z'],
    ['*/15 * * * *', WED, '2025-01-15T10:15:00.000Z'],
    ['1-30/5 * * * *', WED, '2025-01-15T10:11:00.000Z'],
    ['5/10 * * * *', WED, '2025-01-15T10:15:00.000Z'],
    ['0 * * * *', WED, '2025-01-15T11:00:00.000Z'],
    ['05 * * * *', WED, '2025-01-15T11:05:00.000Z'],
    ['*/60 * * * *', WED, '2025-01-15T11:00:00.000Z'],
    ['0,30 * * * *', WED, '2025-01-15T10:30:00.000Z'],
    ['15,45 9-17 * * *', WED, '2025-01-15T10:15:00.000Z'],
    ['0 9-17/2 * * *', WED, '2025-01-15T11:00:00.000Z'],
    ['0 */6 * * *', WED, '2025-01-15T12:00:00.000Z'],
    ['8 10 * * *', WED, '2025-01-15T10:08:00.000Z'],
    // 10:07 today has passed by 30 seconds: tomorrow
    ['7 10 * * *', WED, '2025-01-16T10:07:00.000Z'],
    ['0 0 * * *', WED, '2025-01-16T00:00:00.000Z'],
    ['30 23 * * *', WED, '2025-01-15T23:30:00.000Z'],
    // strictly after: a time that matches exactly is not its own next run
    ['*/5 * * * *', '2025-01-15T10:10:00.000Z', '2025-01-15T10:15:00.000Z'],
    ['*/5 * * * *', '2025-01-15T10:09:59.999Z', '2025-01-15T10:10:00.000Z'],
    // day of week: 0 and 7 are Sunday, ranges and lists
    ['0 12 * * 1-5', WED, '2025-01-15T12:00:00.000Z'],
    ['0 12 * * 0', WED, '2025-01-19T12:00:00.000Z'],
    ['0 12 * * 7', WED, '2025-01-19T12:00:00.000Z'],
    ['0 12 * * 6,7', WED, '2025-01-18T12:00:00.000Z'],
    ['0 0 * * 5-7', WED, '2025-01-17T00:00:00.000Z'],
    ['0 0 * * 0-7', WED, '2025-01-16T00:00:00.000Z'],
    ['0 0 * * 1', WED, '2025-01-20T00:00:00.000Z'],
    ['0 0 * * 1-5', '2025-01-17T12:00:00.000Z', '2025-01-20T00:00:00.000Z'],
    // day of month and month ends
    ['0 0 1 * *', WED, '2025-02-01T00:00:00.000Z'],
    ['0 0 31 * *', WED, '2025-01-31T00:00:00.000Z'],
    ['0 0 31 * *', '2025-02-01T00:00:00.000Z', '2025-03-31T00:00:00.000Z'],
    ['0 0 30 * *', '2025-02-01T00:00:00.000Z', '2025-03-30T00:00:00.000Z'],
    ['0 0 31 * *', '2025-04-01T00:00:00.000Z', '2025-05-31T00:00:00.000Z'],
    ['0 0 28-31 2 *', WED, '2025-02-28T00:00:00.000Z'],
    ['0 0 29 2 *', WED, '2028-02-29T00:00:00.000Z'],
    ['0 0 29 2 *', '2028-02-29T00:00:00.000Z', '2032-02-29T00:00:00.000Z'],
    ['0 0 * 2 *', WED, '2025-02-01T00:00:00.000Z'],
    ['0 0 * */3 *', WED, '2025-01-16T00:00:00.000Z'],
    ['0 0 1 */3 *', WED, '2025-04-01T00:00:00.000Z'],
    ['0 0 * 12 *', WED, '2025-12-01T00:00:00.000Z'],
    ['0 0 1 1 *', WED, '2026-01-01T00:00:00.000Z'],
    ['59 23 31 12 *', WED, '2025-12-31T23:59:00.000Z'],
    ['*/15 * * * *', '2025-12-31T23:50:00.000Z', '2026-01-01T00:00:00.000Z'],
    // both day fields restricted: a day matching either runs (Vixie cron)
    ['0 0 13 * 5', WED, '2025-01-17T00:00:00.000Z'],
    ['0 0 1 * 1', WED, '2025-01-20T00:00:00.000Z'],
    ['0 0 1-7 * 1', WED, '2025-01-20T00:00:00.000Z'],
    ['0 0 31 2 1', WED, '2025-02-03T00:00:00.000Z'],
    ['0 0 20 * 1', WED, '2025-01-20T00:00:00.000Z'],
    // UTC knows no daylight saving: the US spring-forward and EU fall-back nights are ordinary
    ['30 2 * * *', '2025-03-09T00:00:00.000Z', '2025-03-09T02:30:00.000Z'],
    ['30 1 * * *', '2025-10-26T00:00:00.000Z', '2025-10-26T01:30:00.000Z'],
    ['30 1 * * *', '2025-10-26T01:30:00.000Z', '2025-10-27T01:30:00.000Z'],
  ])('%s after %s should be %s', (expression, after, expected) => {
    expect(next(expression, after)).toBe(expected);
  });

  it('should run an hourly expression 24 times across a daylight-saving night, an hour apart', () => {
    for (const day of ['2025-03-30', '2025-10-26', '2025-03-09', '2025-11-02']) {
      const runs: Date[] = [];
      let at = new Date(`${day}T00:00:00.000Z`);
      for (let i = 0; i < 24; i++) {
        at = nextRunAfter(fields('0 * * * *'), at);
        runs.push(at);
      }
      expect(runs.map((r) => r.getTime() - runs[0].getTime())).toEqual(Array.from({ length: 24 }, (_, i) => i * 3_600_000));
      expect(runs[0].toISOString()).toBe(`${day}T01:00:00.000Z`);
    }
  });

  it('should throw CronNeverMatchesError for a date that does not exist', () => {
    expect(() => next('0 0 30 2 *', WED)).toThrow(CronNeverMatchesError);
    expect(() => next('0 0 31 4 *', WED)).toThrow(/never matches a date/);
  });
});

describe('cronFieldError', () => {
  it.each([
    ['minute', '*'],
    ['minute', '0'],
    ['minute', '59'],
    ['minute', '*/5'],
    ['minute', '1-30/5'],
    ['minute', '0,15,30,45'],
    ['minute', '1,2-4,*/7'],
    ['hour', '23'],
    ['hour', '0-23/2'],
    ['day_of_month', '1'],
    ['day_of_month', '31'],
    ['day_of_month', '1-15,20'],
    ['month', '1'],
    ['month', '12'],
    ['month', '*/3'],
    ['day_of_week', '0'],
    ['day_of_week', '7'],
    ['day_of_week', '1-5'],
    ['day_of_week', '0-7'],
    ['minute', ' 5 '],
  ] as const)('should accept %s %j', (field, value) => {
    expect(cronFieldError(field, value)).toBeNull();
  });

  it.each([
    ['minute', '60', /^minute must be \*, a number from 0 to 59, .*; got "60"/],
    ['minute', '-1', /^minute must be .*got "-1"/],
    ['minute', '*/0', /^minute must be .*cannot repeat at every 0 time/],
    ['minute', '5-1', /^minute must be .*Invalid range: 5-1/],
    ['minute', '1,,2', /^minute must be .*got "1,,2"/],
    ['minute', '1-60', /^minute must be .*got "1-60"/],
    ['minute', '*/5/2', /^minute must be .*got "\*\/5\/2"/],
    ['minute', 'a', /^minute must be .*got "a"$/],
    ['minute', '1.5', /^minute must be .*got "1.5"$/],
    ['minute', '1 2', /^minute must be .*got "1 2"$/],
    ['minute', 'H', /^minute must be .*got "H"$/],
    ['minute', '', /^minute must not be empty$/],
    ['minute', '   ', /^minute must not be empty$/],
    ['minute', undefined, /^minute is required$/],
    ['minute', 5, /^minute must be a string$/],
    ['minute', '1,'.repeat(96), /^minute must be at most 191 characters$/],
    ['hour', '24', /^hour must be \*, a number from 0 to 23, .*expected range 0-23/],
    ['hour', '*/x', /^hour must be .*got "\*\/x"$/],
    ['day_of_month', '0', /^day_of_month must be \*, a number from 1 to 31, .*expected range 1-31/],
    ['day_of_month', '32', /^day_of_month must be .*got "32"/],
    ['day_of_month', 'L', /^day_of_month must be .*got "L"$/],
    ['day_of_month', '?', /^day_of_month must be .*got "\?"$/],
    ['month', '0', /^month must be \*, a number from 1 to 12, .*expected range 1-12/],
    ['month', '13', /^month must be .*got "13"/],
    ['month', 'jan', /^month must be .*got "jan"$/],
    ['day_of_week', '8', /^day_of_week must be \*, a number from 0 to 7, .*expected range 0-7/],
    ['day_of_week', 'mon', /^day_of_week must be .*got "mon"$/],
    ['day_of_week', '1#2', /^day_of_week must be .*got "1#2"$/],
    ['day_of_week', '7-0', /^day_of_week must be .*Invalid range: 7-0/],
  ] as const)('should refuse %s %j', (field, value, message) => {
    expect(cronFieldError(field, value)).toMatch(message);
  });
});

describe('validateCron', () => {
  it('should report every bad field by name', () => {
    expect(validateCron({ minute: '60', hour: '*', day_of_month: '0', month: '*', day_of_week: 'mon' }).map((e) => e.field)).toEqual([
      'minute',
      'day_of_month',
      'day_of_week',
    ]);
  });

  it('should report an expression of good fields that never matches on the whole cron', () => {
    expect(validateCron(fields('0 0 30 2 *'))).toEqual([{ field: 'cron', message: expect.stringMatching(/^The expression "0 0 30 2 \*" never matches a date/) }]);
    expect(validateCron(fields('0 0 31 2,4,6,9,11 *'))).toEqual([{ field: 'cron', message: expect.any(String) }]);
  });

  it('should accept 29 February, which comes every four years, and 31 February when a weekday is given too', () => {
    expect(validateCron(fields('0 0 29 2 *'))).toEqual([]);
    expect(validateCron(fields('0 0 31 2 1'))).toEqual([]);
  });
});

describe('cronString', () => {
  it('should join the five fields in order, trimmed', () => {
    expect(cronString({ minute: ' */5', hour: '1-3 ', day_of_month: '*', month: '2', day_of_week: '0,6' })).toBe('*/5 1-3 * 2 0,6');
  });
});
