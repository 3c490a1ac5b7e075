import { createHash, randomInt } from 'node:crypto';

export const URL_SAFE_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
export const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A uniformly random string over `alphabet` from the CSPRNG. */
export const randomString = (length: number, alphabet: string): string => {
  let out = '';
  for (let i = 0; i < length; i++) {
    out += alphabet[randomInt(alphabet.length)];
  }
  return out;
};

export const sha256Hex = (value: string): string => createHash('sha256').update(value, 'utf8').digest('hex');
