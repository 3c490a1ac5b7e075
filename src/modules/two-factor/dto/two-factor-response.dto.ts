export class TwoFactorSetupResponseDto {
  /** The base32 TOTP secret, for entering by hand. */
  secret!: string;
  /** otpauth://totp/... for a QR code. */
  uri!: string;
}

export class RecoveryCodesResponseDto {
  /** One-time codes that stand in for a TOTP code at sign-in. Shown only here; only their hashes are kept. */
  recoveryCodes!: string[];
}
