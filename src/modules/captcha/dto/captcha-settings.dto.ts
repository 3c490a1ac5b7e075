import { ApiProperty } from '@nestjs/swagger';
import { CAPTCHA_PROVIDERS, type CaptchaProvider } from 'src/config/env.schema';

export class CaptchaSettingsDto {
  /** null when sign-in asks for no CAPTCHA. */
  // null in the enum too: OpenAPI 3.0 checks `enum` before `nullable`.
  @ApiProperty({ enum: [...CAPTCHA_PROVIDERS, null], nullable: true })
  provider!: CaptchaProvider | null;
  /** The public site key to render the provider's widget with. */
  siteKey!: string | null;
}
