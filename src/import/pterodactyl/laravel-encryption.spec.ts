import { createCipheriv, createHmac, randomBytes } from 'node:crypto';
import { LaravelDecryptError, LaravelDecryptErrorReason, LaravelEncrypter, LaravelKeyError } from 'src/import/pterodactyl/laravel-encryption';
import { laravelEncrypt, newLaravelAppKey, phpSerialize } from 'test/utils/laravel-encrypt';

/** Runs `fn` and returns the LaravelDecryptError it throws (failing the test if it throws anything else). */
const decryptError = (fn: () => unknown): LaravelDecryptError => {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(LaravelDecryptError);
    return error as LaravelDecryptError;
  }
  throw new Error('expected a LaravelDecryptError');
};

const reasonOf = (fn: () => unknown): LaravelDecryptErrorReason => decryptError(fn).reason;

type Fields = Record<string, unknown>;
const fieldsOf = (payload: string): Fields => JSON.parse(Buffer.from(payload, 'base64').toString('utf8'));
const payloadOf = (fields: Fields): string => Buffer.from(JSON.stringify(fields), 'utf8').toString('base64');
/** The MAC Laravel writes: hex HMAC-SHA256 of the two base64 texts under the raw key. */
const macOf = (key: Buffer, iv: string, value: string): string => createHmac('sha256', key).update(iv + value).digest('hex');

describe(LaravelEncrypter.name, () => {
  const appKey = newLaravelAppKey();
  const sut = new LaravelEncrypter(appKey);

  describe('decrypt', () => {
    it('should read a known-answer payload built by hand with a fixed key and iv', () => {
      const key = Buffer.from(Array.from({ length: 32 }, (_, i) => i));
      const iv = Buffer.from(Array.from({ length: 16 }, (_, i) => 0xa0 + i));
      const plain = 's:13:"héllo wörld";';
      const cipher = createCipheriv('aes-256-cbc', key, iv);
      const ivB64 = iv.toString('base64');
      const valueB64 = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]).toString('base64');
      const payload = payloadOf({ iv: ivB64, value: valueB64, mac: macOf(key, ivB64, valueB64), tag: '' });

      // The same payload as computed independently with the openssl command line.
      expect(payload).toBe(
        'eyJpdiI6Im9LR2lvNlNscHFlb3FhcXJySzJ1cnc9PSIsInZhbHVlIjoiSkNaanJtZTVoRXBoUllGeU1EbWJKM1hJOUFvMUtDdkl4alJDK1dVRUxjbz0iLCJtYWMiOiJkZDg5ZDIxYzQwZGIwNjNkZDc4ODMyZTk3ZTEzMGM2NmY0NWM2NThkNzgxZmM3MGExYThmYTU4YTRhNTkwOGFjIiwidGFnIjoiIn0=',
      );
      expect(new LaravelEncrypter(`base64:${key.toString('base64')}`).decrypt(payload)).toBe('héllo wörld');
    });

    it('should round-trip ASCII text', () => {
      const token = 'Vq3Lw9XyZ0aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789abcdefghijklmnopqr';
      expect(sut.decrypt(laravelEncrypt(token, appKey))).toBe(token);
    });

    it('should round-trip UTF-8 multi-byte text, whose serialized length counts bytes', () => {
      const text = 'pässwörd ✓ 🔑 日本';
      expect(phpSerialize(text)).toMatch(/^s:26:/); // 16 UTF-16 code units, 26 bytes
      expect(sut.decrypt(laravelEncrypt(text, appKey))).toBe(text);
    });

    it('should round-trip a string containing ";, quotes and colons', () => {
      const text = `a";b's:3:"x";"\\"; N;`;
      expect(sut.decrypt(laravelEncrypt(text, appKey))).toBe(text);
    });

    it('should round-trip the empty string', () => {
      expect(sut.decrypt(laravelEncrypt('', appKey))).toBe('');
    });

    it('should return null for a serialized null (N;)', () => {
      expect(sut.decrypt(laravelEncrypt(null, appKey))).toBeNull();
    });

    it('should return integers and booleans as their digits', () => {
      expect(sut.decrypt(laravelEncrypt('i:-42;', appKey, { unserialized: true }))).toBe('-42');
      expect(sut.decrypt(laravelEncrypt('b:1;', appKey, { unserialized: true }))).toBe('1');
      expect(sut.decrypt(laravelEncrypt('b:0;', appKey, { unserialized: true }))).toBe('0');
    });

    it('should read a payload without a tag (before Laravel 8)', () => {
      const payload = laravelEncrypt('old secret', appKey, { withoutTag: true });
      expect(fieldsOf(payload)).not.toHaveProperty('tag');
      expect(sut.decrypt(payload)).toBe('old secret');
    });

    it('should read a payload whose JSON escapes slashes (Laravel 5)', () => {
      // Encrypt until the base64 holds a slash, so that the escape is really exercised.
      let payload = '';
      do {
        payload = laravelEncrypt('escaped', appKey, { escapeSlashes: true });
      } while (!Buffer.from(payload, 'base64').toString('utf8').includes('\\/'));
      expect(sut.decrypt(payload)).toBe('escaped');
    });

    it('should tolerate whitespace around the payload', () => {
      expect(sut.decrypt(`  ${laravelEncrypt('spaced', appKey)}\n`)).toBe('spaced');
    });

    it('should accept a raw 32-character key', () => {
      const rawKey = 'abcdefghijklmnopqrstuvwxyz012345';
      expect(new LaravelEncrypter(rawKey).decrypt(laravelEncrypt('raw', rawKey))).toBe('raw');
    });

    it('should refuse a value encrypted under another key, saying the APP_KEY is probably not this panel', () => {
      const error = decryptError(() => new LaravelEncrypter(newLaravelAppKey()).decrypt(laravelEncrypt('secret', appKey)));
      expect(error.reason).toBe('mac');
      expect(error.message).toMatch(/APP_KEY is probably not this panel/);
      expect(error.message).not.toContain(appKey.slice('base64:'.length));
      expect(error.message).not.toContain('secret');
    });

    it('should refuse a tampered value', () => {
      const fields = fieldsOf(laravelEncrypt('secret', appKey));
      const value = Buffer.from(fields.value as string, 'base64');
      value[0] ^= 1;
      expect(reasonOf(() => sut.decrypt(payloadOf({ ...fields, value: value.toString('base64') })))).toBe('mac');
    });

    it('should refuse a MAC in another case or of another length', () => {
      const fields = fieldsOf(laravelEncrypt('secret', appKey));
      expect(reasonOf(() => sut.decrypt(payloadOf({ ...fields, mac: (fields.mac as string).toUpperCase() })))).toBe('mac');
      expect(reasonOf(() => sut.decrypt(payloadOf({ ...fields, mac: (fields.mac as string).slice(1) })))).toBe('mac');
    });

    it('should refuse what is not base64 of a JSON object', () => {
      expect(reasonOf(() => sut.decrypt('not base64 at all!'))).toBe('format');
      expect(reasonOf(() => sut.decrypt(''))).toBe('format');
      expect(reasonOf(() => sut.decrypt(Buffer.from('not json').toString('base64')))).toBe('format');
      expect(reasonOf(() => sut.decrypt(Buffer.from('["iv"]').toString('base64')))).toBe('format');
      expect(reasonOf(() => sut.decrypt(Buffer.from('null').toString('base64')))).toBe('format');
    });

    it('should refuse fields that are missing or not strings', () => {
      const fields = fieldsOf(laravelEncrypt('secret', appKey));
      expect(reasonOf(() => sut.decrypt(payloadOf({ ...fields, mac: undefined })))).toBe('format');
      expect(reasonOf(() => sut.decrypt(payloadOf({ ...fields, value: 42 })))).toBe('format');
      expect(reasonOf(() => sut.decrypt(payloadOf({ ...fields, iv: ['a'] })))).toBe('format');
    });

    it('should refuse an iv of the wrong length, even with a valid MAC', () => {
      const key = Buffer.from(appKey.slice('base64:'.length), 'base64');
      const fields = fieldsOf(laravelEncrypt('secret', appKey));
      const iv = randomBytes(12).toString('base64');
      const error = decryptError(() => sut.decrypt(payloadOf({ ...fields, iv, mac: macOf(key, iv, fields.value as string) })));
      expect(error.reason).toBe('format');
      expect(error.message).toMatch(/"iv"/);
    });

    it('should refuse a non-empty tag', () => {
      const fields = fieldsOf(laravelEncrypt('secret', appKey));
      expect(reasonOf(() => sut.decrypt(payloadOf({ ...fields, tag: randomBytes(16).toString('base64') })))).toBe('format');
    });

    it('should refuse a ciphertext with bad padding under a valid MAC', () => {
      const key = Buffer.from(appKey.slice('base64:'.length), 'base64');
      const iv = randomBytes(16);
      const cipher = createCipheriv('aes-256-cbc', key, iv).setAutoPadding(false);
      // A last byte of 0 is never valid PKCS#7 padding.
      const value = Buffer.concat([cipher.update(Buffer.alloc(16)), cipher.final()]).toString('base64');
      const ivB64 = iv.toString('base64');
      expect(reasonOf(() => sut.decrypt(payloadOf({ iv: ivB64, value, mac: macOf(key, ivB64, value), tag: '' })))).toBe('cipher');
    });

    it('should refuse a serialized array or object', () => {
      expect(reasonOf(() => sut.decrypt(laravelEncrypt('a:0:{}', appKey, { unserialized: true })))).toBe('serialized');
      expect(reasonOf(() => sut.decrypt(laravelEncrypt('O:8:"stdClass":0:{}', appKey, { unserialized: true })))).toBe('serialized');
    });

    it('should refuse a string whose stated length is wrong, without quoting it', () => {
      // "héllo" is 6 bytes in UTF-8: 5 counts characters.
      const error = decryptError(() => sut.decrypt(laravelEncrypt('s:5:"héllo";', appKey, { unserialized: true })));
      expect(error.reason).toBe('serialized');
      expect(error.message).not.toContain('héllo');
      expect(reasonOf(() => sut.decrypt(laravelEncrypt('s:7:"héllo";', appKey, { unserialized: true })))).toBe('serialized');
      expect(reasonOf(() => sut.decrypt(laravelEncrypt('s:99:"short";', appKey, { unserialized: true })))).toBe('serialized');
      expect(reasonOf(() => sut.decrypt(laravelEncrypt('s:x:"short";', appKey, { unserialized: true })))).toBe('serialized');
    });

    it('should refuse bytes after the value and other malformed forms', () => {
      for (const plain of ['s:1:"a";x', 'N;N;', 'i:4.2;', 'b:2;', 'd:0.5;', 'plain text', '']) {
        expect(reasonOf(() => sut.decrypt(laravelEncrypt(plain, appKey, { unserialized: true })))).toBe('serialized');
      }
    });
  });

  describe('decryptUnserialized', () => {
    it('should return the decrypted text without unserializing it (decryptString)', () => {
      expect(sut.decryptUnserialized(laravelEncrypt('plain ✓ text', appKey, { unserialized: true }))).toBe('plain ✓ text');
      expect(sut.decryptUnserialized(laravelEncrypt('serialized', appKey))).toBe('s:10:"serialized";');
    });

    it('should check the MAC as decrypt does', () => {
      expect(reasonOf(() => new LaravelEncrypter(newLaravelAppKey()).decryptUnserialized(laravelEncrypt('x', appKey, { unserialized: true })))).toBe('mac');
    });
  });

  describe('constructor', () => {
    it.each([
      ['base64: of 16 bytes', `base64:${randomBytes(16).toString('base64')}`],
      ['base64: of 33 bytes', `base64:${randomBytes(33).toString('base64')}`],
      ['base64: of something that is not base64', 'base64:%%%not-base64%%%'],
      ['a short random string', 'SomeRandomString'],
      ['a 32-character key of multi-byte characters', 'é'.repeat(32)],
      ['the empty string', ''],
    ])('should refuse %s, explaining what an APP_KEY looks like without quoting it', (_, key) => {
      let error: unknown;
      try {
        new LaravelEncrypter(key);
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(LaravelKeyError);
      const { message } = error as LaravelKeyError;
      expect(message).toMatch(/base64:/);
      expect(message).toMatch(/32 bytes/);
      if (key !== '') {
        expect(message).not.toContain(key);
        expect(message).not.toContain(key.slice('base64:'.length));
      }
    });

    it('should accept a base64: key with surrounding whitespace', () => {
      expect(new LaravelEncrypter(` ${appKey}\n`).decrypt(laravelEncrypt('ok', appKey))).toBe('ok');
    });
  });
});
