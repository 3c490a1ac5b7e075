import { Injectable } from '@nestjs/common';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticatorTransport,
} from '@simplewebauthn/server';
import { EntityManager } from 'typeorm';
import { BackgroundTasks } from 'src/common/background/background-tasks';
import { Clock } from 'src/common/clock';
import { sha256Hex } from 'src/common/crypto/tokens';
import { AppException } from 'src/common/errors/app.exception';
import type { Actor } from 'src/common/auth/current-actor.decorator';
import { AppConfigService } from 'src/config/app-config.service';
import { AuditService } from 'src/modules/audit/audit.service';
import { MailMessage, MailService } from 'src/modules/mail/mail.service';
import { PasskeyResponseDto, toPasskeyResponse } from 'src/modules/passkeys/dto/passkey.dto';
import type { AuthenticationCredentialDto, RegistrationCredentialDto } from 'src/modules/passkeys/dto/webauthn.dto';
import { passkeyAddedNotice, passkeyRemovedNotice } from 'src/modules/passkeys/passkey-notices';
import type { PasskeyCeremony } from 'src/modules/passkeys/passkey-challenge.entity';
import type { PasskeyEntity } from 'src/modules/passkeys/passkey.entity';
import { PasskeyError } from 'src/modules/passkeys/passkeys.errors';
import { PasskeysRepository } from 'src/modules/passkeys/passkeys.repository';
import { challengeOf, RelyingParty, relyingPartyOf, userHandleOf } from 'src/modules/passkeys/relying-party';
import type { UserEntity } from 'src/modules/users/user.entity';
import { UsersService } from 'src/modules/users/users.service';

const MAX_PASSKEYS = 25;
/** How long a ceremony's challenge is good for (the browser's timeout is the same). */
const CHALLENGE_LIFETIME_MS = 5 * 60_000;

/** Options for `navigator.credentials.create()` or `.get()`, as JSON. */
type CeremonyOptions = Record<string, unknown>;

const reasonOf = (e: unknown): string => (e instanceof Error ? e.message : 'verification failed');

/**
 * Passkeys (WebAuthn credentials, with @simplewebauthn/server): the account's list, adding one, and
 * checking one's signature at sign-in, alone or as the second factor. Every challenge is issued and
 * kept here (only its hash), and is used up by the first answer that names it.
 */
@Injectable()
export class PasskeysService {
  private readonly rp: RelyingParty;

  constructor(
    private readonly repo: PasskeysRepository,
    private readonly users: UsersService,
    private readonly clock: Clock,
    private readonly audit: AuditService,
    private readonly mail: MailService,
    private readonly tasks: BackgroundTasks,
    private readonly config: AppConfigService,
  ) {
    this.rp = relyingPartyOf(config.http.appUrl);
  }

  async list(user: UserEntity): Promise<PasskeyResponseDto[]> {
    return (await this.repo.listOf(user.id)).map(toPasskeyResponse);
  }

  /** Options to make a new discoverable passkey for `user`; the ones they have are excluded. */
  async registrationOptions(user: UserEntity): Promise<CeremonyOptions> {
    const existing = await this.repo.listOf(user.id);
    if (existing.length >= MAX_PASSKEYS) {
      throw new AppException(PasskeyError.LIMIT_REACHED);
    }
    const options = await generateRegistrationOptions({
      rpName: this.rp.name,
      rpID: this.rp.id,
      userID: Buffer.from(userHandleOf(user.uuid), 'base64url'),
      userName: user.email,
      userDisplayName: user.name || user.username,
      timeout: CHALLENGE_LIFETIME_MS,
      attestationType: 'none',
      excludeCredentials: existing.map((p) => ({ id: p.credentialId, transports: p.transports as AuthenticatorTransport[] })),
      authenticatorSelection: { residentKey: 'required', requireResidentKey: true, userVerification: 'required' },
    });
    await this.issueChallenge(options.challenge, 'register', user.id);
    return options as unknown as CeremonyOptions;
  }

  /** Verifies the browser's new credential against a live challenge issued to `user`, and keeps it. */
  async register(user: UserEntity, name: string, response: RegistrationCredentialDto, actor: Actor): Promise<PasskeyResponseDto> {
    const challenge = await this.takeChallenge(response.response.clientDataJSON, 'register', user.id);
    let verified: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
    try {
      verified = await verifyRegistrationResponse({
        response: { ...response, response: { ...response.response, transports: response.response.transports } },
        expectedChallenge: challenge,
        expectedOrigin: this.rp.origin,
        expectedRPID: this.rp.id,
        requireUserVerification: true,
      });
    } catch (e) {
      throw new AppException(PasskeyError.REGISTRATION_INVALID, { details: { reason: reasonOf(e) } });
    }
    if (!verified.verified) {
      throw new AppException(PasskeyError.REGISTRATION_INVALID, { details: { reason: 'verification failed' } });
    }
    const { credential, credentialBackedUp } = verified.registrationInfo;
    const saved = await this.repo.transaction(async (manager) => {
      // Under the user's row lock: the limit, and has_passkey, are decided on what is committed.
      await this.users.lockForUpdate(user.id, manager);
      if ((await this.repo.countOf(user.id, manager)) >= MAX_PASSKEYS) {
        throw new AppException(PasskeyError.LIMIT_REACHED);
      }
      if (await this.repo.findByCredentialId(credential.id, manager)) {
        throw new AppException(PasskeyError.EXISTS);
      }
      const passkey = await this.repo.insert(
        {
          userId: user.id,
          name,
          credentialId: credential.id,
          publicKey: Buffer.from(credential.publicKey).toString('base64url'),
          counter: String(credential.counter),
          transports: credential.transports ?? [],
          backedUp: credentialBackedUp,
          createdAt: this.clock.now(),
        },
        manager,
      );
      await this.syncHasPasskey(user.id, manager);
      await this.audit.record(manager, actor, { action: 'user.passkey_added', targetType: 'user', targetId: user.id, changes: { after: { passkey: name } } });
      return passkey;
    });
    this.notify(user, passkeyAddedNotice(user, name, this.config.http.appUrl), 'passkey added notice');
    return toPasskeyResponse(saved);
  }

  async rename(user: UserEntity, id: string, name: string): Promise<PasskeyResponseDto> {
    const passkey = await this.repo.findOne(user.id, id);
    if (!passkey) {
      throw new AppException(PasskeyError.NOT_FOUND);
    }
    await this.repo.rename(passkey.id, name);
    return toPasskeyResponse({ ...passkey, name });
  }

  async remove(user: UserEntity, id: string, actor: Actor): Promise<void> {
    const passkey = await this.repo.findOne(user.id, id);
    if (!passkey) {
      throw new AppException(PasskeyError.NOT_FOUND);
    }
    await this.repo.transaction(async (manager) => {
      await this.users.lockForUpdate(user.id, manager);
      if (!(await this.repo.delete(user.id, passkey.id, manager))) {
        throw new AppException(PasskeyError.NOT_FOUND); // a concurrent request removed it
      }
      await this.syncHasPasskey(user.id, manager);
      await this.audit.record(manager, actor, { action: 'user.passkey_removed', targetType: 'user', targetId: user.id, changes: { before: { passkey: passkey.name } } });
    });
    this.notify(user, passkeyRemovedNotice(user, passkey.name, this.config.http.appUrl), 'passkey removed notice');
  }

  /** Removes every passkey of the user in `manager`'s transaction (an administrator's reset); how many there were. */
  async removeAllOf(userId: string, manager: EntityManager): Promise<number> {
    await this.users.lockForUpdate(userId, manager);
    const removed = await this.repo.deleteAllOf(userId, manager);
    await this.syncHasPasskey(userId, manager);
    return removed;
  }

  /** Options for a sign-in by passkey alone: no credentials listed (the browser offers its discoverable ones), user verification required. */
  async signInOptions(): Promise<CeremonyOptions> {
    const options = await generateAuthenticationOptions({ rpID: this.rp.id, allowCredentials: [], userVerification: 'required', timeout: CHALLENGE_LIFETIME_MS });
    await this.issueChallenge(options.challenge, 'sign_in', null);
    return options as unknown as CeremonyOptions;
  }

  /** Options for the step after the password: the user's own passkeys. PASSKEY_NONE when they have none. */
  async secondFactorOptions(userId: string): Promise<CeremonyOptions> {
    const passkeys = await this.repo.listOf(userId);
    if (passkeys.length === 0) {
      throw new AppException(PasskeyError.NONE);
    }
    const options = await generateAuthenticationOptions({
      rpID: this.rp.id,
      allowCredentials: passkeys.map((p) => ({ id: p.credentialId, transports: p.transports as AuthenticatorTransport[] })),
      userVerification: 'preferred',
      timeout: CHALLENGE_LIFETIME_MS,
    });
    await this.issueChallenge(options.challenge, 'second_factor', userId);
    return options as unknown as CeremonyOptions;
  }

  /** The id of the user a sign-in by passkey alone signs in (user verification required). */
  async verifySignIn(response: AuthenticationCredentialDto): Promise<string> {
    await this.takeChallenge(response.response.clientDataJSON, 'sign_in', null);
    return this.verifyAssertion(response, null, true);
  }

  /** Checks a passkey of `userId` as the second factor, against a challenge of `secondFactorOptions(userId)`. */
  async verifySecondFactor(userId: string, response: AuthenticationCredentialDto): Promise<void> {
    await this.takeChallenge(response.response.clientDataJSON, 'second_factor', userId);
    await this.verifyAssertion(response, userId, false);
  }

  /**
   * Checks the assertion's signature with the stored public key (challenge, origin, RP id, user
   * presence, and verification when `requireVerification`), and that the counter moved forward
   * unless the authenticator keeps none; records the use. The passkey's user id.
   */
  private async verifyAssertion(response: AuthenticationCredentialDto, userId: string | null, requireVerification: boolean): Promise<string> {
    const challenge = challengeOf(response.response.clientDataJSON);
    const passkey = await this.repo.findByCredentialId(response.id);
    if (!challenge || !passkey || (userId !== null && passkey.userId !== userId)) {
      throw new AppException(PasskeyError.INVALID);
    }
    if (response.response.userHandle !== undefined && response.response.userHandle !== (await this.userHandleOfOwner(passkey))) {
      throw new AppException(PasskeyError.INVALID);
    }
    let info: Awaited<ReturnType<typeof verifyAuthenticationResponse>>['authenticationInfo'];
    try {
      const result = await verifyAuthenticationResponse({
        response,
        expectedChallenge: challenge,
        expectedOrigin: this.rp.origin,
        expectedRPID: this.rp.id,
        credential: {
          id: passkey.credentialId,
          publicKey: Buffer.from(passkey.publicKey, 'base64url'),
          counter: Number(passkey.counter),
          transports: passkey.transports,
        },
        requireUserVerification: requireVerification,
      });
      if (!result.verified) {
        throw new Error('signature not verified');
      }
      info = result.authenticationInfo;
    } catch {
      // Whichever check failed (a cloned authenticator's counter included), the answer is the same.
      throw new AppException(PasskeyError.INVALID);
    }
    // Only while the counter is still the one checked: a concurrent use of a copy cannot slip past.
    if (!(await this.repo.recordUse(passkey.id, passkey.counter, info.newCounter, info.credentialBackedUp, this.clock.now()))) {
      throw new AppException(PasskeyError.INVALID);
    }
    return passkey.userId;
  }

  private async userHandleOfOwner(passkey: PasskeyEntity): Promise<string | undefined> {
    const owner = await this.users.findById(passkey.userId);
    return owner ? userHandleOf(owner.uuid) : undefined;
  }

  private async issueChallenge(challenge: string, ceremony: PasskeyCeremony, userId: string | null): Promise<void> {
    const now = this.clock.now();
    await this.repo.insertChallenge({
      challengeHash: sha256Hex(challenge),
      ceremony,
      userId,
      createdAt: now,
      expiresAt: new Date(now.getTime() + CHALLENGE_LIFETIME_MS),
    });
  }

  /** Uses up the live challenge the client data names, issued for `ceremony` to `userId`; the challenge, or PASSKEY_CHALLENGE_INVALID. */
  private async takeChallenge(clientDataJSON: string, ceremony: PasskeyCeremony, userId: string | null): Promise<string> {
    const challenge = challengeOf(clientDataJSON);
    const taken = challenge === undefined ? undefined : await this.repo.takeChallenge(sha256Hex(challenge), ceremony, this.clock.now());
    if (!challenge || !taken || taken.userId !== userId) {
      throw new AppException(PasskeyError.CHALLENGE_INVALID);
    }
    return challenge;
  }

  /** Sets the user's has_passkey from the rows `manager`'s transaction sees, under the user's row lock. */
  private async syncHasPasskey(userId: string, manager: EntityManager): Promise<void> {
    await this.users.setColumns(userId, { hasPasskey: await this.repo.existsFor(userId, manager) }, manager);
  }

  private notify(user: UserEntity, message: MailMessage, purpose: string): void {
    this.tasks.run(purpose, () => this.mail.deliver(message, { purpose, userId: user.id }));
  }
}
