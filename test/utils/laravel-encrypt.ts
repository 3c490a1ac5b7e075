import { createCipheriv, createHmac, randomBytes } from 'node:crypto';

/**
 * Encrypts the way Laravel's `Encrypter::encrypt($value)` does with `serialize = true` and cipher
 * AES-256-CBC (docs/pterodactyl-source-schema.md, section 3), for test databases that look like Pterodactyl's:
 * base64 of the JSON `{iv, value, mac, tag}`, where `value` is base64 of the CBC ciphertext of the
 * PHP-serialized plaintext and `mac` the hex HMAC-SHA256 of `iv . value` under the raw key.
 */

/** A Laravel `APP_KEY` as `.env` holds it: `base64:` and 32 random bytes. */
export const newLaravelAppKey = (): string => `base64:${randomBytes(32).toString('base64')}`;

const rawKey = (appKey: string): Buffer => (appKey.startsWith('base64:') ? Buffer.from(appKey.slice('base64:'.length), 'base64') : Buffer.from(appKey, 'utf8'));

/** PHP's `serialize()` of a string (`s:<bytes>:"…";`) or of null (`N;`). */
export const phpSerialize = (value: string | null): string => (value === null ? 'N;' : `s:${Buffer.byteLength(value, 'utf8')}:"${value}";`);

interface LaravelEncryptOptions {
  /** Leave `tag` out, as payloads written before Laravel 8 did. */
  withoutTag?: boolean;
  /** Escape `/` as `\/` in the JSON, as Laravel 5 did. */
  escapeSlashes?: boolean;
  /** Encrypt this text as is, without PHP serialization (what `encryptString` does). */
  unserialized?: boolean;
}

export const laravelEncrypt = (value: string | null, appKey: string, options: LaravelEncryptOptions = {}): string => {
  const key = rawKey(appKey);
  const iv = randomBytes(16);
  const cipher = createCipheriv('aes-256-cbc', key, iv);
  const plain = options.unserialized ? (value ?? '') : phpSerialize(value);
  const ivB64 = iv.toString('base64');
  const valueB64 = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]).toString('base64');
  const mac = createHmac('sha256', key).update(ivB64 + valueB64).digest('hex');
  const payload: Record<string, string> = { iv: ivB64, value: valueB64, mac };
  if (!options.withoutTag) {
    payload.tag = '';
  }
  let json = JSON.stringify(payload);
  if (options.escapeSlashes) {
    json = json.replace(/\//g, '\\/');
  }
  return Buffer.from(json, 'utf8').toString('base64');
};
