import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { applyFrame, backoffDelay, LiveStatusClient, liveStatusUrl, MAX_SUBSCRIBED, parseFrame, type SocketLike } from '@/lib/live-status';

/** A socket the test opens, feeds and closes by hand; it records what the client sent. */
class FakeSocket implements SocketLike {
  readyState = 0;
  sent: unknown[] = [];
  closedWith: number | undefined;
  onopen: SocketLike['onopen'] = null;
  onmessage: SocketLike['onmessage'] = null;
  onclose: SocketLike['onclose'] = null;
  onerror: SocketLike['onerror'] = null;

  constructor(readonly url: string) {}

  send(data: string): void {
    if (this.readyState !== 1) {
      throw new Error('send before open');
    }
    this.sent.push(JSON.parse(data));
  }

  close(code = 1000): void {
    this.closedWith = code;
    this.readyState = 3;
  }

  open(): void {
    this.readyState = 1;
    this.onopen?.({});
  }

  frame(event: string, data: unknown): void {
    this.onmessage?.({ data: JSON.stringify({ event, data }) });
  }

  drop(code = 1006): void {
    this.readyState = 3;
    this.onclose?.({ code, reason: '' });
  }
}

const resources = (memoryBytes: number) => ({
  memoryBytes,
  memoryLimitBytes: 1024,
  cpuAbsolute: 12.5,
  diskBytes: 2048,
  networkRxBytes: 1,
  networkTxBytes: 2,
  uptime: 3,
});

describe('parseFrame', () => {
  it('reads resources, node-unreachable, subscribed and error frames', () => {
    expect(parseFrame(JSON.stringify({ event: 'resources', data: { a: { currentState: 'running', isSuspended: false, resources: resources(5) } } }))).toEqual({
      event: 'resources',
      data: { a: { currentState: 'running', isSuspended: false, resources: resources(5) } },
    });
    expect(parseFrame(JSON.stringify({ event: 'resources', data: { m: { currentState: 'missing', isSuspended: false, resources: null } } }))).toEqual({
      event: 'resources',
      data: { m: { currentState: 'missing', isSuspended: false, resources: null } },
    });
    expect(parseFrame(JSON.stringify({ event: 'node-unreachable', data: { nodeId: '2', servers: ['a'], code: 'DAEMON_TIMEOUT' } }))).toEqual({
      event: 'node-unreachable',
      data: { nodeId: '2', servers: ['a'], code: 'DAEMON_TIMEOUT' },
    });
    expect(parseFrame(JSON.stringify({ event: 'subscribed', data: { servers: ['a'] } }))).toEqual({ event: 'subscribed', data: { servers: ['a'] } });
    expect(parseFrame(JSON.stringify({ event: 'error', data: { code: 'TOO_MANY', message: 'no' } }))).toEqual({ event: 'error', data: { code: 'TOO_MANY', message: 'no' } });
  });

  it('ignores what is not a frame it knows', () => {
    expect(parseFrame('not json')).toBeNull();
    expect(parseFrame(new ArrayBuffer(2))).toBeNull();
    expect(parseFrame(JSON.stringify({ event: 'console', data: 'x' }))).toBeNull();
    expect(parseFrame(JSON.stringify({ event: 'node-unreachable', data: { nodeId: '2', servers: 'a' } }))).toBeNull();
    expect(parseFrame(JSON.stringify([1, 2]))).toBeNull();
  });

  it('drops malformed entries of a resources frame and zeroes non-numbers', () => {
    const frame = parseFrame(JSON.stringify({ event: 'resources', data: { a: { nope: 1 }, b: { currentState: 'offline', resources: { memoryBytes: 'x' } } } }));
    expect(frame).toEqual({
      event: 'resources',
      data: { b: { currentState: 'offline', isSuspended: false, resources: { ...resources(0), memoryLimitBytes: 0, cpuAbsolute: 0, diskBytes: 0, networkRxBytes: 0, networkTxBytes: 0, uptime: 0 } } },
    });
  });
});

describe('applyFrame', () => {
  it('marks exactly the listed servers unreachable and a later resources frame makes them live again', () => {
    let map = applyFrame(new Map(), { event: 'resources', data: { a: { currentState: 'running', isSuspended: false, resources: resources(1) }, b: { currentState: 'offline', isSuspended: false, resources: resources(2) } } });
    map = applyFrame(map, { event: 'node-unreachable', data: { nodeId: '7', servers: ['a'], code: 'DAEMON_UNAVAILABLE' } });
    expect(map.get('a')).toEqual({ kind: 'unreachable', nodeId: '7', code: 'DAEMON_UNAVAILABLE' });
    expect(map.get('b')).toMatchObject({ kind: 'live', currentState: 'offline' });
    map = applyFrame(map, { event: 'resources', data: { a: { currentState: 'starting', isSuspended: false, resources: resources(3) } } });
    expect(map.get('a')).toMatchObject({ kind: 'live', currentState: 'starting' });
  });

  it('keeps the same map for frames that change no server', () => {
    const map = new Map();
    expect(applyFrame(map, { event: 'error', data: { code: 'X', message: '' } })).toBe(map);
  });
});

describe('backoffDelay and liveStatusUrl', () => {
  it('doubles up to the cap, with jitter of at most 20 % below', () => {
    expect([0, 1, 2, 3, 10].map((n) => backoffDelay(n, 1000, 30_000, () => 1))).toEqual([1000, 2000, 4000, 8000, 30_000]);
    expect(backoffDelay(0, 1000, 30_000, () => 0)).toBe(800);
  });

  it('uses wss on https pages and the page host', () => {
    expect(liveStatusUrl({ protocol: 'https:', host: 'panel.example:8443' })).toBe('wss://panel.example:8443/api/ws');
    expect(liveStatusUrl({ protocol: 'http:', host: 'localhost:3000' })).toBe('ws://localhost:3000/api/ws');
  });
});

describe('LiveStatusClient', () => {
  let sockets: FakeSocket[];
  let client: LiveStatusClient;

  beforeEach(() => {
    vi.useFakeTimers();
    sockets = [];
    client = new LiveStatusClient({
      url: 'ws://panel/api/ws',
      createSocket: (url) => {
        const socket = new FakeSocket(url);
        sockets.push(socket);
        return socket;
      },
      initialBackoffMs: 100,
      maxBackoffMs: 1000,
      random: () => 1,
    });
  });

  afterEach(() => {
    client.stop();
    vi.useRealTimers();
  });

  it('sends the subscription once open and again whenever it changes', () => {
    client.subscribe(['a', 'b']);
    client.start();
    expect(client.getSnapshot().connection).toBe('connecting');
    expect(sockets[0].url).toBe('ws://panel/api/ws');
    sockets[0].open();
    expect(client.getSnapshot().connection).toBe('open');
    client.subscribe(['a', 'b']); // same set: nothing sent
    client.subscribe(['c']);
    expect(sockets[0].sent).toEqual([
      { event: 'subscribe', data: { servers: ['a', 'b'] } },
      { event: 'subscribe', data: { servers: ['c'] } },
    ]);
  });

  it('caps the subscription at the contract limit', () => {
    client.start();
    sockets[0].open();
    client.subscribe(Array.from({ length: 150 }, (_, i) => `s${i}`));
    expect((sockets[0].sent[1] as { data: { servers: string[] } }).data.servers).toHaveLength(MAX_SUBSCRIBED);
  });

  it('folds frames into the per-server map and tells its listeners', () => {
    const listener = vi.fn();
    client.subscribeStore(listener);
    client.subscribe(['a', 'b']);
    client.start();
    sockets[0].open();
    sockets[0].frame('subscribed', { servers: ['a'] });
    expect(client.getSnapshot().accepted).toEqual(new Set(['a']));
    sockets[0].frame('resources', { a: { currentState: 'running', isSuspended: false, resources: resources(10) } });
    sockets[0].frame('node-unreachable', { nodeId: '2', servers: ['b'], code: 'DAEMON_TIMEOUT' });
    const { servers } = client.getSnapshot();
    expect(servers.get('a')).toEqual({ kind: 'live', currentState: 'running', isSuspended: false, resources: resources(10) });
    expect(servers.get('b')).toEqual({ kind: 'unreachable', nodeId: '2', code: 'DAEMON_TIMEOUT' });
    expect(listener).toHaveBeenCalled();
    const before = client.getSnapshot();
    sockets[0].onmessage?.({ data: 'garbage' });
    expect(client.getSnapshot()).toBe(before);
  });

  it('forgets servers that are no longer watched, also from late frames', () => {
    client.subscribe(['a', 'b']);
    client.start();
    sockets[0].open();
    sockets[0].frame('resources', { a: { currentState: 'running', isSuspended: false, resources: null }, b: { currentState: 'offline', isSuspended: false, resources: null } });
    client.subscribe(['b']);
    expect([...client.getSnapshot().servers.keys()]).toEqual(['b']);
    sockets[0].frame('resources', { a: { currentState: 'running', isSuspended: false, resources: null } });
    expect(client.getSnapshot().servers.has('a')).toBe(false);
  });

  it('reconnects with growing delays and subscribes again on the new socket', () => {
    client.subscribe(['a']);
    client.start();
    sockets[0].open();
    sockets[0].drop();
    expect(client.getSnapshot().connection).toBe('reconnecting');
    vi.advanceTimersByTime(99);
    expect(sockets).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(sockets).toHaveLength(2);
    sockets[1].drop(); // never opened
    vi.advanceTimersByTime(199);
    expect(sockets).toHaveLength(2);
    vi.advanceTimersByTime(1);
    expect(sockets).toHaveLength(3);
    sockets[2].open();
    expect(sockets[2].sent).toEqual([{ event: 'subscribe', data: { servers: ['a'] } }]);
    // A successful open resets the backoff.
    sockets[2].drop();
    vi.advanceTimersByTime(100);
    expect(sockets).toHaveLength(4);
  });

  it('stops retrying when the panel refuses the credential', () => {
    client.start();
    sockets[0].drop(4401);
    expect(client.getSnapshot().connection).toBe('denied');
    vi.advanceTimersByTime(60_000);
    expect(sockets).toHaveLength(1);
  });

  it('closes its socket on stop and does not reconnect', () => {
    client.start();
    sockets[0].open();
    client.stop();
    expect(sockets[0].closedWith).toBe(1000);
    expect(client.getSnapshot().connection).toBe('idle');
    vi.advanceTimersByTime(60_000);
    expect(sockets).toHaveLength(1);
  });
});
