import { ApiProperty } from '@nestjs/swagger';
import { ADMIN_AREAS, type AdminAccess, type AdminArea } from 'src/common/auth/admin-scope';
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
  /** The two-factor policy holds the account until it sets up a second factor: every route but that setup answers 403 TWO_FACTOR_SETUP_REQUIRED. */
  twoFactorSetupRequired!: boolean;
}

export class SignedUpDto {
  user!: UserResponseDto;
}

export class CurrentSessionDto extends SessionResponseDto {
  /** Signed in within the last 5 minutes: routes such as 2FA setup need it. */
  fresh!: boolean;
}

export class AdminAccessAreaDto {
  @ApiProperty({ enum: ADMIN_AREAS })
  area!: AdminArea;
  @ApiProperty({ enum: ['read', 'write'] })
  access!: AdminAccess;
  /** The nodes this access reaches; null for every node (only servers and nodes are ever limited). */
  nodeIds!: string[] | null;
}

/** What the signed-in user may do in the administration, for the web UI to show only that. */
export class AdminAccessDto {
  /** A full administrator: everything, roles included. */
  full!: boolean;
  /** Each area granted, read or write (write includes read). */
  areas!: AdminAccessAreaDto[];
}

/** `GET /api/auth/session`: who the cookie signs in, and the session itself. */
export class SessionStateDto {
  user!: UserResponseDto;
  session!: CurrentSessionDto;
  /** null: no part of the administration. */
  adminAccess!: AdminAccessDto | null;
  /** As in SignedInDto. */
  twoFactorSetupRequired!: boolean;
}
