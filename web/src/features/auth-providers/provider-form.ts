import type { AuthProvider, AuthProviderType, CreateAuthProviderBody, UpdateAuthProviderBody } from '@/features/auth-providers/api';

/** What the form edits; `clientSecret` empty on an edit keeps the secret. */
export interface ProviderForm {
  name: string;
  type: AuthProviderType;
  issuer: string;
  clientId: string;
  clientSecret: string;
  scopes: string;
  enabled: boolean;
  showOnSignIn: boolean;
  allowRegistration: boolean;
  allowedDomains: string;
}

/** Each type's name and scopes, filled in when the type is picked (the panel fixes the presets' issuers). */
const PRESET_DEFAULTS: Record<AuthProviderType, { name: string; scopes: string }> = {
  oidc: { name: '', scopes: 'openid email profile' },
  google: { name: 'Google', scopes: 'openid email profile' },
  github: { name: 'GitHub', scopes: 'read:user user:email' },
  discord: { name: 'Discord', scopes: 'identify email' },
};

export const emptyProviderForm = (type: AuthProviderType = 'oidc'): ProviderForm => ({
  name: PRESET_DEFAULTS[type].name,
  type,
  issuer: '',
  clientId: '',
  clientSecret: '',
  scopes: PRESET_DEFAULTS[type].scopes,
  enabled: true,
  showOnSignIn: true,
  allowRegistration: false,
  allowedDomains: '',
});

/** Another type picked: its name and scopes replace those still at the previous type's defaults. */
export const withType = (form: ProviderForm, type: AuthProviderType): ProviderForm => ({
  ...form,
  type,
  name: form.name === '' || form.name === PRESET_DEFAULTS[form.type].name ? PRESET_DEFAULTS[type].name : form.name,
  scopes: form.scopes === PRESET_DEFAULTS[form.type].scopes ? PRESET_DEFAULTS[type].scopes : form.scopes,
});

export const providerFormOf = (p: AuthProvider): ProviderForm => ({
  name: p.name,
  type: p.type,
  issuer: p.type === 'oidc' ? p.issuer : '',
  clientId: p.clientId,
  clientSecret: '',
  scopes: p.scopes.join(' '),
  enabled: p.enabled,
  showOnSignIn: p.showOnSignIn,
  allowRegistration: p.allowRegistration,
  allowedDomains: p.allowedDomains.join(', '),
});

const words = (text: string): string[] => text.split(/[\s,]+/).filter(Boolean);

export const createProviderBody = (f: ProviderForm): CreateAuthProviderBody => ({
  name: f.name.trim(),
  type: f.type,
  ...(f.type === 'oidc' ? { issuer: f.issuer.trim() } : {}),
  clientId: f.clientId.trim(),
  clientSecret: f.clientSecret,
  scopes: words(f.scopes),
  enabled: f.enabled,
  showOnSignIn: f.showOnSignIn,
  allowRegistration: f.allowRegistration,
  allowedDomains: words(f.allowedDomains.toLowerCase()),
});

export const updateProviderBody = (f: ProviderForm): UpdateAuthProviderBody => {
  const { type: _type, clientSecret, ...rest } = createProviderBody(f);
  return { ...rest, ...(clientSecret ? { clientSecret } : {}) };
};
