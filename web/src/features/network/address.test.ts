import { describe, expect, it } from 'vitest';
import { allocationAddress } from '@/features/network/address';

describe('allocationAddress', () => {
  it('should prefer the alias and bracket an IPv6 address', () => {
    expect(allocationAddress({ ip: '10.0.0.5', alias: null, port: 25565 })).toBe('10.0.0.5:25565');
    expect(allocationAddress({ ip: '10.0.0.5', alias: 'play.example.test', port: 25565 })).toBe('play.example.test:25565');
    expect(allocationAddress({ ip: '2001:db8::1', alias: null, port: 25565 })).toBe('[2001:db8::1]:25565');
  });
});
