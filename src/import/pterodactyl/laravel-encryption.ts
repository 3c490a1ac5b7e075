import { createDecipheriv, createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Reads values written by Laravel's `Encrypter::encrypt()` with cipher AES-256-CBC, as a Pterodactyl
 * panel stores node tokens, TOTP secrets, API key secrets and database passwords.
 * The format is described in docs/pterodactyl-source-schema.md (sections 2 and 3): base64 of the JSON
 * `{iv, value, mac, tag}`, `mac` = hex HMAC-SHA256 of `iv . value` (the base64 texts) under the raw key,
 * `value` = base64 of the CBC ciphertext of the PHP-serialized plaintext.
 */

const KEY_BYTES = 32;
const IV_BYTES = 16;
/** Standard base64 with its padding, as PHP's `base64_encode` writes it. */
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

export class LaravelKeyError extends Error {
  constructor(detail: string) {
    super(
      `Not a usable Laravel APP_KEY (${detail}): it looks like "base64:" followed by the base64 of 32 bytes, ` +
        `as in the APP_KEY line of the panel's .env file (a raw key of exactly 32 bytes is also accepted).`,
    );
    this.name = 'LaravelKeyError';
  }
}

export type LaravelDecryptErrorReason = 'format' | 'mac' | 'cipher' | 'serialized';

export class LaravelDecryptError extends Error {
  constructor(
    readonly reason: LaravelDecryptErrorReason,
    message: string,
  ) {
    super(message);
    this.name = 'LaravelDecryptError';
  }
}

const formatError = (detail: string): LaravelDecryptError => new LaravelDecryptError('format', `Not a Laravel-encrypted value: ${detail}.`);
const serializedError = (detail: string): LaravelDecryptError =>
  new LaravelDecryptError('serialized', `The decrypted value is not a PHP-serialized string or null: ${detail}.`);

const decodeBase64 = (text: string): Buffer | undefined => (BASE64.test(text) ? Buffer.from(text, 'base64') : undefined);

export class LaravelEncrypter {
  private readonly key: Buffer;

  constructor(appKey: string) {
    if (appKey.trim().startsWith('base64:')) {
      const key = decodeBase64(appKey.trim().slice('base64:'.length));
      if (!key) {
        throw new LaravelKeyError('the part after "base64:" is not valid base64');
      }
      if (key.length !== KEY_BYTES) {
        throw new LaravelKeyError(`the part after "base64:" decodes to ${key.length} bytes instead of ${KEY_BYTES}`);
      }
      this.key = key;
    } else {
      const key = Buffer.from(appKey, 'utf8');
      if (key.length !== KEY_BYTES) {
        throw new LaravelKeyError(`it does not start with "base64:" and is ${key.length} bytes long instead of ${KEY_BYTES}`);
      }
      this.key = key;
    }
  }

  /** Laravel's `decrypt($payload)`: the PHP-serialized string (or null, for `N;`) inside the payload. */
  decrypt(payload: string): string | null {
    return unserialize(this.open(payload));
  }

  /** Laravel's `decryptString($payload)`: the decrypted text as is, without PHP unserialization. */
  decryptUnserialized(payload: string): string {
    const plain = this.open(payload);
    try {
      return utf8.decode(plain);
    } catch {
      throw new LaravelDecryptError('cipher', 'The decrypted value is not UTF-8 text.');
    }
  }

  /** Checks the payload's shape and MAC, then returns the decrypted bytes. */
  private open(payload: string): Buffer {
    const json = decodeBase64(payload.trim());
    if (!json || json.length === 0) {
      throw formatError('the payload is not base64');
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(json.toString('utf8'));
    } catch {
      throw formatError('the payload is not base64 of JSON');
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      throw formatError('the payload is not base64 of a JSON object');
    }
    const { iv, value, mac, tag } = parsed as Record<string, unknown>;
    if (typeof iv !== 'string' || typeof value !== 'string' || typeof mac !== 'string') {
      throw formatError('"iv", "value" and "mac" must all be strings');
    }
    // Laravel treats a missing, null or empty tag as none; AES-256-CBC has no tag, so any other is refused.
    if (tag !== undefined && tag !== null && tag !== '') {
      throw formatError('"tag" must be empty for AES-256-CBC');
    }
    const ivBytes = decodeBase64(iv);
    if (!ivBytes || ivBytes.length !== IV_BYTES) {
      throw formatError(`"iv" must be base64 of ${IV_BYTES} bytes`);
    }
    const ciphertext = decodeBase64(value);
    if (!ciphertext) {
      throw formatError('"value" is not base64');
    }

    const expected = Buffer.from(createHmac('sha256', this.key).update(iv + value).digest('hex'), 'utf8');
    const given = Buffer.from(mac, 'utf8');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      throw new LaravelDecryptError(
        'mac',
        "The value's MAC does not match: the APP_KEY is probably not this panel's (or the value was altered).",
      );
    }

    try {
      const decipher = createDecipheriv('aes-256-cbc', this.key, ivBytes);
      return Buffer.concat([decipher.update(ciphertext), decipher.final()]);
    } catch {
      throw new LaravelDecryptError('cipher', 'The value could not be decrypted with AES-256-CBC (bad length or padding).');
    }
  }
}

const PHP_TYPES: Record<string, string> = { a: 'an array', O: 'an object', C: 'an object', E: 'an enum', d: 'a float', S: 'an escaped string', r: 'a reference', R: 'a reference' };

/**
 * PHP's `unserialize()` for the forms Pterodactyl stores: `s:<bytes>:"…";` (the length counts UTF-8 bytes,
 * so this works on the Buffer), `N;`, and for completeness `i:<int>;` and `b:0;`/`b:1;` (as their digits).
 * Anything else, or bytes after the value, is refused. Messages never quote the plaintext.
 */
const unserialize = (plain: Buffer): string | null => {
  const head = plain.subarray(0, 2).toString('latin1');
  if (head === 'N;') {
    if (plain.length !== 2) {
      throw serializedError('bytes follow the value');
    }
    return null;
  }
  if (head === 'i:' || head === 'b:') {
    const text = plain.toString('latin1');
    const match = head === 'i:' ? /^i:(-?\d+);$/.exec(text) : /^b:([01]);$/.exec(text);
    if (!match) {
      throw serializedError(head === 'i:' ? 'a malformed integer' : 'a malformed boolean');
    }
    return match[1];
  }
  if (head !== 's:') {
    throw serializedError(`found ${PHP_TYPES[head.charAt(0)] ?? 'an unknown form'}`);
  }
  const lengthEnd = plain.indexOf(':', 2);
  const lengthText = lengthEnd < 0 ? '' : plain.subarray(2, lengthEnd).toString('latin1');
  if (!/^\d{1,10}$/.test(lengthText)) {
    throw serializedError('a malformed string length');
  }
  const length = Number(lengthText);
  const start = lengthEnd + 2;
  const end = start + length;
  if (plain[lengthEnd + 1] !== 0x22 /* " */ || end + 2 > plain.length || plain[end] !== 0x22 || plain[end + 1] !== 0x3b /* ; */) {
    throw serializedError('the string does not match its stated length');
  }
  if (end + 2 !== plain.length) {
    throw serializedError('bytes follow the value');
  }
  try {
    return utf8.decode(plain.subarray(start, end));
  } catch {
    throw serializedError('the string is not UTF-8 text');
  }
};
