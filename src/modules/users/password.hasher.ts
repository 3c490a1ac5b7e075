import { Injectable } from '@nestjs/common';
import * as argon2 from 'argon2';
import { AppConfigService } from 'src/config/app-config.service';

/** argon2id; by default 64 MiB, t=3, p=4 (RFC 9106's second recommendation), set by PASSWORD_HASH_*. */
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
      return await argon2.verify(hash, password);
    } catch {
      return false;
    }
  }
}
