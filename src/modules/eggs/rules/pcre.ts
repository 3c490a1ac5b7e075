/**
 * The `regex:`/`not_regex:` argument of an egg variable rule: preg_*'s reading of a delimited pattern and its
 * modifiers, run by RE2 (re2js). Part of the rules in src/modules/eggs/rules/variable-rules.ts, whose header lists the
 * deliberate differences from Laravel.
 */

import { RE2JS } from 're2js';
import { RuleParseError } from 'src/modules/eggs/rules/rule-parse-error';
import { errorMessage } from 'src/common/errors/error-message';

export const PCRE_SPACE = ' \t\n\v\f\r';
const BRACKET_DELIMITERS: Record<string, string> = { '(': ')', '[': ']', '{': '}', '<': '>' };

interface DelimitedPattern {
  /** Index just past the modifiers: the `|` that ends the rule, or the end of the string. */
  end: number;
  body: string;
  modifiers: string;
}

/** preg_*'s reading of `/body/modifiers`: leading whitespace, any non-alphanumeric delimiter, bracket pairs nest. */
export const scanDelimited = (src: string, from: number, describe: () => string): DelimitedPattern => {
  const fail = (why: string): never => {
    throw new RuleParseError(`invalid ${describe()}: ${why}`);
  };
  let i = from;
  while (i < src.length && PCRE_SPACE.includes(src[i])) {
    i++;
  }
  const open = src[i];
  if (open === undefined || open === '|') {
    return fail('a delimited pattern such as /^[a-z]+$/ is needed');
  }
  if (!/^[!-~]$/.test(open) || /^[A-Za-z0-9\\]$/.test(open)) {
    return fail('the delimiter must be a punctuation character such as /');
  }
  const close = BRACKET_DELIMITERS[open] ?? open;
  let depth = 1;
  let j = i + 1;
  for (; j < src.length; j++) {
    const c = src[j];
    if (c === '\\') {
      j++;
    } else if (c === close) {
      if (--depth === 0) {
        break;
      }
    } else if (c === open) {
      depth++;
    }
  }
  if (j >= src.length) {
    return fail(`no ending delimiter "${close}"`);
  }
  let modifiers = '';
  let k = j + 1;
  for (; k < src.length && src[k] !== '|'; k++) {
    const c = src[k];
    if (c === ' ' || c === '\n' || c === '\r') {
      continue; // preg ignores these among modifiers
    }
    if (!'imsxuD'.includes(c)) {
      return fail(`modifier "${c}" is not supported (i, m, s, x, u and D are)`);
    }
    modifiers += c;
  }
  return { end: k, body: src.slice(i + 1, j), modifiers };
};

/** PHP's u modifier also turns on Unicode properties (PCRE2_UCP): \d and \w then cover every script. */
const UNICODE_WORD = '\\p{L}\\p{N}_';
const UNICODE_ESCAPES: Record<string, { outside: string; inside?: string }> = {
  d: { outside: '\\p{Nd}', inside: '\\p{Nd}' },
  D: { outside: '\\P{Nd}', inside: '\\P{Nd}' },
  w: { outside: `[${UNICODE_WORD}]`, inside: UNICODE_WORD },
  W: { outside: `[^${UNICODE_WORD}]` },
};

/**
 * What RE2 cannot do that PCRE can, said in the author's terms; RE2's own message otherwise. These are the
 * constructs that need backtracking, which is exactly what a linear-time engine leaves out.
 */
const refusal = (body: string, re2Message: string): string => {
  const why = re2Message.replace(/^error parsing regexp: /, '');
  const unsupported = (what: string): string => `${what} are not supported (egg patterns run on RE2, in linear time)`;
  if (/\\(?:[1-9]|k[<{']|g\{?-?\w|g\d)|\(\?P=/.test(body)) {
    return unsupported('back references');
  }
  if (/\(\?<?[=!]/.test(body)) {
    return unsupported('lookahead and lookbehind assertions');
  }
  if (/\(\?>/.test(body)) {
    return unsupported('atomic groups (?>...)');
  }
  if (/(?:[*+?}])\+/.test(body) && why.startsWith('invalid nested repetition operator')) {
    return unsupported('possessive quantifiers such as a++');
  }
  if (/\(\?(?:R|[+-]?\d|&|\()/.test(body)) {
    return unsupported('recursion and conditional groups');
  }
  if (/\(\*/.test(body)) {
    return unsupported('backtracking verbs (*...)');
  }
  return why;
};

/**
 * The pattern body as RE2 reads it. RE2 has no x modifier and no Unicode-property mode, so those two flags are applied
 * here: x drops whitespace and # comments outside classes; u widens \d \w (and their negations) to every script, as
 * PHP's u does. Everything else (syntax, errors) is RE2's own.
 */
const prepareBody = (body: string, extended: boolean, unicode: boolean, fail: (why: string) => never): string => {
  const out: string[] = [];
  let inClass = false;
  let classStart = false; // just after [ or [^, where ] is literal
  let i = 0;
  while (i < body.length) {
    const c = body[i];
    if (c === '\\') {
      const next = body[i + 1];
      if (next === undefined) {
        return fail('the pattern ends with a backslash');
      }
      if (next === 'Q') {
        // \Q...\E is RE2's too; it is only copied whole so that x leaves the quoted text alone.
        const end = body.indexOf('\\E', i + 2);
        const stop = end < 0 ? body.length : end + 2;
        out.push(body.slice(i, stop));
        i = stop;
        continue;
      }
      const mapped = unicode ? UNICODE_ESCAPES[next] : undefined;
      if (mapped) {
        if (inClass && mapped.inside === undefined) {
          return fail(`\\${next} inside [...] is not supported with the u modifier`);
        }
        out.push(inClass ? (mapped.inside as string) : mapped.outside);
      } else if (unicode && !inClass && (next === 'b' || next === 'B')) {
        return fail(`\\${next} with the u modifier (a Unicode word boundary) is not supported; drop u or use a character class`);
      } else {
        out.push(c, next);
      }
      classStart = false;
      i += 2;
      continue;
    }
    if (inClass) {
      const posix = c === '[' ? /^\[:\^?[a-z]+:\]/.exec(body.slice(i)) : null;
      if (posix) {
        out.push(posix[0]);
        i += posix[0].length;
      } else {
        inClass = c !== ']' || classStart;
        out.push(c);
        i++;
      }
      classStart = false;
      continue;
    }
    if (c === '[') {
      inClass = true;
      classStart = true;
      const negated = body[i + 1] === '^';
      out.push(negated ? '[^' : '[');
      i += negated ? 2 : 1;
      continue;
    }
    if (extended && PCRE_SPACE.includes(c)) {
      i++;
      continue;
    }
    if (extended && c === '#') {
      while (i < body.length && body[i] !== '\n') {
        i++;
      }
      continue;
    }
    out.push(c);
    i++;
  }
  return out.join('');
};

/** A compiled `regex:` argument; `test` searches anywhere in the value, as preg_match does. */
interface CompiledPattern {
  test(value: string): boolean;
}

const patternCache = new Map<string, CompiledPattern>();
const PATTERN_CACHE_LIMIT = 500;

/**
 * A `regex:` argument (delimiters and modifiers included), compiled for RE2: matching time is linear in the value's
 * length whatever the pattern, so an egg cannot make validation hang (PCRE and V8 backtrack, and `(a+)+$` doubles its
 * cost per character). Patterns that need backtracking (back references, lookaround, possessive or atomic groups,
 * recursion) are refused with a RuleParseError when the egg is saved or imported. Cached.
 */
export const compilePattern = (pattern: string, rule: string): CompiledPattern => {
  const cached = patternCache.get(pattern);
  if (cached) {
    return cached;
  }
  const describe = (): string => `${rule} "${pattern}"`;
  const fail = (why: string): never => {
    throw new RuleParseError(`invalid ${describe()}: ${why}`);
  };
  const scanned = scanDelimited(pattern, 0, describe);
  if (scanned.end !== pattern.length) {
    fail('unexpected "|" after the pattern');
  }
  const { body, modifiers } = scanned;
  const source = prepareBody(body, modifiers.includes('x'), modifiers.includes('u'), fail);
  // D (dollar end-only) needs nothing: RE2's $ is already the end of the value unless m is given.
  const flags =
    (modifiers.includes('i') ? RE2JS.CASE_INSENSITIVE : 0) | (modifiers.includes('m') ? RE2JS.MULTILINE : 0) | (modifiers.includes('s') ? RE2JS.DOTALL : 0);
  let compiled: CompiledPattern;
  try {
    compiled = RE2JS.compile(source, flags);
  } catch (e) {
    return fail(refusal(body, errorMessage(e)));
  }
  if (patternCache.size >= PATTERN_CACHE_LIMIT) {
    patternCache.clear();
  }
  patternCache.set(pattern, compiled);
  return compiled;
};
