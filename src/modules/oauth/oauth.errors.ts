import { ErrorCategory, ErrorDef } from 'src/common/errors/error-codes';

/**
 * Single sign-on's codes (docs/api.md#single-sign-on). The callback's refusals travel to the sign-in
 * page (or the account page, when linking) as `?error=<code>` rather than as a JSON body.
 */
export const OAuthError = {
  PROVIDER_NOT_FOUND: { code: 'AUTH_PROVIDER_NOT_FOUND', category: ErrorCategory.NOT_FOUND, message: 'Sign-in provider not found' },
  /** Discovery from the issuer failed at create or update. */
  DISCOVERY_FAILED: { code: 'AUTH_PROVIDER_DISCOVERY_FAILED', category: ErrorCategory.BAD_REQUEST, message: 'The issuer could not be discovered' },
  ISSUER_REQUIRED: { code: 'AUTH_PROVIDER_ISSUER_REQUIRED', category: ErrorCategory.BAD_REQUEST, message: 'An OpenID Connect provider needs its issuer URL' },
  DISABLED: { code: 'OAUTH_PROVIDER_DISABLED', category: ErrorCategory.FORBIDDEN, message: 'This sign-in provider is disabled' },
  /** No flow cookie, or its state differs from the callback's. */
  STATE_MISMATCH: { code: 'OAUTH_STATE_MISMATCH', category: ErrorCategory.BAD_REQUEST, message: 'The sign-in could not be matched to this browser; start again' },
  /** The provider answered with an error (the user cancelled, …). */
  PROVIDER_ERROR: { code: 'OAUTH_PROVIDER_ERROR', category: ErrorCategory.BAD_REQUEST, message: 'The provider refused the sign-in' },
  /** The code exchange or the ID token's checks (issuer, audience, nonce, signature) failed. */
  TOKEN_INVALID: { code: 'OAUTH_TOKEN_INVALID', category: ErrorCategory.BAD_REQUEST, message: 'The provider’s answer could not be verified' },
  /** The provider could not be reached. */
  PROVIDER_UNAVAILABLE: { code: 'OAUTH_PROVIDER_UNAVAILABLE', category: ErrorCategory.BAD_GATEWAY, message: 'The provider could not be reached' },
  /** No account has this identity and the provider may not create one. */
  REGISTRATION_NOT_ALLOWED: { code: 'OAUTH_REGISTRATION_NOT_ALLOWED', category: ErrorCategory.FORBIDDEN, message: 'No account uses this identity' },
  EMAIL_NOT_VERIFIED: { code: 'OAUTH_EMAIL_NOT_VERIFIED', category: ErrorCategory.FORBIDDEN, message: 'The provider did not give a verified e-mail address' },
  DOMAIN_NOT_ALLOWED: { code: 'OAUTH_DOMAIN_NOT_ALLOWED', category: ErrorCategory.FORBIDDEN, message: 'This e-mail domain may not sign in with this provider' },
  /** An account has this e-mail address but not this identity: it links it from its account page. */
  ACCOUNT_EXISTS: { code: 'OAUTH_ACCOUNT_EXISTS', category: ErrorCategory.CONFLICT, message: 'An account uses this e-mail address: sign in to it and link this provider from its account page' },
  /** Linking: the identity is another account's already. */
  IDENTITY_IN_USE: { code: 'OAUTH_IDENTITY_IN_USE', category: ErrorCategory.CONFLICT, message: 'This identity is linked to another account' },
  /** Linking: the session that started the link is gone or is another user's. */
  LINK_SESSION_MISMATCH: { code: 'OAUTH_LINK_SESSION_MISMATCH', category: ErrorCategory.UNAUTHENTICATED, message: 'Sign in again to link this provider' },
  IDENTITY_NOT_FOUND: { code: 'IDENTITY_NOT_FOUND', category: ErrorCategory.NOT_FOUND, message: 'Linked identity not found' },
  /** Unlinking the last way to sign in of an account without a password. */
  LAST_SIGN_IN_METHOD: { code: 'IDENTITY_LAST_SIGN_IN_METHOD', category: ErrorCategory.CONFLICT, message: 'This is the account’s only way to sign in: set a password first' },
} satisfies Record<string, ErrorDef>;
