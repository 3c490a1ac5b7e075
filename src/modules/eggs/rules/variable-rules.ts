/**
 * The Laravel validation rules that Pterodactyl egg variables carry (`required|integer|between:1,65535`), parsed once
 * when a variable is saved and applied to the string a server's environment holds.
 *
 * Behaviour follows Laravel's validator as Pterodactyl runs it on environment values (Laravel 10+ messages and rule
 * semantics, checked against laravel/framework 12.x/13.x). Deliberate differences, each for a string-only world:
 * - A `regex:`/`not_regex:` pattern may contain `|`: the argument runs to the closing delimiter and its modifiers.
 *   (Laravel splits on every `|` and breaks such patterns; its docs tell users to pass an array instead.)
 * - Unset (null/undefined) and '' are one "empty" state: `nullable` and `sometimes` change nothing, every non-implicit
 *   rule is skipped for an empty value, and `required` fails. Laravel runs e.g. `string` on a present null unless
 *   `nullable` is given; an environment value is never a non-string, so that distinction does not exist here.
 * - Unknown rules and bad arguments are a RuleParseError when the variable is saved; Laravel only fails when it
 *   validates, or silently ignores extra arguments. Rules that need another field, a file or an array are unknown.
 * - `in`/`not_in` compare strictly, as Laravel does since 12.67 (earlier versions, Pterodactyl's among them, compared
 *   loosely, so '01' passed `in:1`).
 * - Patterns run on RE2, in linear time: see `compilePattern` (pcre.ts). Constructs that need backtracking (back
 *   references, lookaround, possessive and atomic groups) are refused when the egg is saved, as is PCRE-only syntax
 *   RE2 lacks (\Z, \h, \R, \K...). `$` is the end of the value, where PCRE also matches before a final "\n": an
 *   environment value anchored by its egg cannot smuggle a trailing newline in.
 * - `email` is an approximation of egulias' RFCValidation (no DNS); `url` follows the structure of Laravel's pattern
 *   with a shorter list of schemes (see URL_SCHEMES in formats.ts).
 */

import type { Dec } from 'src/modules/eggs/rules/formats';
import { compareDec, decOf, isAscii, isEmail, isIp, isIpv4, isIpv6, isJson, isNumeric, isPhpInt, isUrl, isUuid, parseDec, phpTrim } from 'src/modules/eggs/rules/formats';
import { compilePattern, PCRE_SPACE, scanDelimited } from 'src/modules/eggs/rules/pcre';
import { RuleParseError } from 'src/modules/eggs/rules/rule-parse-error';

export { RuleParseError };

export interface ParsedRule {
  name: string;
  args: string[];
}

/** Fills Laravel's :placeholders; a function replacer, so `$&` in a value stays literal. */
const fill = (template: string, values: Record<string, string>): string => template.replace(/:([a-z]+)/g, (m, key: string) => values[key] ?? m);

// ---------------------------------------------------------------------------------------------------------------
// Rule table

interface RuleState {
  /** The rule list has integer, numeric or decimal: sizes are numbers, messages use the numeric wording. */
  numeric: boolean;
}

interface RuleSpec {
  /** flag: changes nothing here; implicit: runs on empty values and stops the list when it fails; check: skipped when empty. */
  kind: 'flag' | 'implicit' | 'check';
  args: (name: string, args: string[]) => void;
  passes: (value: string | null | undefined, args: string[], st: RuleState) => boolean;
  message: (field: string, args: string[], st: RuleState, value: string) => string;
}

const noArgs = (name: string, args: string[]): void => {
  if (args.length > 0) {
    throw new RuleParseError(`${name} takes no arguments`);
  }
};

/** integer:strict and friends check the PHP type, which is always string here. */
const noStrict = (name: string, args: string[]): void => {
  if (args.length === 1 && args[0] === 'strict') {
    throw new RuleParseError(`${name}:strict never passes: egg variable values are strings`);
  }
  noArgs(name, args);
};

const optionalAscii = (name: string, args: string[]): void => {
  if (args.length > 1 || (args.length === 1 && args[0] !== 'ascii')) {
    throw new RuleParseError(`${name} takes no arguments or "ascii"`);
  }
};

const numericArg = (a: string): Dec | undefined => parseDec(phpTrim(a));

const numbers =
  (count: 1 | 2) =>
  (name: string, args: string[]): void => {
    const decs = args.map(numericArg);
    if (args.length !== count || decs.some((d) => d === undefined)) {
      throw new RuleParseError(`${name} needs ${count} numeric argument${count === 1 ? '' : 's'}`);
    }
    if (count === 2 && compareDec(decs[0] as Dec, decs[1] as Dec) > 0) {
      throw new RuleParseError(`${name} needs min <= max, got ${args.map(phpTrim).join(',')}`);
    }
  };

const wholeNumbers =
  (min: 1 | 2, max: 1 | 2) =>
  (name: string, args: string[]): void => {
    const wanted = min === max ? `${min}` : `${min} or ${max}`;
    if (args.length < min || args.length > max || args.some((a) => !/^\d+$/.test(phpTrim(a)))) {
      throw new RuleParseError(`${name} needs ${wanted} whole-number argument${max === 1 ? '' : 's'}`);
    }
    if (args.length === 2 && Number(phpTrim(args[0])) > Number(phpTrim(args[1]))) {
      throw new RuleParseError(`${name} needs min <= max, got ${args.map(phpTrim).join(',')}`);
    }
  };

const someValues = (name: string, args: string[]): void => {
  if (args.length === 0) {
    throw new RuleParseError(`${name} needs at least 1 value`);
  }
};

const pattern = (name: string, args: string[]): void => {
  if (args.length !== 1) {
    throw new RuleParseError(`invalid ${name}: exactly one delimited pattern is needed`);
  }
  compilePattern(args[0], name);
};

const isEmpty = (v: string | null | undefined): v is null | undefined | '' => v === null || v === undefined || phpTrim(v) === '';

/** Laravel's getSize(): the number itself for a numeric value under a numeric rule, else the length in characters. */
const sizeOf = (v: string, numeric: boolean): Dec | undefined => (numeric && isNumeric(v) ? parseDec(phpTrim(v)) : decOf([...v].length));

const compareSize = (v: string, arg: string, numeric: boolean, ok: (c: number) => boolean): boolean => {
  const size = sizeOf(v, numeric);
  const bound = numericArg(arg);
  return size !== undefined && bound !== undefined && ok(compareDec(size, bound));
};

/** `placeholders` name the arguments in order, as Laravel's replaceBetween/replaceMin/... do. */
const sizeMessage = (placeholders: string[], numeric: string, string: string) => (field: string, args: string[], st: RuleState) =>
  fill(st.numeric ? numeric : string, { attribute: field, ...Object.fromEntries(placeholders.map((p, i) => [p, phpTrim(args[i] ?? '')])) });

/** gt/gte/lt/lte against a number: only numeric values pass, and they compare as numbers (Laravel's shouldBeNumeric). */
const comparison = (ok: (c: number) => boolean, numeric: string, string: string): RuleSpec => ({
  kind: 'check',
  args: (name, args) => {
    if (args.length !== 1 || numericArg(args[0]) === undefined) {
      throw new RuleParseError(`${name} needs 1 numeric argument (egg variables cannot refer to other fields)`);
    }
  },
  passes: (v, args) => isNumeric(v as string) && compareSize(v as string, args[0], true, ok),
  message: (field, args, st, v) => fill(st.numeric || isNumeric(v) ? numeric : string, { attribute: field, value: phpTrim(args[0]) }),
});

const regexTest = (re: (args: string[]) => RegExp, message: string): RuleSpec => ({
  kind: 'check',
  args: noArgs,
  passes: (v, args) => re(args).test(v as string),
  message: (field) => fill(message, { attribute: field }),
});

const simple = (test: (v: string) => boolean, message: string, args: RuleSpec['args'] = noArgs): RuleSpec => ({
  kind: 'check',
  args,
  passes: (v) => test(v as string),
  message: (field) => fill(message, { attribute: field }),
});

const withValues = (test: (v: string, values: string[]) => boolean, message: string): RuleSpec => ({
  kind: 'check',
  args: someValues,
  passes: (v, args) => test(v as string, args),
  message: (field, args) => fill(message, { attribute: field, values: args.join(', ') }),
});

// Arguments to a flag change nothing in Laravel either; a published egg writes `nullable:string`, so they are let through.
const FLAG: RuleSpec = { kind: 'flag', args: () => undefined, passes: () => true, message: () => '' };

const ALPHA = /^[\p{L}\p{M}]+$/u;
const ALPHA_NUM = /^[\p{L}\p{M}\p{N}]+$/u;
const ALPHA_DASH = /^[\p{L}\p{M}\p{N}_-]+$/u;

const startsWithAny = (v: string, values: string[]): boolean => values.some((x) => x !== '' && v.startsWith(x));
const endsWithAny = (v: string, values: string[]): boolean => values.some((x) => x !== '' && v.endsWith(x));

const RULES: Record<string, RuleSpec> = {
  bail: FLAG,
  nullable: FLAG,
  sometimes: FLAG,

  required: { kind: 'implicit', args: noArgs, passes: (v) => !isEmpty(v), message: (f) => `The ${f} field is required.` },
  // "Unset" is null/undefined: present fails only then, filled only for a set but blank value.
  present: { kind: 'implicit', args: noArgs, passes: (v) => v !== null && v !== undefined, message: (f) => `The ${f} field must be present.` },
  filled: { kind: 'implicit', args: noArgs, passes: (v) => v === null || v === undefined || !isEmpty(v), message: (f) => `The ${f} field must have a value.` },

  string: simple(() => true, 'The :attribute field must be a string.'),
  integer: simple(isPhpInt, 'The :attribute field must be an integer.', noStrict),
  numeric: simple(isNumeric, 'The :attribute field must be a number.', noStrict),
  // Laravel accepts true, false, 1, 0, '1' and '0' with ===; of strings only '1' and '0'. 'true'/'false' fail, which is
  // why eggs write `in:true,false` for those.
  boolean: simple((v) => v === '1' || v === '0', 'The :attribute field must be true or false.', noStrict),
  decimal: {
    kind: 'check',
    args: wholeNumbers(1, 2),
    passes: (v, args) => {
      const m = isNumeric(v as string) ? /^[+-]?\d*\.?(\d*)$/.exec(v as string) : null;
      if (!m) {
        return false;
      }
      const [min, max = min] = args.map((a) => Number(phpTrim(a)));
      return m[1].length >= min && m[1].length <= max;
    },
    message: (f, args) => `The ${f} field must have ${args.map(phpTrim).join('-')} decimal places.`,
  },

  between: {
    kind: 'check',
    args: numbers(2),
    passes: (v, args, st) => compareSize(v as string, args[0], st.numeric, (c) => c >= 0) && compareSize(v as string, args[1], st.numeric, (c) => c <= 0),
    message: sizeMessage(['min', 'max'], 'The :attribute field must be between :min and :max.', 'The :attribute field must be between :min and :max characters.'),
  },
  min: {
    kind: 'check',
    args: numbers(1),
    passes: (v, args, st) => compareSize(v as string, args[0], st.numeric, (c) => c >= 0),
    message: sizeMessage(['min'], 'The :attribute field must be at least :min.', 'The :attribute field must be at least :min characters.'),
  },
  max: {
    kind: 'check',
    args: numbers(1),
    passes: (v, args, st) => compareSize(v as string, args[0], st.numeric, (c) => c <= 0),
    message: sizeMessage(['max'], 'The :attribute field must not be greater than :max.', 'The :attribute field must not be greater than :max characters.'),
  },
  size: {
    kind: 'check',
    args: numbers(1),
    passes: (v, args, st) => compareSize(v as string, args[0], st.numeric, (c) => c === 0),
    message: sizeMessage(['size'], 'The :attribute field must be :size.', 'The :attribute field must be :size characters.'),
  },
  gt: comparison((c) => c > 0, 'The :attribute field must be greater than :value.', 'The :attribute field must be greater than :value characters.'),
  gte: comparison((c) => c >= 0, 'The :attribute field must be greater than or equal to :value.', 'The :attribute field must be greater than or equal to :value characters.'),
  lt: comparison((c) => c < 0, 'The :attribute field must be less than :value.', 'The :attribute field must be less than :value characters.'),
  lte: comparison((c) => c <= 0, 'The :attribute field must be less than or equal to :value.', 'The :attribute field must be less than or equal to :value characters.'),
  digits: {
    kind: 'check',
    args: wholeNumbers(1, 1),
    passes: (v, args) => /^\d*$/.test(v as string) && (v as string).length === Number(phpTrim(args[0])),
    message: (f, args) => `The ${f} field must be ${phpTrim(args[0])} digits.`,
  },
  digits_between: {
    kind: 'check',
    args: wholeNumbers(2, 2),
    passes: (v, args) => {
      const s = v as string;
      return /^\d*$/.test(s) && s.length >= Number(phpTrim(args[0])) && s.length <= Number(phpTrim(args[1]));
    },
    message: (f, args) => `The ${f} field must be between ${phpTrim(args[0])} and ${phpTrim(args[1])} digits.`,
  },

  in: { kind: 'check', args: someValues, passes: (v, args) => args.includes(v as string), message: (f) => `The selected ${f} is invalid.` },
  not_in: { kind: 'check', args: someValues, passes: (v, args) => !args.includes(v as string), message: (f) => `The selected ${f} is invalid.` },

  regex: { kind: 'check', args: pattern, passes: (v, args) => compilePattern(args[0], 'regex').test(v as string), message: (f) => `The ${f} field format is invalid.` },
  not_regex: { kind: 'check', args: pattern, passes: (v, args) => !compilePattern(args[0], 'not_regex').test(v as string), message: (f) => `The ${f} field format is invalid.` },
  alpha: { ...regexTest((a) => (a[0] === 'ascii' ? /^[a-zA-Z]+$/ : ALPHA), 'The :attribute field must only contain letters.'), args: optionalAscii },
  alpha_num: {
    ...regexTest((a) => (a[0] === 'ascii' ? /^[a-zA-Z0-9]+$/ : ALPHA_NUM), 'The :attribute field must only contain letters and numbers.'),
    args: optionalAscii,
  },
  alpha_dash: {
    ...regexTest((a) => (a[0] === 'ascii' ? /^[a-zA-Z0-9_-]+$/ : ALPHA_DASH), 'The :attribute field must only contain letters, numbers, dashes, and underscores.'),
    args: optionalAscii,
  },
  ascii: simple(isAscii, 'The :attribute field must only contain single-byte alphanumeric characters and symbols.'),
  lowercase: simple((v) => v.toLowerCase() === v, 'The :attribute field must be lowercase.'),
  uppercase: simple((v) => v.toUpperCase() === v, 'The :attribute field must be uppercase.'),
  starts_with: withValues(startsWithAny, 'The :attribute field must start with one of the following: :values.'),
  ends_with: withValues(endsWithAny, 'The :attribute field must end with one of the following: :values.'),
  doesnt_start_with: withValues((v, x) => !startsWithAny(v, x), 'The :attribute field must not start with one of the following: :values.'),
  doesnt_end_with: withValues((v, x) => !endsWithAny(v, x), 'The :attribute field must not end with one of the following: :values.'),

  url: {
    kind: 'check',
    args: (name, args) => {
      const bad = args.find((a) => !/^[A-Za-z][A-Za-z0-9+.-]*$/.test(a));
      if (bad !== undefined) {
        throw new RuleParseError(`${name} arguments must be URL schemes, got "${bad}"`);
      }
    },
    passes: (v, args) => isUrl(v as string, args),
    message: (f) => `The ${f} field must be a valid URL.`,
  },
  email: simple(
    (v) => !/[\r\n]/.test(v) && isEmail(v),
    'The :attribute field must be a valid email address.',
    (name, args) => {
      // Offline checks only: the RFC styles share one approximation, dns and spoof need the network or intl.
      const bad = args.find((a) => !['rfc', 'strict', 'filter', 'filter_unicode'].includes(a));
      if (bad !== undefined) {
        throw new RuleParseError(`${name}:${bad} is not supported (rfc, strict, filter and filter_unicode are)`);
      }
    },
  ),
  ip: simple(isIp, 'The :attribute field must be a valid IP address.'),
  ipv4: simple(isIpv4, 'The :attribute field must be a valid IPv4 address.'),
  ipv6: simple(isIpv6, 'The :attribute field must be a valid IPv6 address.'),
  uuid: {
    kind: 'check',
    args: (name, args) => {
      if (args.length > 1 || (args.length === 1 && !/^(?:[0-8]|max|nil)$/.test(args[0]))) {
        throw new RuleParseError(`${name} takes no argument or a version (0-8, max, nil)`);
      }
    },
    passes: (v, args) => isUuid(v as string, args[0]),
    message: (f) => `The ${f} field must be a valid UUID.`,
  },
  json: simple(isJson, 'The :attribute field must be a valid JSON string.'),
};

/** Laravel's spelling aliases (ValidationRuleParser::normalizeRule). */
const ALIASES: Record<string, string> = { int: 'integer', bool: 'boolean' };

/** Laravel rules that can never apply to a string environment value, with the reason given instead of "unknown". */
const UNSUPPORTED: Record<string, string> = {
  // An always-failing `array` would make the variable impossible to set; refusing it when the egg is saved is clearer.
  array: 'egg variable values are strings, never arrays',
  list: 'egg variable values are strings, never arrays',
  file: 'egg variable values are strings, never files',
  image: 'egg variable values are strings, never files',
};

/** Rule names resolve as PHP resolves `validate{Studly}` methods: case-insensitive, `_`/`-`/spaces ignored. */
const compact = (name: string): string => name.toLowerCase().replace(/[\s_-]/g, '');
const BY_COMPACT = new Map<string, string>([
  ...Object.keys(RULES).map((n): [string, string] => [compact(n), n]),
  ...Object.entries(ALIASES),
]);

const canonicalName = (raw: string): string => {
  const trimmed = phpTrim(raw);
  if (trimmed === '') {
    throw new RuleParseError('a rule name is missing before ":"');
  }
  const name = BY_COMPACT.get(compact(trimmed));
  if (name === undefined) {
    const reason = UNSUPPORTED[compact(trimmed)];
    throw new RuleParseError(reason ? `rule "${trimmed}" is not supported: ${reason}` : `unknown rule "${trimmed}"`);
  }
  return name;
};

const specOf = (rule: ParsedRule): RuleSpec => {
  const spec = Object.prototype.hasOwnProperty.call(RULES, rule.name) ? RULES[rule.name] : undefined;
  if (!spec) {
    throw new RuleParseError(`unknown rule "${rule.name}"`);
  }
  spec.args(rule.name, rule.args);
  return spec;
};

/** str_getcsv() as Laravel reads rule arguments: commas split, "double quotes" protect commas, "" is a quote. */
const splitArgs = (raw: string): string[] => {
  if (raw === '') {
    return [];
  }
  const out: string[] = [];
  let i = 0;
  for (;;) {
    let field = '';
    let j = i;
    while (j < raw.length && raw[j] !== ',' && PCRE_SPACE.includes(raw[j])) {
      j++;
    }
    if (raw[j] === '"') {
      i = j + 1;
      while (i < raw.length) {
        const c = raw[i];
        if (c === '"' && raw[i + 1] === '"') {
          field += '"';
          i += 2;
        } else if (c === '"') {
          i++;
          break;
        } else if (c === '\\' && i + 1 < raw.length) {
          field += raw.slice(i, i + 2);
          i += 2;
        } else {
          field += c;
          i++;
        }
      }
    }
    while (i < raw.length && raw[i] !== ',') {
      field += raw[i++];
    }
    out.push(field);
    if (i >= raw.length) {
      return out;
    }
    i++;
  }
};

const isPatternRule = (name: string): boolean => name === 'regex' || name === 'not_regex';

/** Parses `required|integer|between:1,65535`; '' gives []. Empty segments (`a||b`, a trailing `|`) are skipped like Laravel. */
export const parseRules = (rules: string): ParsedRule[] => {
  const out: ParsedRule[] = [];
  let i = 0;
  while (i <= rules.length) {
    let j = i;
    while (j < rules.length && rules[j] !== ':' && rules[j] !== '|') {
      j++;
    }
    const rawName = rules.slice(i, j);
    let rule: ParsedRule;
    if (rules[j] === ':') {
      const name = canonicalName(rawName);
      let end: number;
      let args: string[];
      if (isPatternRule(name)) {
        end = scanDelimited(rules, j + 1, () => `${name} "${phpTrim(rules.slice(j + 1))}"`).end;
        args = [rules.slice(j + 1, end).replace(/^[ \t\n\v\f\r]+|[ \n\r]+$/g, '')];
      } else {
        end = rules.indexOf('|', j + 1);
        end = end < 0 ? rules.length : end;
        args = splitArgs(rules.slice(j + 1, end));
      }
      rule = { name, args };
      i = end + 1;
    } else {
      i = j + 1;
      if (phpTrim(rawName) === '') {
        continue;
      }
      rule = { name: canonicalName(rawName), args: [] };
    }
    specOf(rule);
    out.push(rule);
  }
  return out;
};

/**
 * Applies parsed rules to an environment value the way Laravel's validator does: rules run in order; a non-implicit
 * rule is skipped when the value is empty (unset, '' or whitespace); a failed implicit rule (required, present,
 * filled) stops the list, and so does any failure under `bail`. Returns the messages, [] when valid.
 */
export const validateValue = (rules: ParsedRule[], value: string | null | undefined, attribute: string): string[] => {
  const names = new Set(rules.map((r) => r.name));
  const st: RuleState = { numeric: names.has('integer') || names.has('numeric') || names.has('decimal') };
  const bail = names.has('bail');
  const empty = isEmpty(value);
  const messages: string[] = [];
  for (const rule of rules) {
    const spec = specOf(rule);
    if (spec.kind === 'flag' || (spec.kind === 'check' && empty)) {
      continue;
    }
    if (!spec.passes(value, rule.args, st)) {
      messages.push(spec.message(attribute, rule.args, st, value ?? ''));
      if (bail || spec.kind === 'implicit') {
        break;
      }
    }
  }
  return messages;
};
