import { matchTotp, newTotpSecret, totpStep, totpUri } from 'src/modules/two-factor/totp';

// RFC 6238 appendix B, SHA-1 key "12345678901234567890"; the 6-digit code is the 8-digit one mod 10^6.
const RFC_SECRET = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';
const at = (seconds: number): Date => new Date(seconds * 1000);

describe('totp', () => {
  it.each([
    [59, '287082'],
    [1111111109, '081804'],
    [1111111111, '050471'],
    [1234567890, '005924'],
    [2000000000, '279037'],
    [20000000000, '353130'],
  ])('should match the RFC 6238 test vector at T=%d (%s) to its time step', (seconds, code) => {
    expect(matchTotp(RFC_SECRET, code, at(seconds))).toBe(Math.floor(seconds / 30));
  });

  it('should accept the step before and after the current one, and no further', () => {
    // 287082 is the code of step 1 (30 s to 59 s).
    expect(matchTotp(RFC_SECRET, '287082', at(5))).toBe(1); // now in step 0: the next step's code
    expect(matchTotp(RFC_SECRET, '287082', at(89))).toBe(1); // now in step 2: the previous step's code
    expect(matchTotp(RFC_SECRET, '287082', at(90))).toBeNull(); // now in step 3
    expect(totpStep(at(89))).toBe(2);
  });

  it('should refuse anything but six digits', () => {
    expect(matchTotp(RFC_SECRET, '94287082', at(59))).toBeNull();
    expect(matchTotp(RFC_SECRET, '28708', at(59))).toBeNull();
    expect(matchTotp(RFC_SECRET, '287 82', at(59))).toBeNull();
  });

  it('should make 160-bit base32 secrets and an otpauth:// URI apps read', () => {
    const secret = newTotpSecret();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(newTotpSecret()).not.toBe(secret);
    expect(totpUri(secret, 'Hatchery', 'jane@example.test')).toBe(
      `otpauth://totp/Hatchery:jane%40example.test?issuer=Hatchery&secret=${secret}&algorithm=SHA1&digits=6&period=30`,
    );
  });
});
