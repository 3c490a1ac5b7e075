import { MemoryRateLimitStore } from 'src/common/rate-limit/memory-rate-limit.store';
import { FakeClock } from 'test/utils/fake-clock';

describe('MemoryRateLimitStore', () => {
  let clock: FakeClock;
  let store: MemoryRateLimitStore;

  beforeEach(() => {
    clock = new FakeClock(Date.UTC(2026, 0, 1));
    store = new MemoryRateLimitStore(clock);
  });

  afterEach(() => store.onModuleDestroy());

  it('should count hits in a window that opens on the first hit and ends windowMs later', async () => {
    expect(await store.increment('k', 60_000)).toEqual({ count: 1, resetAt: new Date(Date.UTC(2026, 0, 1, 0, 1)) });
    clock.advance(59_999);
    expect((await store.increment('k', 60_000)).count).toBe(2);
    expect(await store.get('k')).toEqual({ count: 2, resetAt: new Date(Date.UTC(2026, 0, 1, 0, 1)) });
    clock.advance(1);
    expect(await store.get('k')).toBeNull();
    expect(await store.increment('k', 60_000)).toEqual({ count: 1, resetAt: new Date(Date.UTC(2026, 0, 1, 0, 2)) });
  });

  it('should keep keys apart, forget a reset key, and sweep ended windows', async () => {
    await store.increment('a', 1_000);
    await store.increment('b', 10_000);
    await store.reset('b');
    expect(await store.get('b')).toBeNull();
    await store.increment('b', 10_000);
    clock.advance(1_000);
    store.sweep();
    expect(store.size).toBe(1);
    expect((await store.get('b'))?.count).toBe(1);
  });
});
