import * as bcrypt from 'bcryptjs';
import { AppConfigService } from 'src/config/app-config.service';
import { PasswordHasher } from 'src/modules/users/password.hasher';

/** The parameters of a PHC string (`$argon2id$v=19$m=…,t=…,p=…$salt$hash`), in any order. */
const paramsOf = (hash: string): Record<string, string> => {
  const [, algorithm, , params] = hash.split('$');
  return { algorithm, ...Object.fromEntries(params.split(',').map((kv) => kv.split('='))) };
};

const hasherWith = (env: Record<string, string> = {}): PasswordHasher =>
  new PasswordHasher(AppConfigService.fromEnv({ APP_KEY: 'x'.repeat(32), NODE_ENV: 'test', ...env }));

describe(PasswordHasher.name, () => {
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

  describe('bcrypt hashes carried over from Pterodactyl', () => {
    // Cost 4, the least bcrypt allows: the check costs the same at any cost, only slower.
    const bcryptHash = bcrypt.hashSync('hunter2-from-pterodactyl', 4);
    const cheap = hasherWith({ PASSWORD_HASH_MEMORY_KIB: '1024', PASSWORD_HASH_TIME_COST: '1' });

    it.each(['$2y$', '$2a$', '$2b$'])('should verify a %s hash, and refuse a wrong password', async (prefix) => {
      const hash = `${prefix}${bcryptHash.slice(4)}`;
      expect(hash).toHaveLength(60);
      await expect(cheap.verify(hash, 'hunter2-from-pterodactyl')).resolves.toBe(true);
      await expect(cheap.verify(hash, 'hunter2-from-pterodactyL')).resolves.toBe(false);
      await expect(cheap.verify(hash, '')).resolves.toBe(false);
    });

    it('should verify Laravel\'s own $2y$10$ hash of "password"', async () => {
      // Hash::make('password') from a Laravel app (the hash in Laravel's UserFactory).
      const laravel = '$2y$10$92IXUNpkjO0rOQ5byMi.Ye4oKoEa3Ro9llC/.og/at2.uheWG/igi';
      await expect(cheap.verify(laravel, 'password')).resolves.toBe(true);
      await expect(cheap.verify(laravel, 'Password')).resolves.toBe(false);
    });

    it('should compare only the first 72 bytes of the password, as bcrypt does', async () => {
      const long = 'x'.repeat(72);
      const hash = bcrypt.hashSync(long, 4).replace(/^\$2b\$/, '$2y$');
      await expect(cheap.verify(hash, `${long}and more`)).resolves.toBe(true);
    });

    it('should refuse hashes of other shapes, as before', async () => {
      for (const hash of [`$2x$${bcryptHash.slice(4)}`, bcryptHash.slice(0, 59), `${bcryptHash}x`, '$1$abc$def', 'plain text', '']) {
        await expect(cheap.verify(hash, 'hunter2-from-pterodactyl')).resolves.toBe(false);
      }
    });

    it('should ask for a rehash of a bcrypt hash only', async () => {
      expect(cheap.needsRehash(bcryptHash)).toBe(true);
      expect(cheap.needsRehash(`$2y$${bcryptHash.slice(4)}`)).toBe(true);
      expect(cheap.needsRehash(`$2a$${bcryptHash.slice(4)}`)).toBe(true);
      expect(cheap.needsRehash(await cheap.hash('pw'))).toBe(false);
      expect(cheap.needsRehash(PasswordHasher.NO_PASSWORD)).toBe(false);
      expect(cheap.needsRehash('plain text')).toBe(false);
    });
  });
});
