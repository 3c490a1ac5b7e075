import { describe, expect, it } from 'vitest';
import { pickedFromPath, planUpload, UploadQueue, type TransportResult, type UploadFailure, type UploadRequest, type UploadTransport } from '@/features/files/upload-queue';

/** A transport whose requests the test answers one by one. */
class FakeTransport {
  readonly calls: { request: UploadRequest; progress: (loaded: number) => void; signal: AbortSignal; resolve: (r: TransportResult) => void; reject: (e: unknown) => void }[] = [];

  readonly send: UploadTransport = (request, progress, signal) =>
    new Promise<TransportResult>((resolve, reject) => {
      signal.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
      this.calls.push({ request, progress, signal, resolve, reject });
    });

  names(): string[] {
    return this.calls.map((c) => c.request.name);
  }

  call(name: string) {
    const found = this.calls.find((c) => c.request.name === name);
    if (!found) {
      throw new Error(`${name} was never sent`);
    }
    return found;
  }
}

const file = (size: number): Blob => new Blob([new Uint8Array(size)]);
const requests = (...names: string[]): UploadRequest[] => names.map((name) => ({ file: file(10), name, directory: '/' }));
const flush = () => new Promise((resolve) => setTimeout(resolve, 0));
const statusOf = (queue: UploadQueue) => Object.fromEntries(queue.items().map((i) => [i.name, i.status]));

describe('UploadQueue', () => {
  it('should send three files at a time and start the next when one ends', async () => {
    const transport = new FakeTransport();
    const queue = new UploadQueue({ transport: transport.send });

    queue.add(requests('a', 'b', 'c', 'd', 'e'));
    expect(transport.names()).toEqual(['a', 'b', 'c']);
    expect(statusOf(queue)).toEqual({ a: 'uploading', b: 'uploading', c: 'uploading', d: 'queued', e: 'queued' });

    transport.call('b').resolve({});
    await flush();
    expect(transport.names()).toEqual(['a', 'b', 'c', 'd']);
    expect(statusOf(queue).b).toBe('done');
  });

  it('should report each file its own progress, capped at its size', async () => {
    const transport = new FakeTransport();
    const queue = new UploadQueue({ transport: transport.send });
    queue.add([
      { file: file(100), name: 'big', directory: '/' },
      { file: file(50), name: 'small', directory: '/' },
    ]);

    transport.call('big').progress(40);
    transport.call('small').progress(500);
    expect(queue.items().map((i) => [i.name, i.loaded, i.size])).toEqual([
      ['big', 40, 100],
      ['small', 50, 50],
    ]);
    transport.call('big').resolve({});
    await flush();
    expect(queue.items()[0]).toMatchObject({ status: 'done', loaded: 100 });
  });

  it('should keep the other uploads going when one fails, and keep the failure', async () => {
    const transport = new FakeTransport();
    const settled: string[] = [];
    const queue = new UploadQueue({ transport: transport.send, onSettled: (i) => settled.push(`${i.name}:${i.status}`) });
    queue.add(requests('a', 'b', 'c', 'd'));

    const failure: UploadFailure = { status: 502, code: 'DAEMON_HTTP_ERROR', message: 'node said no', requestId: 'req-1' };
    transport.call('a').reject(failure);
    await flush();
    expect(statusOf(queue)).toEqual({ a: 'failed', b: 'uploading', c: 'uploading', d: 'uploading' });
    expect(queue.items()[0].error).toEqual(failure);

    transport.call('b').resolve({});
    transport.call('c').resolve({});
    transport.call('d').resolve({});
    await flush();
    expect(settled).toEqual(['a:failed', 'b:done', 'c:done', 'd:done']);
  });

  it('should call an error without the panel shape a network failure', async () => {
    const transport = new FakeTransport();
    const queue = new UploadQueue({ transport: transport.send });
    queue.add(requests('a'));
    transport.call('a').reject(new Error('connection reset'));
    await flush();
    expect(queue.items()[0].error).toEqual({ status: 0, code: 'NETWORK_ERROR', message: 'connection reset' });
  });

  it('should refuse a file over the size limit without sending it', () => {
    const transport = new FakeTransport();
    const settled: string[] = [];
    const queue = new UploadQueue({ transport: transport.send, maxBytes: 1024, onSettled: (i) => settled.push(`${i.name}:${i.status}`) });

    queue.add([
      { file: file(1025), name: 'too-big.jar', directory: '/' },
      { file: file(1024), name: 'just-fits.jar', directory: '/' },
    ]);
    expect(transport.names()).toEqual(['just-fits.jar']);
    expect(queue.items()[0]).toMatchObject({ status: 'refused', error: { status: 413, code: 'FILE_TOO_LARGE' } });
    expect(settled).toEqual(['too-big.jar:refused']);
  });

  it('should send anything when the size limit is unknown, and check once it is known', () => {
    const transport = new FakeTransport();
    const queue = new UploadQueue({ transport: transport.send });
    queue.add([{ file: file(5000), name: 'early', directory: '/' }]);
    queue.setMaxBytes(1000);
    queue.add([{ file: file(5000), name: 'late', directory: '/' }]);
    expect(transport.names()).toEqual(['early']);
    expect(statusOf(queue)).toEqual({ early: 'uploading', late: 'refused' });
  });

  it('should cancel a running upload (aborting its request) and a queued one, and go on with the rest', async () => {
    const transport = new FakeTransport();
    const queue = new UploadQueue({ transport: transport.send, concurrency: 1 });
    const [a, b] = queue.add(requests('a', 'b', 'c'));

    queue.cancel(b);
    queue.cancel(a);
    expect(transport.call('a').signal.aborted).toBe(true);
    await flush();
    expect(statusOf(queue)).toEqual({ a: 'cancelled', b: 'cancelled', c: 'uploading' });
    expect(transport.names()).toEqual(['a', 'c']);
  });

  it('should retry a failed or cancelled upload from the start, and nothing else', async () => {
    const transport = new FakeTransport();
    const queue = new UploadQueue({ transport: transport.send });
    const [a, b] = queue.add(requests('a', 'b'));
    transport.call('a').progress(5);
    transport.call('a').reject({ status: 500, code: 'INTERNAL_ERROR', message: 'x' });
    await flush();

    queue.retry(b); // still running: no second request
    queue.retry(a);
    expect(transport.names()).toEqual(['a', 'b', 'a']);
    expect(queue.items()[0]).toMatchObject({ status: 'uploading', loaded: 0, error: undefined });
    transport.calls[2].resolve({});
    await flush();
    expect(statusOf(queue).a).toBe('done');
  });

  it('should wait for the rate-limit reset before starting more when few requests remain', async () => {
    const transport = new FakeTransport();
    let clock = 1_000_000;
    const waits: { ms: number; go: () => void }[] = [];
    const queue = new UploadQueue({
      transport: transport.send,
      concurrency: 1,
      lowRemaining: 5,
      now: () => clock,
      wait: (ms) => new Promise<void>((resolve) => waits.push({ ms, go: resolve })),
    });
    queue.add(requests('a', 'b'));

    transport.call('a').resolve({ remaining: 3, resetAt: (clock + 20_000) / 1000 });
    await flush();
    expect(transport.names()).toEqual(['a']);
    expect(waits.map((w) => w.ms)).toEqual([20_000]);

    clock += 20_000;
    waits[0].go();
    await flush();
    expect(transport.names()).toEqual(['a', 'b']);
  });

  it('should not pause while enough requests remain', async () => {
    const transport = new FakeTransport();
    const queue = new UploadQueue({ transport: transport.send, concurrency: 1, lowRemaining: 5, wait: () => Promise.reject(new Error('must not wait')) });
    queue.add(requests('a', 'b'));
    transport.call('a').resolve({ remaining: 6, resetAt: Date.now() / 1000 + 60 });
    await flush();
    expect(transport.names()).toEqual(['a', 'b']);
  });

  it('should send a rate-limited (429) file again after Retry-After, then give up after the retries', async () => {
    const transport = new FakeTransport();
    let clock = 0;
    const waits: { ms: number; go: () => void }[] = [];
    const queue = new UploadQueue({
      transport: transport.send,
      rateLimitRetries: 1,
      now: () => clock,
      wait: (ms) => new Promise<void>((resolve) => waits.push({ ms, go: resolve })),
    });
    queue.add(requests('a'));
    const limited: UploadFailure = { status: 429, code: 'RATE_LIMITED', message: 'slow down', retryAfterS: 7 };

    transport.calls[0].reject(limited);
    await flush();
    expect(statusOf(queue).a).toBe('queued');
    expect(waits.map((w) => w.ms)).toEqual([7000]);
    clock += 7000;
    waits[0].go();
    await flush();
    expect(transport.names()).toEqual(['a', 'a']);

    transport.calls[1].reject(limited);
    await flush();
    expect(queue.items()[0]).toMatchObject({ status: 'failed', error: limited });
  });

  it('should notify subscribers with a new snapshot on each change, and clear finished items', async () => {
    const transport = new FakeTransport();
    const queue = new UploadQueue({ transport: transport.send });
    let calls = 0;
    const unsubscribe = queue.subscribe(() => (calls += 1));
    const before = queue.items();
    queue.add(requests('a', 'b'));
    expect(calls).toBeGreaterThan(0);
    expect(queue.items()).not.toBe(before);
    expect(queue.items()).toBe(queue.items());

    transport.call('a').resolve({});
    await flush();
    queue.clearFinished();
    expect(queue.items().map((i) => i.name)).toEqual(['b']);
    unsubscribe();
    const seen = calls;
    queue.cancel(queue.items()[0].id);
    expect(calls).toBe(seen);
  });
});

describe('planUpload', () => {
  it('should create each folder once, parents first, and send each file into its folder', () => {
    const blob = file(1);
    const picked = [pickedFromPath(blob, '/world/region/r.0.0.mca'), pickedFromPath(blob, './world/level.dat'), pickedFromPath(blob, 'server.jar')];
    const plan = planUpload('/plugins', picked);
    expect(plan.folders).toEqual(['/plugins/world', '/plugins/world/region']);
    expect(plan.requests.map((r) => [r.directory, r.name])).toEqual([
      ['/plugins/world/region', 'r.0.0.mca'],
      ['/plugins/world', 'level.dat'],
      ['/plugins', 'server.jar'],
    ]);
  });

  it('should create nothing for plain files at the root', () => {
    expect(planUpload('/', [pickedFromPath(file(1), 'a.txt')])).toEqual({ folders: [], requests: [{ file: expect.any(Blob) as Blob, name: 'a.txt', directory: '/' }] });
  });
});
