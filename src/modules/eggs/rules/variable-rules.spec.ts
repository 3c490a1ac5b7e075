/*
 * Rules used by the stock Pterodactyl fixture eggs (EGG_FIXTURES_DIR: 14 eggs, 71 variables), all supported:
 *   required, nullable, string, integer, numeric, boolean, between, max, size, digits_between, in, regex,
 *   alpha_dash, alpha_num, url
 * Fixture defaults that Laravel rejects: the six `required` variables whose default is '' (see the fixture test).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseRules, RuleParseError, validateValue } from 'src/modules/eggs/rules/variable-rules';
import { MESSAGE_CASES, PATTERN_ERROR_CASES, RULE_ERROR_CASES, VALUE_CASES } from 'test/fixtures/egg-rule-cases';
import { EGG_FIXTURES_DIR, eggFixtureFiles } from 'test/utils/fixtures';

/** [] (with the reason printed) when the shared folder is missing outside CI; the fixture tests are then skipped. */
const fixtureFiles = eggFixtureFiles();

interface FixtureVariable {
  file: string;
  env: string;
  rules: string;
  defaultValue: string;
}

const fixtureVariables = (): FixtureVariable[] =>
  fixtureFiles.flatMap((file) => {
    const egg = JSON.parse(readFileSync(join(EGG_FIXTURES_DIR, file), 'utf8'));
    return (egg.variables as Record<string, unknown>[]).map((v) => ({
      file,
      env: v.env_variable as string,
      rules: v.rules as string,
      defaultValue: v.default_value === null || v.default_value === undefined ? '' : String(v.default_value as string),
    }));
  });

const check = (rules: string, value: string | null | undefined, attribute = 'VAR'): string[] => validateValue(parseRules(rules), value, attribute);

const parseError = (rules: string): string => {
  try {
    parseRules(rules);
  } catch (e) {
    if (e instanceof RuleParseError) {
      return e.message;
    }
    throw e;
  }
  throw new Error(`parseRules(${JSON.stringify(rules)}) did not throw`);
};

// The value, message and refusal tables are shared with the web UI's test of the same rules (test/fixtures/egg-rule-cases.ts).
describe('variable rules', () => {
  (fixtureFiles.length > 0 ? describe : describe.skip)('fixture eggs', () => {
    it('should find the 14 PTDL fixture eggs when resolving the shared fixture folder', () => {
      expect(fixtureFiles).toHaveLength(14);
    });

    it('should parse every rules string when reading the fixture eggs', () => {
      const names = new Set<string>();
      for (const v of fixtureVariables()) {
        for (const rule of parseRules(v.rules)) {
          names.add(rule.name);
        }
      }
      expect([...names].sort()).toEqual(
        ['alpha_dash', 'alpha_num', 'between', 'boolean', 'digits_between', 'in', 'integer', 'max', 'nullable', 'numeric', 'regex', 'required', 'size', 'string', 'url'].sort(),
      );
    });

    it('should accept each default value except the empty required ones when validating fixture defaults', () => {
      const rejected = fixtureVariables()
        .map((v) => ({ file: v.file, env: v.env, messages: check(v.rules, v.defaultValue, v.env) }))
        .filter((r) => r.messages.length > 0);
      // Laravel rejects these too: the egg leaves a required value for the admin to fill in when creating the server.
      expect(rejected).toEqual([
        { file: 'egg-counter--strike--global-offensive.json', env: 'STEAM_ACC', messages: ['The STEAM_ACC field is required.'] },
        { file: 'egg-custom-source-engine-game.json', env: 'SRCDS_APPID', messages: ['The SRCDS_APPID field is required.'] },
        { file: 'egg-custom-source-engine-game.json', env: 'SRCDS_GAME', messages: ['The SRCDS_GAME field is required.'] },
        { file: 'egg-custom-source-engine-game.json', env: 'SRCDS_MAP', messages: ['The SRCDS_MAP field is required.'] },
        { file: 'egg-rust.json', env: 'RCON_PASS', messages: ['The RCON_PASS field is required.'] },
        { file: 'egg-team-fortress2.json', env: 'STEAM_ACC', messages: ['The STEAM_ACC field is required.'] },
      ]);
    });
  });

  describe('validateValue', () => {
    const rows = VALUE_CASES.map(([rules, value, valid]) => ({
      rules,
      raw: value,
      valid,
      // JSON keeps newlines and backslashes visible in the test names.
      title: `should ${valid ? 'accept' : 'reject'} ${JSON.stringify(value) ?? 'undefined'} when the rules are ${JSON.stringify(rules)}`,
    }));
    it.each(rows)(
      '$title',
      ({ rules, raw, valid }) => {
        const messages = check(rules, raw);
        expect(messages.length === 0).toBe(valid);
      },
    );

    it('should cover every supported rule when running the table', () => {
      const used = new Set(VALUE_CASES.flatMap(([rules]) => parseRules(rules).map((r) => r.name)));
      const all = [
        ...['bail', 'nullable', 'sometimes', 'required', 'present', 'filled', 'string', 'integer', 'numeric', 'boolean', 'decimal'],
        ...['between', 'min', 'max', 'size', 'gt', 'gte', 'lt', 'lte', 'digits', 'digits_between', 'in', 'not_in', 'regex', 'not_regex'],
        ...['alpha', 'alpha_num', 'alpha_dash', 'ascii', 'lowercase', 'uppercase', 'starts_with', 'ends_with', 'doesnt_start_with'],
        ...['doesnt_end_with', 'url', 'email', 'ip', 'ipv4', 'ipv6', 'uuid', 'json'],
      ];
      expect(all.filter((n) => n !== 'bail' && !used.has(n))).toEqual([]);
    });

    // Under backtracking (PCRE, V8) each added character doubles the work: 4,096 of them would take longer than the
    // universe's age, so the test's ordinary timeout is the assertion that the engine does not backtrack.
    it.each([
      ['regex:/^(a+)+$/', 'a'.repeat(4095) + 'b', false],
      ['regex:/^(a+)+$/', 'a'.repeat(4096), true],
      ['not_regex:/^(a|aa)*$/', 'a'.repeat(4095) + '!', true],
      ['regex:/^(\\w+\\s?)*$/', 'word '.repeat(819) + '!', false],
    ])('should answer %j on a 4,096-character value when the pattern is catastrophic for backtracking', (rules, value, valid) => {
      expect(value).toHaveLength(4096);
      expect(check(rules, value).length === 0).toBe(valid);
    });

    it('should throw RuleParseError when handed a rule that parseRules would refuse', () => {
      expect(() => validateValue([{ name: 'foo', args: [] }], 'x', 'X')).toThrow(new RuleParseError('unknown rule "foo"'));
      expect(() => validateValue([{ name: 'max', args: [] }], 'x', 'X')).toThrow(new RuleParseError('max needs 1 numeric argument'));
    });
  });

  describe('messages', () => {
    it.each(MESSAGE_CASES)('should word %j on %j like Laravel when the attribute is %j', (rules, value, attribute, messages) => {
      expect(check(rules, value, attribute)).toEqual(messages);
    });
  });

  describe('parseRules', () => {
    it('should return no rules when the string is empty', () => {
      expect(parseRules('')).toEqual([]);
    });

    it('should split names and arguments when the rules have arguments', () => {
      expect(parseRules('required|integer|between:1,65535')).toEqual([
        { name: 'required', args: [] },
        { name: 'integer', args: [] },
        { name: 'between', args: ['1', '65535'] },
      ]);
    });

    it('should keep a regex whole when its pattern contains a pipe', () => {
      expect(parseRules('required|regex:/^(a|b)$/i|max:3')).toEqual([
        { name: 'required', args: [] },
        { name: 'regex', args: ['/^(a|b)$/i'] },
        { name: 'max', args: ['3'] },
      ]);
      expect(parseRules('not_regex:#a|b# |nullable')).toEqual([
        { name: 'not_regex', args: ['#a|b#'] },
        { name: 'nullable', args: [] },
      ]);
    });

    it('should normalise names and skip empty segments when the spelling varies', () => {
      expect(parseRules('Required||INT|alpha-dash|bool|')).toEqual([
        { name: 'required', args: [] },
        { name: 'integer', args: [] },
        { name: 'alpha_dash', args: [] },
        { name: 'boolean', args: [] },
      ]);
    });

    it('should let arguments to flag rules through when an egg writes them', () => {
      expect(parseRules('nullable:string')).toEqual([{ name: 'nullable', args: ['string'] }]);
    });

    it.each(RULE_ERROR_CASES)('should refuse %j when a rule or its arguments are wrong', (rules, message) => {
      expect(parseError(rules)).toBe(message);
    });

    it.each(PATTERN_ERROR_CASES)('should refuse %j when RE2 cannot run the pattern', (rules, message) => {
      expect(parseError(rules)).toBe(message);
    });
  });
});
