import { describe, expect, it } from 'vitest';
import { isIpOrCidr, MAX_ALLOWED_IPS, parseAllowedIps } from '@/lib/allowed-ips';

describe('allowed IPs', () => {
  it('takes addresses and CIDR ranges of both families', () => {
    for (const ok of ['203.0.113.7', '10.0.0.0/8', '::1', '2001:db8::/32', '127.0.0.1/32']) {
      expect(isIpOrCidr(ok), ok).toBe(true);
    }
  });

  it('refuses what the panel refuses', () => {
    for (const bad of ['example.com', '10.0.0.0/33', '2001:db8::/129', '300.1.1.1', '1.2.3.4/', `${'1'.repeat(65)}`, '']) {
      expect(isIpOrCidr(bad), bad).toBe(false);
    }
  });

  it('reads one entry a line, drops blanks and repeats, and names the bad ones', () => {
    expect(parseAllowedIps('203.0.113.7\n\n  10.0.0.0/8 \n203.0.113.7\nnope\n')).toEqual({ ips: ['203.0.113.7', '10.0.0.0/8', 'nope'], invalid: ['nope'], tooMany: false });
    expect(parseAllowedIps('1.1.1.1, 2.2.2.2 3.3.3.3').ips).toEqual(['1.1.1.1', '2.2.2.2', '3.3.3.3']);
    expect(parseAllowedIps('   ')).toEqual({ ips: [], invalid: [], tooMany: false });
  });

  it('says when there are more entries than the panel keeps', () => {
    const many = Array.from({ length: MAX_ALLOWED_IPS + 1 }, (_, i) => `10.0.${Math.floor(i / 250)}.${i % 250}`).join('\n');
    expect(parseAllowedIps(many).tooMany).toBe(true);
  });
});
