import * as bcrypt from 'bcryptjs';
import { hashRecoveryCode, isTotpCode, matchesImportedRecoveryCode, newRecoveryCode, normalizeRecoveryCode } from 'src/modules/two-factor/recovery-codes';

describe('recovery codes', () => {
  it('should make codes of three groups of four unambiguous characters, without repeats', () => {
    const codes = Array.from({ length: 1000 }, newRecoveryCode);
    for (const code of codes) {
      expect(code).toMatch(/^[a-hjkmnp-z2-9]{4}-[a-hjkmnp-z2-9]{4}-[a-hjkmnp-z2-9]{4}$/);
    }
    expect(new Set(codes).size).toBe(1000);
  });

  it('should ignore case, spaces and dashes when a code is typed back', () => {
    expect(normalizeRecoveryCode('K7PQ-x3mn a9fz')).toBe('k7pqx3mna9fz');
    expect(hashRecoveryCode('1', 'K7PQX3MNA9FZ')).toBe(hashRecoveryCode('1', 'k7pq-x3mn-a9fz'));
  });

  it('should hash a code with its owner, so equal codes of two users differ', () => {
    expect(hashRecoveryCode('1', 'k7pq-x3mn-a9fz')).toMatch(/^[0-9a-f]{64}$/);
    expect(hashRecoveryCode('1', 'k7pq-x3mn-a9fz')).not.toBe(hashRecoveryCode('2', 'k7pq-x3mn-a9fz'));
  });

  it('should tell a TOTP code from a recovery code', () => {
    expect(isTotpCode('123456')).toBe(true);
    expect(isTotpCode('k7pq-x3mn-a9fz')).toBe(false);
    expect(isTotpCode('234567892345')).toBe(false);
  });

  it('should match a code imported from Pterodactyl against its bcrypt hash, case kept and spaces around it ignored', async () => {
    // Pterodactyl's Str::random(10), hashed by Laravel's bcrypt ($2y$).
    const hash = bcrypt.hashSync('aB3dE5fG7h', 4).replace(/^\$2b\$/, '$2y$');
    await expect(matchesImportedRecoveryCode(hash, 'aB3dE5fG7h')).resolves.toBe(true);
    await expect(matchesImportedRecoveryCode(hash, ' aB3dE5fG7h ')).resolves.toBe(true);
    await expect(matchesImportedRecoveryCode(hash, 'ab3de5fg7h')).resolves.toBe(false);
    await expect(matchesImportedRecoveryCode(hash, 'aB3dE5fG7')).resolves.toBe(false);
    await expect(matchesImportedRecoveryCode(hashRecoveryCode('1', 'aB3dE5fG7h'), 'aB3dE5fG7h')).resolves.toBe(false);
  });
});
