import { ApiProperty } from '@nestjs/swagger';
import { IsIn } from 'class-validator';
import { Optional } from 'src/common/validation/decorators';
import { TWO_FACTOR_POLICIES, type TwoFactorPolicy } from 'src/modules/settings/panel-settings';

/** The settings administrators change at run time (docs/api.md#settings). */
export class AdminSettingsDto {
  /**
   * Who must have a second factor (an authenticator app or a passkey): `none`, `admins` (full
   * administrators and holders of an administrator role) or `all`. A covered user without one is
   * signed in only to set one up, and their API keys are refused until then.
   */
  @ApiProperty({ enum: TWO_FACTOR_POLICIES })
  twoFactorPolicy!: TwoFactorPolicy;
}

/** Only the settings given change. */
export class UpdateAdminSettingsDto {
  @ApiProperty({ enum: TWO_FACTOR_POLICIES, required: false })
  @Optional()
  @IsIn(TWO_FACTOR_POLICIES, { message: `twoFactorPolicy must be one of: ${TWO_FACTOR_POLICIES.join(', ')}` })
  twoFactorPolicy?: TwoFactorPolicy;
}
