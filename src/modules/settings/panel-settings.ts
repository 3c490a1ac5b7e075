import { administers } from 'src/modules/roles/admin-grants';

/** Who must have a second factor (TOTP or a passkey) before using the panel: docs/api.md#two-factor-policy. */
export const TWO_FACTOR_POLICIES = ['none', 'admins', 'all'] as const;
export type TwoFactorPolicy = (typeof TWO_FACTOR_POLICIES)[number];

/** The settings administrators change at run time, each stored as one `panel_setting` row by its name. */
export interface PanelSettingValues {
  twoFactorPolicy: TwoFactorPolicy;
}

export const DEFAULT_PANEL_SETTINGS: Readonly<PanelSettingValues> = Object.freeze({ twoFactorPolicy: 'none' });

/** Each setting's check of a stored value: one that fails (written by hand, or by an older version) reads as the default. */
const VALID: { [K in keyof PanelSettingValues]: (value: unknown) => value is PanelSettingValues[K] } = {
  twoFactorPolicy: (value): value is TwoFactorPolicy => (TWO_FACTOR_POLICIES as readonly unknown[]).includes(value),
};

export const SETTING_KEYS = Object.keys(VALID) as (keyof PanelSettingValues)[];

/** The settings the stored rows make; unknown names are ignored, and invalid values named in `invalid`. */
export const settingsFromRows = (rows: readonly { key: string; value: unknown }[]): { values: PanelSettingValues; invalid: string[] } => {
  const values: PanelSettingValues = { ...DEFAULT_PANEL_SETTINGS };
  const invalid: string[] = [];
  for (const { key, value } of rows) {
    if (!(key in VALID)) {
      continue;
    }
    const name = key as keyof PanelSettingValues;
    if (VALID[name](value)) {
      values[name] = value;
    } else {
      invalid.push(key);
    }
  }
  return { values, invalid };
};

/** What the two-factor policy reads of an account. */
interface PolicySubject {
  admin: boolean;
  adminRoleIds: readonly string[];
  twoFactorEnabled: boolean;
  /** A passkey is a second factor too (src/modules/passkeys). */
  hasPasskey: boolean;
}

/**
 * Whether the two-factor policy holds `user` at setup: the policy covers them (everyone, or
 * administrators: full ones and role holders) and they have no second factor yet. Such a user's session reaches only what setting
 * one up needs, and their API keys nothing.
 */
export const heldForTwoFactorSetup = (policy: TwoFactorPolicy, user: PolicySubject): boolean => {
  if (policy === 'none' || user.twoFactorEnabled || user.hasPasskey) {
    return false;
  }
  return policy === 'all' || administers(user);
};
