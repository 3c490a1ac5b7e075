import { ErrorCategory, ErrorDef } from 'src/common/errors/error-codes';

export const CaptchaError = {
  REQUIRED: {
    code: 'CAPTCHA_REQUIRED',
    category: ErrorCategory.BAD_REQUEST,
    message: 'A CAPTCHA response is required in the x-captcha-response header',
  },
  INVALID: { code: 'CAPTCHA_INVALID', category: ErrorCategory.FORBIDDEN, message: 'CAPTCHA verification failed' },
  // Fail closed: when the provider cannot say yes, the answer is no.
  UNAVAILABLE: {
    code: 'CAPTCHA_UNAVAILABLE',
    category: ErrorCategory.UNAVAILABLE,
    message: 'The CAPTCHA could not be verified right now; try again later',
  },
} satisfies Record<string, ErrorDef>;
