import { Injectable } from '@nestjs/common';
import * as argon2 from 'argon2';
import * as bcrypt from 'bcryptjs';
import { AppConfigService } from 'src/config/app-config.service';

/**
 * A bcrypt hash as Pterodactyl (Laravel) stores it: `$2y$`, or `$2a$`/`$2b$` (the same algorithm),
 * a two-digit cost, then 53 characters of salt and hash.
 */
const BCRYPT_HASH = /^\$2[aby]\$\d{2}\$[./A-Za-z0-9]{53}$/;

/**
 * argon2id; by default 64 MiB, t=3, p=4 (RFC 9106's second recommendation), set by PASSWORD_HASH_*.
 * bcrypt hashes carried over from Pterodactyl are verified too, never made: `needsRehash` tells the
 * caller to replace them once the password is known.
 */
@Injectable()
export class PasswordHasher {
  constructor(private readonly config: AppConfigService) {}

  // Verified against when no user matches, so that unknown accounts cost the same time as wrong passwords.
  private dummyHash?: Promise<string>;

  hash(password: string): Promise<string> {
    return argon2.hash(password, { type: argon2.argon2id, ...this.config.passwordHash });
  }

  /** An account without a usable password (created by invitation): it verifies nothing, at the cost of a real check. */
  static readonly NO_PASSWORD = '!';

  async verify(hash: string | undefined, password: string): Promise<boolean> {
    if (hash === undefined || hash === PasswordHasher.NO_PASSWORD) {
      this.dummyHash ??= this.hash('hatchery-timing-equaliser');
      await argon2.verify(await this.dummyHash, password).catch(() => false);
      return false;
    }
    try {
      // bcrypt reads only the first 72 bytes of the password, as it did in Pterodactyl.
      return BCRYPT_HASH.test(hash) ? await bcrypt.compare(password, hash) : await argon2.verify(hash, password);
    } catch {
      return false;
    }
  }

  /** Whether `hash` is one this hasher verifies but does not make (an imported bcrypt hash): replace it once the password matched. */
  needsRehash(hash: string): boolean {
    return BCRYPT_HASH.test(hash);
  }
}
