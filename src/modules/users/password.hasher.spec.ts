import { AppConfigService } from 'src/config/app-config.service';
import { PasswordHasher } from 'src/modules/users/password.hasher';

/** The parameters of a PHC string (`$argon2id$v=19$m=…,t=…,p=…$salt$hash`), in any order. */
const paramsOf = (hash: string): Record<string, string> => {
  const [, algorithm, , params] = hash.split('$');
  return { algorithm, ...Object.fromEntries(params.split(',').map((kv) => kv.split('='))) };
};

const hasherWith = (env: Record<string, string> = {}): PasswordHasher =>
  new PasswordHasher(AppConfigService.fromEnv({ APP_KEY: 'x'.repeat(32), NODE_ENV: 'test', ...env }));

describe('PasswordHasher', () => {
  it('should hash with argon2id at 64 MiB, 3 passes and 4 lanes by default, and verify the password', async () => {
    const hasher = hasherWith();
    const hash = await hasher.hash('correct horse battery staple');
    expect(paramsOf(hash)).toEqual({ algorithm: 'argon2id', m: '65536', t: '3', p: '4' });
    await expect(hasher.verify(hash, 'correct horse battery staple')).resolves.toBe(true);
    await expect(hasher.verify(hash, 'wrong')).resolves.toBe(false);
  });

  it('should take its cost from PASSWORD_HASH_*, and still verify hashes made with other parameters', async () => {
    const cheap = hasherWith({ PASSWORD_HASH_MEMORY_KIB: '2048', PASSWORD_HASH_TIME_COST: '2', PASSWORD_HASH_PARALLELISM: '1' });
    const hash = await cheap.hash('pw-one');
    expect(paramsOf(hash)).toEqual({ algorithm: 'argon2id', m: '2048', t: '2', p: '1' });
    await expect(hasherWith().verify(hash, 'pw-one')).resolves.toBe(true);
  });

  it('should refuse a memory cost below 1 MiB at start-up', () => {
    expect(() => hasherWith({ PASSWORD_HASH_MEMORY_KIB: '512' })).toThrow(/PASSWORD_HASH_MEMORY_KIB/);
  });

  it('should verify nothing for an account without a password, at the cost of a real check', async () => {
    await expect(hasherWith({ PASSWORD_HASH_MEMORY_KIB: '1024', PASSWORD_HASH_TIME_COST: '1' }).verify(PasswordHasher.NO_PASSWORD, '!')).resolves.toBe(false);
    await expect(hasherWith().verify(undefined, 'anything')).resolves.toBe(false);
  });
});
