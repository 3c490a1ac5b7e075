/**
 * The `regex:`/`not_regex:` argument of an egg variable rule: preg_*'s reading of a delimited pattern, and its
 * translation from PCRE (as PHP runs it) into a JS RegExp. Part of the rules in
 * src/modules/eggs/rules/variable-rules.ts, whose header lists the deliberate differences from Laravel.
 */

import { RuleParseError } from 'src/modules/eggs/rules/rule-parse-error';

export const PCRE_SPACE = ' \t\n\v\f\r';
const BRACKET_DELIMITERS: Record<string, string> = { '(': ')', '[': ']', '{': '}', '<': '>' };

export interface DelimitedPattern {
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

const JS_SYNTAX = '^$\\.*+?()[]{}|/';
const escapeOutside = (c: string): string => (JS_SYNTAX.includes(c) ? `\\${c}` : c);
const escapeInside = (c: string): string => ('\\]^-['.includes(c) ? `\\${c}` : c);
const hex = (code: number): string => {
  const h = code.toString(16);
  return code <= 0xff ? `\\x${h.padStart(2, '0')}` : code <= 0xffff ? `\\u${h.padStart(4, '0')}` : `\\u{${h}}`;
};

const POSIX_CLASSES: Record<string, string> = {
  alnum: 'a-zA-Z0-9',
  alpha: 'a-zA-Z',
  ascii: '\\x00-\\x7f',
  blank: ' \\t',
  cntrl: '\\x00-\\x1f\\x7f',
  digit: '0-9',
  graph: '\\x21-\\x7e',
  lower: 'a-z',
  print: '\\x20-\\x7e',
  punct: '!-\\/:-@\\[-`{-~',
  space: ' \\t\\n\\v\\f\\r',
  upper: 'A-Z',
  word: '\\w',
  xdigit: '0-9A-Fa-f',
};

const VERTICAL_SPACE = '\\n\\v\\f\\r\\x85\\u2028\\u2029';
const HORIZONTAL_SPACE = '\\t \\xa0\\u1680\\u180e\\u2000-\\u200a\\u202f\\u205f\\u3000';
/** PCRE's \w with the u modifier (PHP turns on Unicode properties with it). */
const UNICODE_WORD = '\\p{L}\\p{N}_';

/**
 * Rewrites a PCRE pattern body into JS RegExp syntax, or throws a RuleParseError.
 * Handled: the x modifier (whitespace and # comments), \A \z \Z \h \H \v \V \R \N \e \a \Q…\E \x{…} \o{…} \cX, \pL and
 * \p{…} (with u), POSIX [:classes:], a leading ] in a class, (?P<name>…) (?'name'…) (?P=name) \k{…} \g{…}, (?#…),
 * and a leading (?imsx). With u, \d \w \b keep PHP's Unicode meaning. Refused rather than mistranslated: atomic and
 * possessive forms, recursion, conditionals, \K \G \X, backtracking verbs, inline options anywhere else.
 */
const translatePcre = (body: string, modifiers: string, fail: (why: string) => never): { source: string; flags: string } => {
  let extended = modifiers.includes('x');
  const flags = new Set([...modifiers].filter((m) => 'imsu'.includes(m)));
  const unicode = flags.has('u');
  const out: string[] = [];
  let inClass = false;
  let classStart = false; // just after [ or [^, where ] is literal in PCRE
  let afterClassEscape = false; // a - right after \d etc. inside a class is literal in PCRE
  let i = 0;

  const isClassEscapeAt = (at: number): boolean => body[at] === '\\' && /^[dDwWsShHvVpP]$/.test(body[at + 1] ?? '');

  const quoteUntilE = (from: number): number => {
    const end = body.indexOf('\\E', from);
    const text = body.slice(from, end < 0 ? body.length : end);
    for (const ch of text) {
      out.push(inClass ? escapeInside(ch) : escapeOutside(ch));
    }
    return end < 0 ? body.length : end + 2;
  };

  const property = (at: number): number => {
    const m = /^\\([pP])(?:\{(\^?)([A-Za-z_&]+)\}|([A-Za-z]))/.exec(body.slice(at));
    if (!m) {
      return fail('malformed \\p escape');
    }
    if (!unicode) {
      return fail(`${m[0]} needs the u modifier`);
    }
    const negated = (m[1] === 'P') !== (m[2] === '^');
    const name = m[3] ?? m[4];
    const p = negated ? 'P' : 'p';
    const candidates = name === 'L&' ? ['LC'] : [name, `Script=${name}`];
    for (const candidate of candidates) {
      try {
        new RegExp(`\\p{${candidate}}`, 'u');
        out.push(`\\${p}{${candidate}}`);
        afterClassEscape = inClass;
        return at + m[0].length;
      } catch {
        // try the next spelling
      }
    }
    return fail(`unknown Unicode property ${m[0]}`);
  };

  const escape = (at: number): number => {
    const c = body[at + 1];
    if (c === undefined) {
      return fail('the pattern ends with a backslash');
    }
    const rest = body.slice(at);
    const classOnly = (inside: string, outside: string, negatedName?: string): number => {
      if (inClass) {
        if (negatedName) {
          return fail(`${negatedName} inside [...] is not supported`);
        }
        out.push(inside);
        afterClassEscape = true;
      } else {
        out.push(outside);
      }
      return at + 2;
    };
    const anchor = (js: string): number => {
      if (inClass) {
        return fail(`\\${c} cannot appear inside [...]`);
      }
      out.push(js);
      return at + 2;
    };
    switch (c) {
      case 'd':
        return unicode ? classOnly('\\p{Nd}', '\\p{Nd}') : classOnly('\\d', '\\d');
      case 'D':
        return unicode ? classOnly('', '\\P{Nd}', '\\D with the u modifier') : classOnly('\\D', '\\D');
      case 'w':
        return unicode ? classOnly(UNICODE_WORD, `[${UNICODE_WORD}]`) : classOnly('\\w', '\\w');
      case 'W':
        return unicode ? classOnly('', `[^${UNICODE_WORD}]`, '\\W with the u modifier') : classOnly('\\W', '\\W');
      case 's':
      case 'S':
        return classOnly(`\\${c}`, `\\${c}`);
      case 'h':
        return classOnly(HORIZONTAL_SPACE, `[${HORIZONTAL_SPACE}]`);
      case 'H':
        return classOnly('', `[^${HORIZONTAL_SPACE}]`, '\\H');
      case 'v':
        return classOnly(VERTICAL_SPACE, `[${VERTICAL_SPACE}]`);
      case 'V':
        return classOnly('', `[^${VERTICAL_SPACE}]`, '\\V');
      case 'R':
        return classOnly('', `(?:\\r\\n|[${VERTICAL_SPACE}])`, '\\R');
      case 'N':
        if (body[at + 2] === '{') {
          return fail('\\N{...} is not supported');
        }
        return classOnly('', '[^\\n]', '\\N');
      case 'b':
      case 'B':
        if (inClass) {
          out.push('\\b'); // backspace, in both
          return at + 2;
        }
        if (unicode) {
          const w = `[${UNICODE_WORD}]`;
          out.push(c === 'b' ? `(?:(?<=${w})(?!${w})|(?<!${w})(?=${w}))` : `(?:(?<=${w})(?=${w})|(?<!${w})(?!${w}))`);
          return at + 2;
        }
        out.push(`\\${c}`);
        return at + 2;
      case 'A':
        return anchor('(?<![\\s\\S])');
      case 'z':
      case 'Z':
        return anchor('(?![\\s\\S])');
      case 'n':
      case 'r':
      case 't':
      case 'f':
        out.push(`\\${c}`);
        return at + 2;
      case 'e':
        out.push('\\x1b');
        return at + 2;
      case 'a':
        out.push('\\x07');
        return at + 2;
      case 'Q':
        return quoteUntilE(at + 2);
      case 'E':
        return at + 2; // a stray \E is ignored by PCRE
      case 'p':
      case 'P':
        return property(at);
      case 'x': {
        const braced = /^\\x\{([0-9A-Fa-f]+)\}/.exec(rest);
        const plain = /^\\x([0-9A-Fa-f]{0,2})/.exec(rest) as RegExpExecArray;
        const code = parseInt(braced ? braced[1] : plain[1] || '0', 16);
        if (code > (unicode ? 0x10ffff : 0xff)) {
          return fail(`character code ${braced?.[0] ?? ''} is too large`);
        }
        out.push(hex(code));
        return at + (braced ?? plain)[0].length;
      }
      case 'o': {
        const m = /^\\o\{([0-7]+)\}/.exec(rest);
        if (!m) {
          return fail('malformed \\o{...}');
        }
        const code = parseInt(m[1], 8);
        if (code > (unicode ? 0x10ffff : 0xff)) {
          return fail(`character code ${m[0]} is too large`);
        }
        out.push(hex(code));
        return at + m[0].length;
      }
      case 'c': {
        const ch = body[at + 2];
        if (ch === undefined || !/^[ -~]$/.test(ch)) {
          return fail('\\c must be followed by a printable ASCII character');
        }
        out.push(hex(ch.toUpperCase().charCodeAt(0) ^ 0x40));
        return at + 3;
      }
      case 'k': {
        const m = /^\\k(?:<([A-Za-z_]\w*)>|'([A-Za-z_]\w*)'|\{([A-Za-z_]\w*)\})/.exec(rest);
        if (!m || inClass) {
          return fail('malformed \\k back reference');
        }
        out.push(`\\k<${m[1] ?? m[2] ?? m[3]}>`);
        return at + m[0].length;
      }
      case 'g': {
        const m = /^\\g(?:\{(\d+)\}|(\d+)|\{([A-Za-z_]\w*)\})/.exec(rest);
        if (!m || inClass) {
          return fail('only \\g{n} and \\g{name} back references are supported');
        }
        out.push(m[3] === undefined ? `(?:\\${m[1] ?? m[2]})` : `\\k<${m[3]}>`);
        return at + m[0].length;
      }
      case '0': {
        const m = /^\\0([0-7]{0,2})/.exec(rest) as RegExpExecArray;
        out.push(hex(parseInt(m[1] || '0', 8)));
        return at + m[0].length;
      }
      default:
        break;
    }
    if (/^[1-9]$/.test(c)) {
      const m = /^\\(\d+)/.exec(rest) as RegExpExecArray;
      if (!inClass) {
        out.push(`(?:\\${m[1]})`); // a back reference; the group wraps it so a following digit stays a digit
        return at + m[0].length;
      }
      const octal = /^\\([0-7]{1,3})/.exec(rest); // inside a class PCRE reads octal
      if (!octal) {
        out.push(c);
        return at + 2;
      }
      out.push(hex(parseInt(octal[1], 8)));
      return at + octal[0].length;
    }
    if (/^[A-Za-z]$/.test(c)) {
      return fail(`\\${c} is not supported`);
    }
    // Any other escaped character is itself, which JS's u mode only allows for syntax characters.
    const ch = String.fromCodePoint(body.codePointAt(at + 1) as number);
    out.push(inClass ? escapeInside(ch) : escapeOutside(ch));
    return at + 1 + ch.length;
  };

  const group = (at: number): number => {
    const rest = body.slice(at);
    if (rest.startsWith('(*')) {
      return fail('backtracking verbs (*...) are not supported');
    }
    if (!rest.startsWith('(?')) {
      out.push('(');
      return at + 1;
    }
    if (rest.startsWith('(?#')) {
      const close = body.indexOf(')', at);
      return close < 0 ? fail('unterminated (?# comment') : close + 1;
    }
    let m = /^\(\?(?::|=|!|<=|<!)/.exec(rest);
    if (m) {
      out.push(m[0]);
      return at + m[0].length;
    }
    m = /^\(\?(?:P?<([A-Za-z_]\w*)>|'([A-Za-z_]\w*)')/.exec(rest);
    if (m) {
      out.push(`(?<${m[1] ?? m[2]}>`);
      return at + m[0].length;
    }
    m = /^\(\?P=([A-Za-z_]\w*)\)/.exec(rest);
    if (m) {
      out.push(`\\k<${m[1]}>`);
      return at + m[0].length;
    }
    m = /^\(\?([imsx]+)\)/.exec(rest);
    if (m && out.length === 0) {
      for (const f of m[1]) {
        if (f === 'x') {
          extended = true;
        } else {
          flags.add(f);
        }
      }
      return at + m[0].length;
    }
    return fail(`the group ${rest.slice(0, 4)}... is not supported`);
  };

  while (i < body.length) {
    const c = body[i];
    if (inClass) {
      if (c === ']') {
        out.push(classStart ? '\\]' : ']');
        inClass = classStart;
        classStart = false;
        afterClassEscape = false;
        i++;
        continue;
      }
      classStart = false;
      if (c === '\\') {
        afterClassEscape = false;
        i = escape(i);
        continue;
      }
      if (c === '[') {
        const posix = /^\[:(\^?)([a-z]+):\]/.exec(body.slice(i));
        if (posix) {
          const range = POSIX_CLASSES[posix[2]];
          if (posix[1] || range === undefined) {
            return fail(`${posix[0]} is not supported`);
          }
          out.push(range);
          afterClassEscape = true;
          i += posix[0].length;
          continue;
        }
        out.push('\\[');
      } else if (c === '-' && (afterClassEscape || isClassEscapeAt(i + 1))) {
        out.push('\\-');
      } else {
        out.push(c);
      }
      afterClassEscape = false;
      i++;
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
    switch (c) {
      case '\\':
        i = escape(i);
        continue;
      case '[':
        out.push('[');
        inClass = true;
        classStart = true;
        afterClassEscape = false;
        i++;
        if (body[i] === '^') {
          out.push('^');
          i++;
        }
        continue;
      case '(':
        i = group(i);
        continue;
      case '{': {
        const quantifier = /^\{\d+(?:,\d*)?\}/.exec(body.slice(i));
        out.push(quantifier ? quantifier[0] : '\\{'); // PCRE reads any other { as a literal
        i += quantifier ? quantifier[0].length : 1;
        continue;
      }
      case '}':
      case ']':
        out.push(`\\${c}`);
        i++;
        continue;
      default:
        out.push(c);
        i++;
    }
  }
  if (inClass) {
    return fail('missing terminating ] for a character class');
  }
  return { source: out.join(''), flags: [...flags].sort().join('') };
};

const patternCache = new Map<string, RegExp>();
const PATTERN_CACHE_LIMIT = 500;

/**
 * A `regex:` argument (delimiters and modifiers included) as a JS RegExp; cached, throws RuleParseError.
 * Unlike PCRE (pcre.backtrack_limit), V8 has no backtracking limit: a catastrophic pattern from an egg is as slow here
 * as its input is long, so callers should bound value lengths.
 */
export const compilePattern = (pattern: string, rule: string): RegExp => {
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
  const { source, flags } = translatePcre(scanned.body, scanned.modifiers, fail);
  let re: RegExp;
  try {
    re = new RegExp(source, flags);
  } catch (e) {
    // V8 says "Invalid regular expression: /source/flags: reason"; the reason is what is new.
    return fail(e instanceof Error ? (/^Invalid regular expression: .*: (.*)$/s.exec(e.message)?.[1] ?? e.message) : String(e));
  }
  if (patternCache.size >= PATTERN_CACHE_LIMIT) {
    patternCache.clear();
  }
  patternCache.set(pattern, re);
  return re;
};
