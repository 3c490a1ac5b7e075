import { hash, randomInt } from 'node:crypto';

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

/** One-shot `crypto.hash` (Node ≥ 20.12): it runs on every authenticated request, and skips building a Hash object. */
export const sha256Hex = (value: string): string => hash('sha256', value, 'hex');
