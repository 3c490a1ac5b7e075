import { describe, expect, it } from 'vitest';
import { maybeStillRunning, OperationsStore } from '@/features/files/operations';
import { ApiError } from '@/lib/api/api-error';

describe('OperationsStore', () => {
  it('should show an operation as running, then as it ended', async () => {
    const store = new OperationsStore();
    let finish!: () => void;
    const running = store.run('compress', 'world', () => new Promise<void>((resolve) => (finish = resolve)));
    expect(store.items()).toEqual([{ id: 1, kind: 'compress', subject: 'world', status: 'running' }]);
    finish();
    await expect(running).resolves.toMatchObject({ status: 'done' });
    expect(store.items()[0].status).toBe('done');
  });

  it('should call a proxy timeout "may still be running" and any other error a failure', async () => {
    const store = new OperationsStore();
    const timeout = await store.run('decompress', 'a.zip', () => Promise.reject(new ApiError(504, 'HTTP_504', 'Gateway Timeout')));
    const failed = await store.run('decompress', 'b.zip', () => Promise.reject(new ApiError(400, 'FILE_PATH_INVALID', 'bad path')));
    expect([timeout.status, failed.status]).toEqual(['unsure', 'failed']);
    expect(failed.error).toMatchObject({ status: 400, code: 'FILE_PATH_INVALID' });
  });

  it('should keep running operations when the finished ones are cleared', async () => {
    const store = new OperationsStore();
    void store.run('pull', 'https://example.com/a', () => new Promise(() => undefined));
    await store.run('compress', 'x', () => Promise.resolve());
    store.clearFinished();
    expect(store.items().map((op) => op.subject)).toEqual(['https://example.com/a']);
    store.dismiss(store.items()[0].id);
    expect(store.items()).toHaveLength(1);
  });
});

describe('maybeStillRunning', () => {
  it.each([
    [{ status: 504, code: 'HTTP_504' }, true],
    [{ status: 504, code: 'DAEMON_TIMEOUT' }, true],
    [{ status: 502, code: 'HTTP_502' }, true],
    [{ status: 502, code: 'DAEMON_HTTP_ERROR' }, false],
    [{ status: 500, code: 'INTERNAL_ERROR' }, false],
    [new Error('x'), false],
  ])('%j → %s', (error, expected) => {
    expect(maybeStillRunning(error)).toBe(expected);
  });
});
