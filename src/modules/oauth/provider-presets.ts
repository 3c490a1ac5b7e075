import type { AuthProviderType } from 'src/modules/oauth/auth-provider.entity';

/** What a preset fixes: OAuth 2.0 presets name their endpoints; OpenID Connect ones are discovered. */
interface ProviderPreset {
  issuer: string;
  scopes: string[];
  /** OAuth 2.0 only (no discovery, no ID token). */
  endpoints?: { authorization: string; token: string; profile: string };
}

export const PRESETS: Record<Exclude<AuthProviderType, 'oidc'>, ProviderPreset> = {
  // OpenID Connect: discovered from its issuer like any other.
  google: { issuer: 'https://accounts.google.com', scopes: ['openid', 'email', 'profile'] },
  // OAuth 2.0: no ID token; the e-mail is the verified primary one of /user/emails.
  github: {
    issuer: 'https://github.com',
    scopes: ['read:user', 'user:email'],
    endpoints: { authorization: 'https://github.com/login/oauth/authorize', token: 'https://github.com/login/oauth/access_token', profile: 'https://api.github.com/user' },
  },
  // OAuth 2.0: /users/@me carries the e-mail and whether Discord verified it.
  discord: {
    issuer: 'https://discord.com',
    scopes: ['identify', 'email'],
    endpoints: { authorization: 'https://discord.com/oauth2/authorize', token: 'https://discord.com/api/oauth2/token', profile: 'https://discord.com/api/users/@me' },
  },
};

export const GITHUB_EMAILS_URL = 'https://api.github.com/user/emails';
export const OIDC_DEFAULT_SCOPES = ['openid', 'email', 'profile'];
