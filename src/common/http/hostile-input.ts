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

/** At most this many fields are listed when several strings hold a NUL; the first ones say enough. */
const MAX_NUL_FIELDS = 10;

const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

interface JsonScan {
  tooDeep: boolean;
  /** A string (key or value) holds `\u0000`; JSON text cannot carry a raw NUL inside a string. */
  hasNul: boolean;
}

/**
 * One linear pass over JSON text before it is parsed: the nesting depth (brackets inside strings do not
 * count) and whether a string escapes a NUL. Malformed text is left for the parser to refuse.
 */
export const scanJson = (text: string, maxDepth = MAX_JSON_DEPTH): JsonScan => {
  let depth = 0;
  let inString = false;
  let hasNul = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) {
        if (text.startsWith('u0000', i + 1)) {
          hasNul = true;
        }
        i++;
      } else if (c === QUOTE) {
        inString = false;
      }
    } else if (c === QUOTE) {
      inString = true;
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (++depth > maxDepth) {
        return { tooDeep: true, hasNul };
      }
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      depth--;
    }
  }
  return { tooDeep: false, hasNul };
};

const hasNulChar = (s: string): boolean => s.includes('\u0000');

/** A key as a field name: a NUL (or other control character) in it is shown escaped, as JSON writes it. */
const keyName = (key: string): string => ([...key].some((ch) => ch < ' ') ? JSON.stringify(key).slice(1, -1) : key);

/** The fields (named as validation errors name them: `a.b.0.c`) whose string, or key, holds a NUL. */
export const nulFields = (value: unknown, path = '', out: string[] = []): string[] => {
  if (out.length >= MAX_NUL_FIELDS) {
    return out;
  }
  if (typeof value === 'string') {
    if (hasNulChar(value)) {
      out.push(path || '(body)');
    }
    return out;
  }
  if (value === null || typeof value !== 'object') {
    return out;
  }
  for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
    const field = path ? `${path}.${keyName(key)}` : keyName(key);
    if (hasNulChar(key)) {
      out.push(field);
    }
    nulFields(child, field, out);
  }
  return out;
};

/**
 * The 400 for strings holding NUL. PostgreSQL's text and jsonb cannot store the character at all, and no name, path
 * or command needs it, so it is refused at the edge for every route rather than failing in the database.
 */
export const nulRefusal = (fields: string[]): AppException =>
  new AppException(CommonError.VALIDATION_FAILED, {
    details: fields.slice(0, MAX_NUL_FIELDS).map((field): FieldError => ({ field, message: `${field} must not contain the NUL character (\\u0000)` })),
  });

export const tooDeepRefusal = (): AppException => new AppException(CommonError.JSON_TOO_DEEP, { message: `The request body nests deeper than ${MAX_JSON_DEPTH} levels` });
