import { describe, expect, it } from 'vitest';
import { formatBytes, formatDateTime, formatDuration, formatPercent, formatRelativeSeconds, serverMemoryLimit } from '@/lib/format';

describe('formatBytes', () => {
  it('should use binary units with few digits', () => {
    expect(formatBytes(0, 'en')).toBe('0 B');
    expect(formatBytes(1023, 'en')).toBe('1,023 B');
    expect(formatBytes(1536, 'en')).toBe('1.5 KiB');
    expect(formatBytes(15.25 * 1024 * 1024, 'en')).toBe('15.3 MiB');
    expect(formatBytes(512 * 1024 ** 3, 'en')).toBe('512 GiB');
  });

  it('should follow the locale', () => {
    expect(formatBytes(1536, 'de')).toBe('1,5 KiB');
  });

  it('should show a dash for what is not a number', () => {
    expect(formatBytes(Number.NaN)).toBe('–');
  });
});

describe('serverMemoryLimit', () => {
  it("should take the server's own limit over the node's container limit, which carries Wings' overhead", () => {
    // 2048 MiB on Wings: a container of 2048 × 1.15 MB.
    expect(formatBytes(serverMemoryLimit(2048, 2_355_200_000)!, 'en')).toBe('2 GiB');
    expect(formatBytes(serverMemoryLimit(2048)!, 'en')).toBe('2 GiB');
    expect(formatBytes(serverMemoryLimit(1536, 1_766_400_000)!, 'en')).toBe('1.5 GiB');
  });

  it('should fall back to the container limit for a server without one, and to null when nothing is known', () => {
    expect(serverMemoryLimit(0, 8 * 1024 ** 3)).toBe(8 * 1024 ** 3);
    expect(serverMemoryLimit(0, 0)).toBeNull();
  });
});

describe('formatPercent', () => {
  it('should take a percentage, not a fraction', () => {
    expect(formatPercent(42.345, 'en')).toBe('42.3%');
    expect(formatPercent(250, 'en')).toBe('250%');
  });
});

describe('formatDateTime', () => {
  it('should name the time zone', () => {
    expect(formatDateTime('2026-01-02T03:04:00Z', 'en', 'UTC')).toBe('Jan 2, 2026, 3:04 AM UTC');
  });

  it('should show a dash for a bad date', () => {
    expect(formatDateTime('nope')).toBe('–');
  });
});

describe('formatRelativeSeconds', () => {
  it('should pick the unit by size', () => {
    expect(formatRelativeSeconds(-30, 'en')).toBe('30 seconds ago');
    expect(formatRelativeSeconds(300, 'en')).toBe('in 5 minutes');
    expect(formatRelativeSeconds(-7200, 'en')).toBe('2 hours ago');
    expect(formatRelativeSeconds(86_400 * 3, 'en')).toBe('in 3 days');
  });
});

describe('formatDuration', () => {
  it('should split into hours, minutes and seconds', () => {
    expect(formatDuration(75, 'en')).toBe('1 min 15 sec');
    expect(formatDuration(3600, 'en')).toBe('1 hr');
    expect(formatDuration(0, 'en')).toBe('0 sec');
  });
});
