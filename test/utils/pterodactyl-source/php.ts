import { randomInt } from 'node:crypto';
import { hash } from 'bcryptjs';

/** What PHP and Laravel write, for rows that must look as the old panel wrote them. */

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

const randomFrom = (alphabet: string, length: number): string => {
  let out = '';
  for (let i = 0; i < length; i++) {
    out += alphabet[randomInt(alphabet.length)];
  }
  return out;
};

/** Laravel's `Str::random($length)`: letters and digits. */
export const strRandom = (length: number): string => randomFrom(ALPHANUMERIC, length);

/** A TOTP secret as Pterodactyl's TwoFactorSetupService makes it: 32 characters of base32 (A-Z, 2-7), no padding. */
export const totpSecret = (): string => randomFrom(BASE32, 32);

/**
 * Pterodactyl's `Utilities::randomStringWithSpecialCharacters(24)` for database passwords: a
 * `Str::random` string with a few characters swapped for specials.
 */
export const databasePassword = (length = 24): string => {
  const chars = strRandom(length).split('');
  const specials = '!@=.+^';
  const swaps = 2 + randomInt(5);
  for (let i = 0; i < swaps; i++) {
    chars[randomInt(length)] = specials[randomInt(specials.length)];
  }
  return chars.join('');
};

/**
 * PHP's `json_encode()` without flags, which Laravel's `array`/`collection` casts use: `/` escaped
 * as `\/` and every non-ASCII character as `\uXXXX` (UTF-16 units, lower-case hex).
 */
export const phpJsonEncode = (value: unknown): string =>
  JSON.stringify(value)
    .replace(/\//g, '\\/')
    .replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

type PhpValue = string | number | boolean | null | PhpValue[] | { [key: string]: PhpValue };

/** PHP's `serialize()` of strings, integers, booleans, null and arrays (lists and string-keyed maps). */
export const phpSerializeValue = (value: PhpValue): string => {
  if (value === null) {
    return 'N;';
  }
  if (typeof value === 'string') {
    return `s:${Buffer.byteLength(value, 'utf8')}:"${value}";`;
  }
  if (typeof value === 'number') {
    return `i:${Math.trunc(value)};`;
  }
  if (typeof value === 'boolean') {
    return `b:${value ? 1 : 0};`;
  }
  const entries: [string | number, PhpValue][] = Array.isArray(value) ? value.map((v, i) => [i, v]) : Object.entries(value);
  const body = entries.map(([k, v]) => `${typeof k === 'number' ? `i:${k};` : phpSerializeValue(k)}${phpSerializeValue(v)}`).join('');
  return `a:${entries.length}:{${body}}`;
};

/**
 * `Hash::make()` / `password_hash(…, PASSWORD_DEFAULT)` as Pterodactyl runs them: bcrypt, cost 10,
 * written with PHP's `$2y$` prefix (the same algorithm as the `$2b$` bcryptjs writes).
 */
export const bcryptHash = async (plain: string): Promise<string> => (await hash(plain, 10)).replace(/^\$2[ab]\$/, '$2y$');
