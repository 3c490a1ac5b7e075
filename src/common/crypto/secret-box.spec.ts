import { AppConfigService } from 'src/config/app-config.service';
import { SecretBox } from 'src/common/crypto/secret-box';

const box = (appKey: string): SecretBox => new SecretBox(AppConfigService.fromEnv({ APP_KEY: appKey }));

describe(SecretBox.name, () => {
  const sut = box('a'.repeat(40));

  it('should open what it sealed, with a fresh IV each time', () => {
    const a = sut.seal('node secret', 'node:1:token');
    const b = sut.seal('node secret', 'node:1:token');
    expect(a).not.toBe(b);
    expect(a).toMatch(/^v1:[\w-]+:[\w-]+:[\w-]+$/);
    expect(a).not.toContain('node secret');
    expect(sut.open(a, 'node:1:token')).toBe('node secret');
    expect(sut.open(b, 'node:1:token')).toBe('node secret');
  });

  it('should refuse a value sealed for another context', () => {
    const sealed = sut.seal('node secret', 'node:1:token');
    expect(() => sut.open(sealed, 'node:2:token')).toThrow();
  });

  it('should refuse a tampered value', () => {
    const [v, iv, tag, body] = sut.seal('node secret', 'ctx').split(':');
    const flipped = Buffer.from(body, 'base64url');
    flipped[0] ^= 1;
    expect(() => sut.open([v, iv, tag, flipped.toString('base64url')].join(':'), 'ctx')).toThrow();
  });

  it('should refuse a value sealed under another APP_KEY', () => {
    const sealed = sut.seal('node secret', 'ctx');
    expect(() => box('b'.repeat(40)).open(sealed, 'ctx')).toThrow();
  });
});
