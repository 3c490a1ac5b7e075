import { Injectable } from '@nestjs/common';
import { AuthError } from 'src/common/auth/auth.errors';
import { AppException } from 'src/common/errors/app.exception';
import { AppConfigService } from 'src/config/app-config.service';
import { refuseSuspended } from 'src/modules/auth/auth.service';
import { SessionEntity } from 'src/modules/sessions/session.entity';
import { SessionsService } from 'src/modules/sessions/sessions.service';
import { SignUpDto } from 'src/modules/auth/dto/auth.dto';
import { PasskeysService } from 'src/modules/passkeys/passkeys.service';
import type { AuthenticationCredentialDto } from 'src/modules/passkeys/dto/webauthn.dto';
import { SecondFactorProof, TwoFactorService } from 'src/modules/two-factor/two-factor.service';
import { PasswordHasher } from 'src/modules/users/password.hasher';
import { UserEntity } from 'src/modules/users/user.entity';
import { UsersService } from 'src/modules/users/users.service';

export interface ClientMeta {
  ip?: string;
  userAgent?: string;
}

export interface SignedIn {
  user: UserEntity;
  session: SessionEntity;
  token: string;
}

@Injectable()
export class SignInService {
  constructor(
    private readonly users: UsersService,
    private readonly hasher: PasswordHasher,
    private readonly sessions: SessionsService,
    private readonly config: AppConfigService,
    private readonly twoFactor: TwoFactorService,
    private readonly passkeys: PasskeysService,
  ) {}

  /** Password first, then (when enabled) the two-factor code; no session is made unless both pass. */
  async signIn(by: { email: string } | { username: string }, password: string, totp: string | undefined, meta: ClientMeta): Promise<SignedIn> {
    const user = 'email' in by ? await this.users.findByEmail(by.email) : await this.users.findByUsername(by.username);
    // The same argon2 work is done whether or not the account exists (false without one).
    if (!(await this.users.verifyPassword(user, password)) || !user) {
      throw new AppException(AuthError.INVALID_CREDENTIALS);
    }
    // Only once the password is right, so that the answer tells a stranger nothing about the account.
    refuseSuspended(user);
    await this.twoFactor.verifySignIn(user, totp);
    return this.openSession(user, meta);
  }

  /** The second step of a two-factor sign-in (a code or a passkey), by the challenge its password step answered. */
  async completeTwoFactor(challenge: string, proof: SecondFactorProof, meta: ClientMeta): Promise<SignedIn> {
    const user = await this.twoFactor.redeemChallenge(challenge, proof);
    refuseSuspended(user);
    return this.openSession(user, meta);
  }

  /**
   * A sign-in by passkey alone: a discoverable credential whose authenticator verified the user (it
   * is something they have and something they know or are), so no password and no second step.
   */
  async signInWithPasskey(response: AuthenticationCredentialDto, meta: ClientMeta): Promise<SignedIn> {
    const user = await this.users.get(await this.passkeys.verifySignIn(response));
    refuseSuspended(user);
    return this.openSession(user, meta);
  }

  /** A session for a user whose credentials (and second factor) passed: password, challenge or a sign-in provider. */
  async openSession(user: UserEntity, meta: ClientMeta): Promise<SignedIn> {
    const opened = await this.sessions.create(user, meta);
    await this.users.recordSignIn(user.id, opened.session.createdAt);
    return { user, ...opened };
  }

  async signUp(dto: SignUpDto, meta: ClientMeta): Promise<SignedIn> {
    if (!this.config.auth.registrationEnabled) {
      throw new AppException(AuthError.REGISTRATION_DISABLED);
    }
    const user = await this.users.register({
      name: dto.name,
      username: dto.username,
      email: dto.email,
      passwordHash: await this.hasher.hash(dto.password),
    });
    return this.openSession(user, meta);
  }
}
