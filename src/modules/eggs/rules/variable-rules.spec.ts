/*
 * Rules used by the stock Pterodactyl fixture eggs (EGG_FIXTURES_DIR: 14 eggs, 71 variables), all supported:
 *   required, nullable, string, integer, numeric, boolean, between, max, size, digits_between, in, regex,
 *   alpha_dash, alpha_num, url
 * Fixture defaults that Laravel rejects: the six `required` variables whose default is '' (see the fixture test).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseRules, RuleParseError, validateValue } from 'src/modules/eggs/rules/variable-rules';
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

// [rules, value, valid]
const CASES: [string, string | null | undefined, boolean][] = [
  // required / nullable / empty values
  ['nullable|string|max:3', '', true],
  ['nullable|integer', null, true],
  ['nullable|integer', undefined, true],
  ['required|string', '', false],
  ['required|string', ' \t ', false],
  ['required|string', null, false],
  ['required|string', undefined, false],
  ['string|max:3', '', true],
  ['integer', '   ', true],
  ['nullable|required', '', false],
  ['sometimes|required', undefined, false],
  ['string', 'anything at all', true],
  // integer: FILTER_VALIDATE_INT
  ['integer', '01', false],
  ['integer', '-5', true],
  ['integer', '1.0', false],
  ['integer', ' 5', true],
  ['integer', '5 ', true],
  ['integer', '+0', true],
  ['integer', '1e3', false],
  ['integer', '9223372036854775807', true],
  ['integer', '9223372036854775808', false],
  ['int', '5', true],
  // numeric: is_numeric
  ['numeric', '1e3', true],
  ['numeric', ' .5', true],
  ['numeric', '1.', true],
  ['numeric', '-1.5E-3', true],
  ['numeric', '0x1A', false],
  ['numeric', '1,5', false],
  // boolean: only '1' and '0' among strings
  ['boolean', '1', true],
  ['boolean', '0', true],
  ['boolean', 'true', false],
  ['boolean', 'false', false],
  ['boolean', ' 1', false],
  // between/min/max/size: numbers under integer/numeric, lengths otherwise
  ['integer|between:1,65535', '65535', true],
  ['integer|between:1,65535', '65536', false],
  ['integer|between:1,65535', '0', false],
  ['between:1,6', '100', true],
  ['numeric|between:1,6', '100', false],
  ['string|between:1,6', 'latest', true],
  ['string|between:1,6', 'latest!', false],
  ['min:3', '12', false],
  ['integer|min:3', '12', true],
  ['max:2', '100', false],
  ['numeric|max:100', '100.0', true],
  ['numeric|max:100', '100.0000000000000001', false],
  ['numeric|max:100', '1e2', true],
  ['integer|max:5', 'abc', false],
  ['alpha_num|size:32', 'a'.repeat(32), true],
  ['alpha_num|size:32', 'a'.repeat(31), false],
  ['size:3', 'äöü', true],
  ['integer|size:3', '3', true],
  ['integer|gt:0', '1', true],
  ['integer|gt:0', '0', false],
  ['gt:0', 'abc', false],
  ['nullable|integer|lte:10', '10', true],
  ['integer|gte:5', '5', true],
  ['numeric|lt:1', '1', false],
  // digits / decimal
  ['digits:4', '0123', true],
  ['digits:4', '123', false],
  ['numeric|digits_between:1,5', '100', true],
  ['digits_between:17,18', '1234567890123456', false],
  ['digits_between:1,5', '-12', false],
  ['decimal:2', '1.50', true],
  ['decimal:0,1', '1.25', false],
  // in / not_in: strict comparison, arguments read like str_getcsv
  ['in:true,false', 'true', true],
  ['in:true,false', 'TRUE', false],
  ['in:1,2', '01', false],
  ['in:gta:iii,gta:vc', 'gta:vc', true],
  ['in:"a,b",c', 'a,b', true],
  ['not_in:root,admin', 'root', false],
  ['not_in:root,admin', 'steve', true],
  // regex / not_regex
  ['required|regex:/^([\\w\\d._-]+)(\\.jar)$/', 'server.jar', true],
  ['required|regex:/^([\\w\\d._-]+)(\\.jar)$/', 'server .jar', false],
  ['required|regex:/^([\\w\\d._-]+)(\\.jar)$/', 'server.jar\n', false],
  ['regex:/^(vanilla|oxide|carbon)$/|max:7', 'oxide', true],
  ['regex:/^(vanilla|oxide|carbon)$/|max:5', 'vanilla', false],
  ['regex:/^(a|b)$/i', 'B', true],
  ['regex:/^(a|b)$/', 'B', false],
  ['regex:/^ a b c  # letters\n $/x', 'abc', true],
  ['regex:/^a.c$/s', 'a\nc', true],
  ['regex:/^a.c$/', 'a\nc', false],
  ['regex:/^b$/m', 'a\nb', true],
  ['regex:/^\\w+$/u', 'héllo', true],
  ['regex:/^\\w+$/', 'héllo', false],
  ['regex:#^[a-z]+/[0-9]+$#', 'abc/123', true],
  ['regex:{^\\d{3}$}', '123', true],
  ['nullable|regex:([a-z-0-9]+$)', 'abc-1', true],
  ['regex:/\\Aabc\\z/', 'abc', true],
  ['regex:/^[[:digit:]]{3}$/', '12a', false],
  ['regex:/^[]a]+$/', ']a]', true],
  ['not_regex:/^\\s|\\s$/', ' padded', false],
  ['not_regex:/^\\s|\\s$/', 'ok', true],
  // RE2 reads inline flags anywhere and \pL without u (PCRE does too); the old JS translation refused both
  ['not_regex:/a(?i)b/', 'aB', false],
  ['regex:/^\\pL+$/', 'abc', true],
  ['regex:/^[\\w\\d]+$/u', 'ünï2', true],
  ['regex:/^[[:alpha:]] # a letter\n [^]x]$/x', 'a]', false],
  ['regex:/^[[:alpha:]] # a letter\n [^]x]$/x', 'ay', true],
  ['regex:/^\\Qa.b\\E$/x', 'a.b', true],
  ['regex:/^\\Qa.b\\E$/x', 'axb', false],
  // letters and case
  ['alpha', 'Ünïcode', true],
  ['alpha', 'abc1', false],
  ['alpha:ascii', 'Ünïcode', false],
  ['alpha_num', 'abc123', true],
  ['alpha_num', 'abc-123', false],
  ['alpha_dash', 'de_dust2-x', true],
  ['alpha_dash', 'de dust2', false],
  ['ascii', 'plain text', true],
  ['ascii', 'naïve', false],
  ['lowercase', 'abc-1', true],
  ['uppercase', 'ABc', false],
  ['starts_with:http://,https://', 'https://x', true],
  ['ends_with:.jar,.zip', 'server.tar', false],
  ['doesnt_start_with:-', '-Xmx', false],
  ['doesnt_end_with:/', 'path', true],
  // formats
  ['url', 'http://pterodactyl.io', true],
  ['url', 'https://user:pass@example.com:8443/a/b?c=d#e', true],
  ['url', 'http://[::1]:8080/', true],
  ['url', 'steam://connect/1.2.3.4:27015', true],
  ['url', 'example.com', false],
  ['url', 'javascript://x', false],
  ['url:https', 'http://example.com', false],
  ['email', 'admin@example.com', true],
  ['email', 'admin@', false],
  ['ip', '192.168.1.1', true],
  ['ip', '256.1.1.1', false],
  ['ipv4', '010.1.1.1', false],
  ['ipv4', '::1', false],
  ['ipv6', '::1', true],
  ['ipv6', '::ffff:10.0.0.1', true],
  ['ipv6', '1:2:3:4:5:6:7::8', false],
  ['uuid', '123e4567-e89b-12d3-a456-426614174000', true],
  ['uuid', 'not-a-uuid', false],
  ['uuid:4', '123e4567-e89b-12d3-a456-426614174000', false],
  ['json', '{"a":[1,2]}', true],
  ['json', '{a:1}', false],
  // presence
  ['present', '', true],
  ['present', undefined, false],
  ['filled', undefined, true],
  ['filled', ' ', false],
  // names resolve like PHP methods: any case, _/- ignored
  ['Required|Alpha-Dash', 'ok', true],
];

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
    const rows = CASES.map(([rules, value, valid]) => ({
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
      const used = new Set(CASES.flatMap(([rules]) => parseRules(rules).map((r) => r.name)));
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
    it('should stop at the required message when a required value is empty', () => {
      expect(check('required|regex:/^([\\w\\d._-]+)(\\.jar)$/', '', 'SERVER_JARFILE')).toEqual(['The SERVER_JARFILE field is required.']);
      expect(check('required|string|max:20', '   ', 'SERVER_MAP')).toEqual(['The SERVER_MAP field is required.']);
    });

    it('should use the numeric wording when the rules have integer or numeric', () => {
      expect(check('required|integer|between:1025,65535', '80', 'QUERY_PORT')).toEqual(['The QUERY_PORT field must be between 1025 and 65535.']);
      expect(check('required|integer|max:128', '200', 'MAX_PLAYERS')).toEqual(['The MAX_PLAYERS field must not be greater than 128.']);
      expect(check('numeric|min:1', '0', 'N')).toEqual(['The N field must be at least 1.']);
      expect(check('numeric|size:2', '3', 'N')).toEqual(['The N field must be 2.']);
      expect(check('integer|gt:0', '0', 'N')).toEqual(['The N field must be greater than 0.']);
    });

    it('should use the characters wording when the rules have no numeric rule', () => {
      expect(check('required|string|between:3,15', 'ab', 'VANILLA_VERSION')).toEqual(['The VANILLA_VERSION field must be between 3 and 15 characters.']);
      expect(check('required|string|max:20', 'x'.repeat(21), 'SERVER_MAP')).toEqual(['The SERVER_MAP field must not be greater than 20 characters.']);
      expect(check('min:8', 'short', 'PASSWORD')).toEqual(['The PASSWORD field must be at least 8 characters.']);
      expect(check('alpha_num|size:32', 'abc', 'STEAM_ACC')).toEqual(['The STEAM_ACC field must be 32 characters.']);
    });

    it('should report every failing rule in order when bail is absent, and only the first when it is present', () => {
      // Laravel's quirk: a non-numeric value is measured by length, but the message keeps the numeric wording.
      expect(check('integer|max:5', 'abcdefg', 'N')).toEqual(['The N field must be an integer.', 'The N field must not be greater than 5.']);
      expect(check('bail|integer|max:5', 'abcdefg', 'N')).toEqual(['The N field must be an integer.']);
    });

    it('should word each rule like Laravel when the value fails it', () => {
      expect(check('required|boolean', 'true', 'AUTO_UPDATE')).toEqual(['The AUTO_UPDATE field must be true or false.']);
      expect(check('required|in:vanilla,oxide,carbon', 'uMod', 'FRAMEWORK')).toEqual(['The selected FRAMEWORK is invalid.']);
      expect(check('required|regex:/^(\\w{1,20})$/', 'de dust', 'SRCDS_MAP')).toEqual(['The SRCDS_MAP field format is invalid.']);
      expect(check('required|alpha_dash', 'a b', 'SRCDS_GAME')).toEqual(['The SRCDS_GAME field must only contain letters, numbers, dashes, and underscores.']);
      expect(check('required|alpha_num', 'a-b', 'BUNGEE_VERSION')).toEqual(['The BUNGEE_VERSION field must only contain letters and numbers.']);
      expect(check('nullable|url', 'not a url', 'SERVER_URL')).toEqual(['The SERVER_URL field must be a valid URL.']);
      expect(check('required|numeric|digits_between:1,5', '123456', 'MAX_USERS')).toEqual(['The MAX_USERS field must be between 1 and 5 digits.']);
      expect(check('required|numeric', 'abc', 'RCON_PORT')).toEqual(['The RCON_PORT field must be a number.']);
      expect(check('integer', '1.5', 'N')).toEqual(['The N field must be an integer.']);
      expect(check('digits:4', '12', 'PIN')).toEqual(['The PIN field must be 4 digits.']);
      expect(check('starts_with:http://,https://', 'ftp://x', 'U')).toEqual(['The U field must start with one of the following: http://, https://.']);
      expect(check('present', undefined, 'P')).toEqual(['The P field must be present.']);
      expect(check('filled', '', 'F')).toEqual(['The F field must have a value.']);
    });

    it('should keep the attribute literal when it contains replacement patterns', () => {
      expect(check('required', '', 'A$&:max')).toEqual(['The A$&:max field is required.']);
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

    it.each([
      ['foo', 'unknown rule "foo"'],
      ['required|required_if:OTHER,1', 'unknown rule "required_if"'],
      ['required|array', 'rule "array" is not supported: egg variable values are strings, never arrays'],
      [':foo', 'a rule name is missing before ":"'],
      ['string:20', 'string takes no arguments'],
      ['integer:strict', 'integer:strict never passes: egg variable values are strings'],
      ['between:1', 'between needs 2 numeric arguments'],
      ['between:a,b', 'between needs 2 numeric arguments'],
      ['between:10,1', 'between needs min <= max, got 10,1'],
      ['max', 'max needs 1 numeric argument'],
      ['max:abc', 'max needs 1 numeric argument'],
      ['size:1,2', 'size needs 1 numeric argument'],
      ['gt:OTHER_VAR', 'gt needs 1 numeric argument (egg variables cannot refer to other fields)'],
      ['digits:1.5', 'digits needs 1 whole-number argument'],
      ['digits_between:5', 'digits_between needs 2 whole-number arguments'],
      ['digits_between:5,1', 'digits_between needs min <= max, got 5,1'],
      ['in', 'in needs at least 1 value'],
      ['in:', 'in needs at least 1 value'],
      ['not_in', 'not_in needs at least 1 value'],
      ['alpha:latin', 'alpha takes no arguments or "ascii"'],
      ['email:dns', 'email:dns is not supported (rfc, strict, filter and filter_unicode are)'],
      ['url:ht tp', 'url arguments must be URL schemes, got "ht tp"'],
      ['uuid:9', 'uuid takes no argument or a version (0-8, max, nil)'],
    ])('should refuse %j when a rule or its arguments are wrong', (rules, message) => {
      expect(parseError(rules)).toBe(message);
    });

    it.each([
      ['regex', 'invalid regex: exactly one delimited pattern is needed'],
      ['regex:', 'invalid regex "": a delimited pattern such as /^[a-z]+$/ is needed'],
      ['regex:abc', 'invalid regex "abc": the delimiter must be a punctuation character such as /'],
      ['regex:/abc|max:3', 'invalid regex "/abc|max:3": no ending delimiter "/"'],
      ['regex:/abc/q', 'invalid regex "/abc/q": modifier "q" is not supported (i, m, s, x, u and D are)'],
      ['regex:/abc/U', 'invalid regex "/abc/U": modifier "U" is not supported (i, m, s, x, u and D are)'],
      ['regex:/a++/', 'invalid regex "/a++/": possessive quantifiers such as a++ are not supported (egg patterns run on RE2, in linear time)'],
      ['regex:/(abc/', 'invalid regex "/(abc/": missing closing ): `(abc`'],
      ['regex:/[a-/', 'invalid regex "/[a-/": missing closing ]: `[a-`'],
      ['regex:/(?>a)/', 'invalid regex "/(?>a)/": atomic groups (?>...) are not supported (egg patterns run on RE2, in linear time)'],
      ['regex:/a\\Kb/', 'invalid regex "/a\\Kb/": invalid escape sequence: `\\K`'],
      ['regex:/(a)\\1/', 'invalid regex "/(a)\\1/": back references are not supported (egg patterns run on RE2, in linear time)'],
      ['regex:/(?<n>a)\\k<n>/', 'invalid regex "/(?<n>a)\\k<n>/": back references are not supported (egg patterns run on RE2, in linear time)'],
      ['regex:/^a(?=b)/', 'invalid regex "/^a(?=b)/": lookahead and lookbehind assertions are not supported (egg patterns run on RE2, in linear time)'],
      ['not_regex:/(?<!a)b/', 'invalid not_regex "/(?<!a)b/": lookahead and lookbehind assertions are not supported (egg patterns run on RE2, in linear time)'],
      ['regex:/\\bword\\b/u', 'invalid regex "/\\bword\\b/u": \\b with the u modifier (a Unicode word boundary) is not supported; drop u or use a character class'],
    ])('should refuse %j when RE2 cannot run the pattern', (rules, message) => {
      expect(parseError(rules)).toBe(message);
    });
  });
});
