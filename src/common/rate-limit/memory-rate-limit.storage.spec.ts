import { MemoryRateLimitStorage } from 'src/common/rate-limit/memory-rate-limit.storage';
import { FakeClock } from 'test/utils/fake-clock';

describe('MemoryRateLimitStorage', () => {
  const start = Date.UTC(2026, 0, 1);
  let clock: FakeClock;
  let storage: MemoryRateLimitStorage;

  beforeEach(() => {
    clock = new FakeClock(start);
    storage = new MemoryRateLimitStorage(clock);
  });

  afterEach(() => storage.onModuleDestroy());

  it('should count hits in a window that opens on the first hit and ends ttl later, refused hits included', async () => {
    expect(await storage.increment('k', 60_000, 2, 60_000, 'r')).toEqual({ totalHits: 1, timeToExpire: 60, isBlocked: false, timeToBlockExpire: 0, resetAt: start + 60_000 });
    clock.advance(59_001);
    expect(await storage.increment('k', 60_000, 2, 60_000, 'r')).toMatchObject({ totalHits: 2, timeToExpire: 1, isBlocked: false });
    expect(await storage.increment('k', 60_000, 2, 60_000, 'r')).toEqual({ totalHits: 3, timeToExpire: 1, isBlocked: true, timeToBlockExpire: 1, resetAt: start + 60_000 });
    expect(await storage.peek('k', 'r')).toEqual({ totalHits: 3, resetAt: start + 60_000 });
    clock.advance(999);
    expect(await storage.peek('k', 'r')).toBeNull();
    expect(await storage.increment('k', 60_000, 2, 60_000, 'r')).toMatchObject({ totalHits: 1, resetAt: start + 120_000 });
  });

  it('should keep keys and throttlers apart and sweep ended windows', async () => {
    await storage.increment('a', 1_000, 5, 1_000, 'r');
    await storage.increment('b', 10_000, 5, 10_000, 'r');
    await storage.increment('b', 10_000, 5, 10_000, 's');
    expect((await storage.peek('b', 'r'))?.totalHits).toBe(1);
    clock.advance(1_000);
    storage.sweep();
    expect(storage.size).toBe(2);
    expect(await storage.peek('a', 'r')).toBeNull();
    expect((await storage.peek('b', 's'))?.totalHits).toBe(1);
  });
});
