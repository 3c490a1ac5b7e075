import { Secret, TOTP } from 'otpauth';

/** RFC 6238 with the parameters every authenticator app supports: SHA-1, 6 digits, 30-second steps. */
const TOTP_PERIOD_SECONDS = 30;
const TOTP_DIGITS = 6;
/** Codes of the step before and after the current one are accepted too, for clock drift. */
const TOTP_WINDOW = 1;
const SECRET_BYTES = 20; // 160 bits, RFC 4226's recommendation

const totp = (secretBase32: string, issuer = '', label = ''): TOTP =>
  new TOTP({ issuer, label, algorithm: 'SHA1', digits: TOTP_DIGITS, period: TOTP_PERIOD_SECONDS, secret: Secret.fromBase32(secretBase32) });

export const newTotpSecret = (): string => new Secret({ size: SECRET_BYTES }).base32;

/** The otpauth:// URI an authenticator app scans (as a QR code) or takes by hand. */
export const totpUri = (secretBase32: string, issuer: string, account: string): string => totp(secretBase32, issuer, account).toString();

export const totpStep = (at: Date): number => Math.floor(at.getTime() / 1000 / TOTP_PERIOD_SECONDS);

/** The time step whose code `code` is, within TOTP_WINDOW of `now`; null when it matches none. */
export const matchTotp = (secretBase32: string, code: string, now: Date): number | null => {
  if (!/^\d{6}$/.test(code)) {
    return null;
  }
  const delta = totp(secretBase32).validate({ token: code, timestamp: now.getTime(), window: TOTP_WINDOW });
  return delta === null ? null : totpStep(now) + delta;
};
