import { SessionResponseDto } from 'src/modules/sessions/dto/session-response.dto';
import { UserResponseDto } from 'src/modules/users/dto/user-response.dto';

export class SignedInSessionDto {
  id!: string;
  expiresAt!: string;
}

/** A sign-in's answer (by password, or by the two-factor step); the session itself is the cookie. */
export class SignedInDto {
  user!: UserResponseDto;
  session!: SignedInSessionDto;
}

export class SignedUpDto {
  user!: UserResponseDto;
}

export class CurrentSessionDto extends SessionResponseDto {
  /** Signed in within the last 5 minutes: routes such as 2FA setup need it. */
  fresh!: boolean;
}

/** `GET /api/auth/session`: who the cookie signs in, and the session itself. */
export class SessionStateDto {
  user!: UserResponseDto;
  session!: CurrentSessionDto;
}
