import { AppException } from 'src/common/errors/app.exception';
import { CommonError } from 'src/common/errors/error-codes';
import type { FieldError } from 'src/common/validation/validation.pipe';

/**
 * How deep a JSON body may nest (objects and arrays counted). The deepest bodies the API takes are an egg import
 * (`{egg: {variables: [{...}]}}`: 4 levels) and Wings' activity batches (`{data: [{metadata: {files: [...]}}]}`: 5);
 * 32 leaves room for whatever a client or a future field nests, and stops long before class-transformer's and
 * class-validator's recursion (a chain of stack frames per level) gets costly or overflows.
 */
export const MAX_JSON_DEPTH = 32;

/** At most this many fields are listed when several strings hold a NUL or a lone surrogate; the first ones say enough. */
const MAX_FAULT_FIELDS = 10;

const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

interface JsonScan {
  tooDeep: boolean;
  /** A string (key or value) escapes `\u0000`; JSON text cannot carry a raw NUL inside a string. */
  hasNul: boolean;
  /**
   * A string escapes a UTF-16 surrogate (`\ud800` to `\udfff`), paired or not. Text decoded from UTF-8 cannot
   * hold a surrogate any other way (a malformed byte becomes U+FFFD), so only then is the parsed body checked.
   */
  hasSurrogate: boolean;
}

/** `\uDXXX` with X in 8..F: the escape of a surrogate code unit (`i` is the index of the `u`). */
const isSurrogateEscape = (text: string, i: number): boolean => {
  const d = text.charCodeAt(i + 1);
  const next = text.charCodeAt(i + 2);
  // 'd'/'D', then '8'-'9', 'a'-'f' or 'A'-'F'.
  return (d === 0x64 || d === 0x44) && ((next >= 0x38 && next <= 0x39) || (next >= 0x61 && next <= 0x66) || (next >= 0x41 && next <= 0x46));
};

/**
 * One linear pass over JSON text before it is parsed: the nesting depth (brackets inside strings do not
 * count), and whether a string escapes a NUL or a surrogate. Malformed text is left for the parser to refuse.
 */
export const scanJson = (text: string, maxDepth = MAX_JSON_DEPTH): JsonScan => {
  let depth = 0;
  let inString = false;
  let hasNul = false;
  let hasSurrogate = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) {
        if (text.startsWith('u0000', i + 1)) {
          hasNul = true;
        } else if (text.charCodeAt(i + 1) === 0x75 && isSurrogateEscape(text, i + 1)) {
          hasSurrogate = true;
        }
        i++;
      } else if (c === QUOTE) {
        inString = false;
      }
    } else if (c === QUOTE) {
      inString = true;
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (++depth > maxDepth) {
        return { tooDeep: true, hasNul, hasSurrogate };
      }
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      depth--;
    }
  }
  return { tooDeep: false, hasNul, hasSurrogate };
};

/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** What makes a string unfit to store: PostgreSQL's text and jsonb refuse both (jsonb with an error, so a 500). */
type TextFault = 'nul' | 'surrogate';

const faultOf = (s: string): TextFault | undefined => (s.includes('\u0000') ? 'nul' : LONE_SURROGATE.test(s) ? 'surrogate' : undefined);

const FAULT_MESSAGES: Record<TextFault, (field: string) => string> = {
  nul: (field) => `${field} must not contain the NUL character (\\u0000)`,
  surrogate: (field) => `${field} must not contain a lone surrogate (\\ud800 to \\udfff without its pair): it is not valid Unicode text`,
};

/** A key as a field name: a NUL, other control character or lone surrogate in it is shown escaped, as JSON writes it. */
const keyName = (key: string): string => ([...key].some((ch) => ch < ' ') || LONE_SURROGATE.test(key) ? JSON.stringify(key).slice(1, -1) : key);

/**
 * The fields (named as validation errors name them: `a.b.0.c`) whose string, or key, holds a NUL or a lone
 * surrogate, each with what is wrong with it.
 */
export const textFaults = (value: unknown, path = '', out: FieldError[] = []): FieldError[] => {
  if (out.length >= MAX_FAULT_FIELDS) {
    return out;
  }
  if (typeof value === 'string') {
    const fault = faultOf(value);
    if (fault) {
      const field = path || '(body)';
      out.push({ field, message: FAULT_MESSAGES[fault](field) });
    }
    return out;
  }
  if (value === null || typeof value !== 'object') {
    return out;
  }
  for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
    const field = path ? `${path}.${keyName(key)}` : keyName(key);
    const fault = faultOf(key);
    if (fault && out.length < MAX_FAULT_FIELDS) {
      out.push({ field, message: FAULT_MESSAGES[fault](field) });
    }
    textFaults(child, field, out);
  }
  return out;
};

/**
 * The 400 for strings holding a NUL or a lone surrogate. PostgreSQL cannot store either (jsonb refuses both with an
 * error, text refuses the NUL), and no name, path or command needs them, so they are refused at the edge for every
 * route rather than failing in the database.
 */
export const textRefusal = (faults: FieldError[]): AppException =>
  new AppException(CommonError.VALIDATION_FAILED, { details: faults.slice(0, MAX_FAULT_FIELDS) });

export const tooDeepRefusal = (): AppException => new AppException(CommonError.JSON_TOO_DEEP, { message: `The request body nests deeper than ${MAX_JSON_DEPTH} levels` });
