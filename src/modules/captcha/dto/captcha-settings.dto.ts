import type { CaptchaProvider } from 'src/config/env.schema';

export class CaptchaSettingsDto {
  /** null when sign-in asks for no CAPTCHA. */
  provider!: CaptchaProvider | null;
  /** The public site key to render the provider's widget with. */
  siteKey!: string | null;
}
