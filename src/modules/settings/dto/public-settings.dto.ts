import type { CaptchaProvider } from 'src/config/env.schema';

export class PublicCaptchaDto {
  provider!: CaptchaProvider;
  /** The public site key to render the provider's widget with (null when none is configured). */
  siteKey!: string | null;
}

/** What the web pages need before anyone signs in; never a secret. */
export class PublicSettingsDto {
  appName!: string;
  /** Whether `POST /api/auth/sign-up/email` takes new accounts. */
  registrationEnabled!: boolean;
  /** The largest file `GET .../files/contents` returns as text, in MiB; larger ones are downloaded instead. */
  fileEditMaxMiB!: number;
  /** null: sign-in, sign-up and forget-password ask for no CAPTCHA. */
  captcha!: PublicCaptchaDto | null;
}
