import { SystemClock } from 'src/common/clock';
import { FakeClock } from 'test/utils/fake-clock';

describe(SystemClock.name, () => {
  const sut = new SystemClock();

  it('should resolve a zero wait', async () => {
    await expect(sut.sleep(0)).resolves.toBeUndefined();
  });

  it('should refuse to start a wait on a signal that has already aborted', async () => {
    await expect(sut.sleep(10, AbortSignal.abort(new Error('stopped')))).rejects.toThrow('stopped');
  });

  it('should cut a long wait short when the signal aborts', async () => {
    const controller = new AbortController();
    const waiting = sut.sleep(3_600_000, controller.signal);
    controller.abort(new Error('shutting down'));
    await expect(waiting).rejects.toThrow('shutting down');
  });
});

describe(FakeClock.name, () => {
  it('should record each wait and move its time past it', async () => {
    const sut = new FakeClock(Date.parse('2025-01-01T00:00:00Z'));
    await sut.sleep(30_000);
    await sut.sleep(5_000);
    expect(sut.sleeps).toEqual([30_000, 5_000]);
    expect(sut.now().toISOString()).toBe('2025-01-01T00:00:35.000Z');
    await expect(sut.sleep(1, AbortSignal.abort('stopped'))).rejects.toThrow('stopped');
  });
});
