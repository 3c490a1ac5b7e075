import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { BackgroundTasks } from 'src/common/background/background-tasks';
import { Clock } from 'src/common/clock';
import { SecretBox } from 'src/common/crypto/secret-box';
import { sha256Hex } from 'src/common/crypto/tokens';
import { AppException } from 'src/common/errors/app.exception';
import { AppConfigService } from 'src/config/app-config.service';
import { AuditService } from 'src/modules/audit/audit.service';
import type { Actor } from 'src/common/auth/current-actor.decorator';
import { MailMessage, MailService } from 'src/modules/mail/mail.service';
import type { AuthenticationCredentialDto } from 'src/modules/passkeys/dto/webauthn.dto';
import { PasskeyError } from 'src/modules/passkeys/passkeys.errors';
import { PasskeysService } from 'src/modules/passkeys/passkeys.service';
import { UserEntity } from 'src/modules/users/user.entity';
import { UserError } from 'src/modules/users/users.errors';
import { UsersService } from 'src/modules/users/users.service';
import {
  hashRecoveryCode,
  IMPORTED_RECOVERY_CODE_PREFIX,
  isTotpCode,
  matchesImportedRecoveryCode,
  newRecoveryCode,
  RECOVERY_CODE_COUNT,
} from 'src/modules/two-factor/recovery-codes';
import { matchTotp, newTotpSecret, totpUri } from 'src/modules/two-factor/totp';
import { recoveryCodeUsedNotice, twoFactorDisabledNotice, twoFactorEnabledNotice, twoFactorResetNotice } from 'src/modules/two-factor/two-factor-notices';
import { TwoFactorError } from 'src/modules/two-factor/two-factor.errors';
import { TwoFactorRepository } from 'src/modules/two-factor/two-factor.repository';
import { totpSecretContext } from 'src/modules/two-factor/user-two-factor.entity';

const TOTP_ISSUER = 'Hatchery';

/** How long the step after the password waits for its code, and how many codes it takes (docs/api.md#two-factor-sign-in). */
const CHALLENGE_LIFETIME_SECONDS = 300;
const CHALLENGE_MAX_ATTEMPTS = 5;
const CHALLENGE_BYTES = 32;

/** A second factor the step after the password takes: a TOTP code (or recovery code), or a passkey. */
type SecondFactorMethod = 'totp' | 'passkey';

/** What a 401 TWO_FACTOR_REQUIRED carries in `details`. */
interface TwoFactorChallenge {
  challenge: string;
  expiresInSeconds: number;
  /** What the user can answer with, so that a client offers only those. */
  methods: SecondFactorMethod[];
}

/** What the step after the password takes: a code, or a passkey's answer to `passkeyOptions`. */
export type SecondFactorProof = { code: string } | { passkey: AuthenticationCredentialDto };

/** The second factors the user has; the password alone signs in when there are none. */
const methodsOf = (user: UserEntity): SecondFactorMethod[] => [
  ...(user.twoFactorEnabled ? (['totp'] as const) : []),
  ...(user.hasPasskey ? (['passkey'] as const) : []),
];

/** TOTP two-factor sign-in (RFC 6238) with one-time recovery codes. */
@Injectable()
export class TwoFactorService {
  constructor(
    private readonly repo: TwoFactorRepository,
    private readonly users: UsersService,
    private readonly box: SecretBox,
    private readonly clock: Clock,
    private readonly mail: MailService,
    private readonly tasks: BackgroundTasks,
    private readonly config: AppConfigService,
    private readonly audit: AuditService,
    private readonly passkeys: PasskeysService,
  ) {}

  /** Starts (or restarts) setup: a new secret, not yet in force until `enable` confirms a code of it. */
  async setup(user: UserEntity): Promise<{ secret: string; uri: string }> {
    if (user.twoFactorEnabled) {
      throw new AppException(TwoFactorError.ALREADY_ENABLED);
    }
    const secret = newTotpSecret();
    await this.repo.savePending(user.id, this.box.seal(secret, totpSecretContext(user.id)), this.clock.now());
    return { secret, uri: totpUri(secret, TOTP_ISSUER, user.email) };
  }

  /**
   * Turns two-factor sign-in on once `code` matches the pending secret; returns the recovery codes,
   * shown this once. A caller that is not a signed-in session (the Pterodactyl layer's key) must also
   * give the account's `password`, checked first.
   */
  async enable(user: UserEntity, code: string, actor: Actor, password?: string): Promise<string[]> {
    if (password !== undefined) {
      await this.checkPassword(user, password);
    }
    if (user.twoFactorEnabled) {
      throw new AppException(TwoFactorError.ALREADY_ENABLED);
    }
    const pending = await this.repo.find(user.id);
    if (!pending || pending.confirmedAt !== null) {
      throw new AppException(TwoFactorError.NOT_SET_UP);
    }
    const step = matchTotp(this.box.open(pending.secretSealed, totpSecretContext(user.id)), code, this.clock.now());
    if (step === null) {
      throw new AppException(TwoFactorError.INCORRECT_CODE);
    }
    const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
    await this.repo.transaction(async (manager) => {
      // The code's step counts as used: it cannot be replayed to sign in.
      if (!(await this.repo.confirm(user.id, pending.secretSealed, step, this.clock.now(), manager))) {
        throw new AppException(TwoFactorError.NOT_SET_UP); // a concurrent setup or enable changed it
      }
      const hashes = codes.map((c) => hashRecoveryCode(user.id, c));
      await this.repo.replaceRecoveryCodes(user.id, hashes, this.clock.now(), manager);
      await this.users.setColumns(user.id, { twoFactorEnabled: true }, manager);
      await this.audit.record(manager, actor, { action: 'user.two_factor_enabled', targetType: 'user', targetId: user.id });
    });
    this.notify(user, twoFactorEnabledNotice(user, this.config.http.appUrl), 'two-factor enabled notice');
    return codes;
  }

  /** Turns two-factor sign-in off after the password is confirmed; the secret and recovery codes are deleted. */
  async disable(user: UserEntity, password: string, actor: Actor): Promise<void> {
    await this.checkPassword(user, password);
    if (!user.twoFactorEnabled) {
      throw new AppException(TwoFactorError.NOT_ENABLED);
    }
    await this.repo.transaction(async (manager) => {
      await this.repo.removeAll(user.id, manager);
      await this.users.setColumns(user.id, { twoFactorEnabled: false }, manager);
      await this.audit.record(manager, actor, { action: 'user.two_factor_disabled', targetType: 'user', targetId: user.id });
    });
    this.notify(user, twoFactorDisabledNotice(user, this.config.http.appUrl), 'two-factor disabled notice');
  }

  /**
   * For a change asked without a fresh sign-in (a key): an account with two-factor sign-in on must
   * show what a fresh sign-in would have, a current code or an unused recovery code (each works once).
   */
  async confirmSecondFactor(user: UserEntity, code: string | undefined): Promise<void> {
    if (!user.twoFactorEnabled) {
      return;
    }
    if (code === undefined || code === '') {
      throw new AppException(TwoFactorError.CODE_REQUIRED);
    }
    await this.checkCode(user, code);
  }

  /**
   * An administrator turns a user's second factors off (a lost device): the secret, the recovery
   * codes, the passkeys (the lost device may hold them, and they would still be asked for) and any
   * pending sign-in step go, in one transaction with the audit entry; the user is told by mail.
   */
  async resetByAdmin(userId: string, actor: Actor): Promise<UserEntity> {
    const user = await this.repo.transaction(async (manager) => {
      const found = await this.users.get(userId, manager);
      this.users.assertManageable(found, actor);
      if (!found.twoFactorEnabled && !found.hasPasskey) {
        throw new AppException(TwoFactorError.NOT_ENABLED);
      }
      await this.repo.removeAll(found.id, manager);
      await this.users.setColumns(found.id, { twoFactorEnabled: false }, manager);
      await this.passkeys.removeAllOf(found.id, manager);
      // Only what changed: an account without passkeys reads as before passkeys existed.
      const was = { ...(found.twoFactorEnabled ? { twoFactorEnabled: true } : {}), ...(found.hasPasskey ? { hasPasskey: true } : {}) };
      const now = Object.fromEntries(Object.keys(was).map((k) => [k, false]));
      await this.audit.record(manager, actor, {
        action: 'user.two_factor_reset',
        targetType: 'user',
        targetId: found.id,
        changes: { before: was, after: now },
      });
      return this.users.get(found.id, manager);
    });
    this.notify(user, twoFactorResetNotice(user, this.config.http.appUrl), 'two-factor reset notice');
    return user;
  }

  /**
   * The second step of sign-in, after the password matched. Nothing to do unless the user has a
   * second factor (two-factor sign-in by TOTP, or a passkey); then `code` must be a TOTP code of an
   * unused step, or an unused recovery code. A passkey is given only by challenge (`redeemChallenge`).
   */
  async verifySignIn(user: UserEntity, code: string | undefined): Promise<void> {
    if (methodsOf(user).length === 0) {
      return;
    }
    if (code === undefined || code.length === 0) {
      // The client sends the code to POST /api/auth/two-factor with this, rather than the password again.
      throw new AppException(TwoFactorError.REQUIRED, { details: await this.issueChallenge(user) });
    }
    await this.checkCode(user, code);
  }

  /**
   * The second step of a sign-in whose password passed: the user the challenge was issued to, once
   * `code` is theirs. A challenge works once, for CHALLENGE_LIFETIME_SECONDS, and dies after
   * CHALLENGE_MAX_ATTEMPTS codes; only its hash is stored.
   */
  async redeemChallenge(challenge: string, proof: SecondFactorProof): Promise<UserEntity> {
    const claimed = await this.repo.claimAttempt(sha256Hex(challenge), CHALLENGE_MAX_ATTEMPTS, this.clock.now());
    if (!claimed) {
      throw new AppException(TwoFactorError.CHALLENGE_INVALID);
    }
    const user = await this.users.findById(claimed.userId);
    // Every second factor turned off since: the challenge stands for nothing any more.
    if (!user || methodsOf(user).length === 0) {
      await this.repo.deleteChallenge(claimed.id);
      throw new AppException(TwoFactorError.CHALLENGE_INVALID);
    }
    try {
      await ('code' in proof ? this.checkCode(user, proof.code) : this.checkPasskey(user, proof.passkey));
    } catch (e) {
      const attemptsLeft = CHALLENGE_MAX_ATTEMPTS - claimed.attempts;
      if (attemptsLeft === 0) {
        await this.repo.deleteChallenge(claimed.id);
      }
      throw e instanceof AppException && e.code === TwoFactorError.INVALID.code ? new AppException(TwoFactorError.INVALID, { details: { attemptsLeft } }) : e;
    }
    if (!(await this.repo.deleteChallenge(claimed.id))) {
      throw new AppException(TwoFactorError.CHALLENGE_INVALID); // a concurrent request signed in with it first
    }
    return user;
  }

  /**
   * WebAuthn options to answer the live challenge with one of its user's passkeys (their own
   * credentials listed). Counts no attempt: the answer, at `redeemChallenge`, does.
   */
  async passkeyOptions(challenge: string): Promise<Record<string, unknown>> {
    const live = await this.repo.findLiveChallenge(sha256Hex(challenge), CHALLENGE_MAX_ATTEMPTS, this.clock.now());
    if (!live) {
      throw new AppException(TwoFactorError.CHALLENGE_INVALID);
    }
    return this.passkeys.secondFactorOptions(live.userId);
  }

  private async issueChallenge(user: UserEntity): Promise<TwoFactorChallenge> {
    const challenge = randomBytes(CHALLENGE_BYTES).toString('base64url');
    const now = this.clock.now();
    await this.repo.insertChallenge({
      userId: user.id,
      tokenHash: sha256Hex(challenge),
      createdAt: now,
      expiresAt: new Date(now.getTime() + CHALLENGE_LIFETIME_SECONDS * 1000),
    });
    return { challenge, expiresInSeconds: CHALLENGE_LIFETIME_SECONDS, methods: methodsOf(user) };
  }

  /** `code` must be a TOTP code of an unused step, or an unused recovery code (which is then used up). */
  private async checkCode(user: UserEntity, code: string): Promise<void> {
    if (isTotpCode(code)) {
      const row = await this.repo.find(user.id);
      const step = row?.confirmedAt ? matchTotp(this.box.open(row.secretSealed, totpSecretContext(user.id)), code, this.clock.now()) : null;
      if (step === null || !(await this.repo.useStep(user.id, step))) {
        throw new AppException(TwoFactorError.INVALID);
      }
      return;
    }
    if (!(await this.useRecoveryCode(user, code))) {
      throw new AppException(TwoFactorError.INVALID);
    }
    const remaining = await this.repo.countRecoveryCodes(user.id);
    this.notify(user, recoveryCodeUsedNotice(user, remaining, this.config.http.appUrl), 'recovery code used notice');
  }

  /**
   * A passkey of the user, answering options of `passkeyOptions`. Any failure counts as a wrong code
   * (TWO_FACTOR_INVALID, one attempt of the challenge), but for options that are unknown, expired or
   * used (PASSKEY_CHALLENGE_INVALID: the client asks for new ones; the attempt still counts).
   */
  private async checkPasskey(user: UserEntity, response: AuthenticationCredentialDto): Promise<void> {
    try {
      await this.passkeys.verifySecondFactor(user.id, response);
    } catch (e) {
      throw e instanceof AppException && e.code === PasskeyError.INVALID.code ? new AppException(TwoFactorError.INVALID) : e;
    }
  }

  /**
   * Uses up the user's recovery code `code`: one of ours, found by its hash, or else one imported from
   * Pterodactyl, compared with each of the user's bcrypt hashes (Pterodactyl makes ten). False when
   * there is no such unused code.
   */
  private async useRecoveryCode(user: UserEntity, code: string): Promise<boolean> {
    if (await this.repo.useRecoveryCode(user.id, hashRecoveryCode(user.id, code))) {
      return true;
    }
    for (const hash of await this.repo.findRecoveryCodeHashes(user.id, IMPORTED_RECOVERY_CODE_PREFIX, RECOVERY_CODE_COUNT)) {
      if (await matchesImportedRecoveryCode(hash, code)) {
        // False when a concurrent sign-in used it first.
        return this.repo.useRecoveryCode(user.id, hash);
      }
    }
    return false;
  }

  private async checkPassword(user: UserEntity, password: string): Promise<void> {
    if (!(await this.users.verifyPassword(user, password))) {
      throw new AppException(UserError.INVALID_PASSWORD);
    }
  }

  private notify(user: UserEntity, message: MailMessage, purpose: string): void {
    this.tasks.run(purpose, () => this.mail.deliver(message, { purpose, userId: user.id }));
  }
}
