import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  backoffDelay,
  ConsoleClient,
  parseStats,
  tokenTimes,
  type ConsoleCredentials,
  type ConsoleEvent,
  type ConsoleState,
  type SocketLike,
} from '@/features/console/console-client';

const SOCKET_URL = 'ws://node.example:8080/api/servers/abc/ws';

/** An unsigned JWT-shaped token with these claims (the client only reads exp and iat). */
const tokenWith = (iat: number, exp: number, n = 0): string => {
  const b64 = (o: object) => btoa(JSON.stringify(o)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
  return `${b64({ alg: 'HS256' })}.${b64({ iat, exp, n })}.sig`;
};

class FakeSocket implements SocketLike {
  onopen: SocketLike['onopen'] = null;
  onmessage: SocketLike['onmessage'] = null;
  onclose: SocketLike['onclose'] = null;
  onerror: SocketLike['onerror'] = null;
  readonly sent: { event: string; args?: string[] }[] = [];
  closedWith: { code?: number; reason?: string } | null = null;

  constructor(readonly url: string) {}

  send(data: string): void {
    this.sent.push(JSON.parse(data) as { event: string; args?: string[] });
  }

  close(code?: number, reason?: string): void {
    this.closedWith = { code, reason };
  }

  open(): void {
    this.onopen?.({});
  }

  receive(event: string, ...args: string[]): void {
    this.onmessage?.({ data: JSON.stringify(args.length ? { event, args } : { event }) });
  }

  /** The node (or the network) ends the connection. */
  drop(code = 1006, reason = ''): void {
    this.onclose?.({ code, reason });
  }

  events(): string[] {
    return this.sent.map((f) => f.event);
  }
}

interface Harness {
  client: ConsoleClient;
  sockets: FakeSocket[];
  events: ConsoleEvent[];
  fetches: () => number;
  states: () => ConsoleState['phase'][];
  last: () => FakeSocket;
}

const flush = () => vi.advanceTimersByTimeAsync(0);

const nowS = () => Math.floor(Date.now() / 1000);

/** The client with fake sockets, Vitest's fake clock, and credentials from `answer` (default: 15-minute tokens). */
const harness = (
  opts: { answer?: (call: number) => Promise<ConsoleCredentials>; random?: () => number; maxAttempts?: number; pageProtocol?: string; isOnline?: () => boolean } = {},
): Harness => {
  const sockets: FakeSocket[] = [];
  const events: ConsoleEvent[] = [];
  let calls = 0;
  const client = new ConsoleClient({
    fetchCredentials: () => {
      calls++;
      return opts.answer ? opts.answer(calls) : Promise.resolve({ token: tokenWith(nowS(), nowS() + 900, calls), socket: SOCKET_URL });
    },
    createSocket: (url) => {
      const s = new FakeSocket(url);
      sockets.push(s);
      return s;
    },
    random: opts.random ?? (() => 0),
    maxAttempts: opts.maxAttempts,
    pageProtocol: opts.pageProtocol ?? 'http:',
    isOnline: opts.isOnline,
  });
  client.on((e) => events.push(e));
  return {
    client,
    sockets,
    events,
    fetches: () => calls,
    states: () => events.flatMap((e) => (e.type === 'state' ? [e.state.phase] : [])),
    last: () => sockets[sockets.length - 1],
  };
};

/** Starts the client and completes the first auth. */
const connected = async (h: Harness): Promise<FakeSocket> => {
  h.client.start();
  await flush();
  expect(h.sockets).toHaveLength(1);
  const s = h.last();
  s.open();
  s.receive('auth success');
  return s;
};


beforeEach(() => {
  vi.useFakeTimers({ now: new Date('2026-11-24T12:00:00Z') });
});

afterEach(() => {
  vi.useRealTimers();
});

describe('ConsoleClient: auth flow', () => {
  it('should fetch credentials, open the socket, send auth first, then ask for the logs once after auth success', async () => {
    const h = harness();
    h.client.start();
    await flush();
    expect(h.fetches()).toBe(1);
    const s = h.last();
    expect(s.url).toBe(SOCKET_URL);
    expect(s.sent).toEqual([]);
    s.open();
    expect(s.sent).toHaveLength(1);
    expect(s.sent[0].event).toBe('auth');
    expect(tokenTimes(s.sent[0].args![0])).not.toBeNull();
    expect(h.client.state.phase).toBe('connecting');
    s.receive('auth success');
    expect(h.client.state.phase).toBe('connected');
    expect(s.events()).toEqual(['auth', 'send logs', 'send stats']);
    s.receive('status', 'running');
    expect(s.events().filter((e) => e === 'send logs')).toHaveLength(1);
    expect(h.states()).toEqual(['connecting', 'connected']);
  });

  it('should send commands only while connected', async () => {
    const h = harness();
    h.client.start();
    await flush();
    expect(h.client.sendCommand('say hi')).toBe(false);
    h.last().open();
    h.last().receive('auth success');
    expect(h.client.sendCommand('say hi')).toBe(true);
    expect(h.last().sent.at(-1)).toEqual({ event: 'send command', args: ['say hi'] });
  });
});

describe('ConsoleClient: events', () => {
  it('should parse stats JSON from args[0] into numbers and keep the last sample', async () => {
    const h = harness();
    const s = await connected(h);
    const payload = {
      memory_bytes: 1024,
      memory_limit_bytes: 4096,
      cpu_absolute: 150.5,
      network: { rx_bytes: 10, tx_bytes: 20 },
      uptime: 60_000,
      disk_bytes: 77,
      state: 'running',
    };
    s.receive('stats', JSON.stringify(payload));
    expect(h.events.at(-1)).toEqual({
      type: 'stats',
      stats: { memoryBytes: 1024, memoryLimitBytes: 4096, cpuAbsolute: 150.5, networkRxBytes: 10, networkTxBytes: 20, uptimeMs: 60_000, diskBytes: 77, state: 'running' },
    });
    expect(h.client.stats?.cpuAbsolute).toBe(150.5);
    const before = h.events.length;
    s.receive('stats', 'not json');
    expect(h.events).toHaveLength(before);
  });

  it('should turn output, status, install and daemon events into typed events', async () => {
    const h = harness();
    const s = await connected(h);
    h.events.length = 0;
    s.receive('console output', 'Done (1.2s)!\n');
    s.receive('status', 'starting');
    s.receive('install started');
    s.receive('install output', 'step 1');
    s.receive('install completed');
    s.receive('daemon message', 'Pulling image');
    s.receive('daemon error', 'Error Event [1234-abcd]: disk full');
    s.receive('backup completed', '{"uuid":"x"}');
    s.onmessage?.({ data: '{not json' });
    expect(h.events).toEqual([
      { type: 'output', line: 'Done (1.2s)!', source: 'console' },
      { type: 'status', status: 'starting' },
      { type: 'install', phase: 'started' },
      { type: 'output', line: 'step 1', source: 'install' },
      { type: 'install', phase: 'completed' },
      { type: 'output', line: 'Pulling image', source: 'daemon' },
      { type: 'daemon-error', message: 'disk full' },
      { type: 'event', event: 'backup completed', args: ['{"uuid":"x"}'] },
    ]);
    expect(h.client.status).toBe('starting');
  });

  it('should stop and report the server deleted on a `deleted` event', async () => {
    const h = harness();
    const s = await connected(h);
    s.receive('deleted');
    expect(h.client.state.phase).toBe('deleted');
    expect(s.closedWith).not.toBeNull();
  });
});

describe('ConsoleClient: token renewal', () => {
  it('should renew 90 s before exp and send auth on the same socket without asking for the logs again', async () => {
    const h = harness();
    const s = await connected(h);
    await vi.advanceTimersByTimeAsync(809_000);
    expect(h.fetches()).toBe(1);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(h.fetches()).toBe(2);
    expect(h.sockets).toHaveLength(1);
    const auths = s.sent.filter((f) => f.event === 'auth');
    expect(auths).toHaveLength(2);
    expect(auths[1].args![0]).not.toBe(auths[0].args![0]);
    s.receive('auth success');
    expect(h.events.at(-1)).toEqual({ type: 'token-refreshed' });
    expect(s.events().filter((e) => e === 'send logs')).toHaveLength(1);
    expect(h.client.state.phase).toBe('connected');
    // And the next one is scheduled from the new token.
    await vi.advanceTimersByTimeAsync(810_000);
    expect(h.fetches()).toBe(3);
  });

  it('should renew at half the life of a token shorter than 180 s', async () => {
    const h = harness({ answer: () => Promise.resolve({ token: tokenWith(nowS(), nowS() + 10), socket: SOCKET_URL }) });
    await connected(h);
    await vi.advanceTimersByTimeAsync(4_999);
    expect(h.fetches()).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(h.fetches()).toBe(2);
  });

  it('should renew on `token expiring` when the token is not fresh, and ignore it right after a renewal', async () => {
    const h = harness();
    const s = await connected(h);
    // The renewal timer was throttled (a background tab): the clock moved on, the timer did not fire.
    vi.setSystemTime(Date.now() + 850_000);
    s.receive('token expiring');
    await flush();
    expect(h.fetches()).toBe(2);
    s.receive('auth success');
    // Wings checks again before it has read the new token: that warning is about the old one.
    s.receive('token expiring');
    await flush();
    expect(h.fetches()).toBe(2);
  });

  it('should keep one renewal in flight however many reasons arrive', async () => {
    let release: (v: ConsoleCredentials) => void = () => undefined;
    const h = harness({
      answer: (call) =>
        call === 1
          ? Promise.resolve({ token: tokenWith(nowS(), nowS() + 900), socket: SOCKET_URL })
          : new Promise<ConsoleCredentials>((resolve) => {
              release = resolve;
            }),
    });
    const s = await connected(h);
    vi.setSystemTime(Date.now() + 900_000);
    s.receive('token expired');
    s.receive('jwt error', 'jwt: exp claim is invalid');
    s.receive('token expiring');
    await flush();
    expect(h.fetches()).toBe(2);
    release({ token: tokenWith(nowS(), nowS() + 900, 2), socket: SOCKET_URL });
    await flush();
    expect(s.sent.filter((f) => f.event === 'auth')).toHaveLength(2);
  });

  it('should renew on the jwt errors a new token cures (expired, issued before a daemon restart)', async () => {
    const h = harness();
    const s = await connected(h);
    s.receive('jwt error', 'jwt: created too far in past (denylist)');
    await flush();
    expect(h.fetches()).toBe(2);
    expect(h.client.state.phase).toBe('connected');
  });

  it('should stop with "access removed" on any other jwt error, and not reconnect', async () => {
    const h = harness();
    const s = await connected(h);
    s.receive('jwt error', 'Error Event [x]: jwt: user does not have permission to connect to this server');
    expect(h.client.state).toEqual({ phase: 'failed', diagnosis: { kind: 'access-removed' } });
    expect(s.closedWith).not.toBeNull();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(h.sockets).toHaveLength(1);
  });

  it('should stop with "access removed" when the renewal is refused with 403', async () => {
    const h = harness({
      answer: (call) =>
        call === 1 ? Promise.resolve({ token: tokenWith(nowS(), nowS() + 900), socket: SOCKET_URL }) : Promise.reject(Object.assign(new Error('no'), { status: 403 })),
    });
    await connected(h);
    await vi.advanceTimersByTimeAsync(810_000);
    expect(h.client.state).toEqual({ phase: 'failed', diagnosis: { kind: 'access-removed' } });
  });
});

describe('ConsoleClient: a server that cannot have a console', () => {
  it('should stop with "transferring" when the panel answers 409 SERVER_TRANSFERRING, and "suspended" on any other 409', async () => {
    const refused = (code: string) => harness({ answer: () => Promise.reject(Object.assign(new Error('no'), { status: 409, code })) });
    const moving = refused('SERVER_TRANSFERRING');
    moving.client.start();
    await flush();
    expect([moving.client.state, moving.sockets]).toEqual([{ phase: 'failed', diagnosis: { kind: 'transferring' } }, []]);
    const suspended = refused('SERVER_SUSPENDED');
    suspended.client.start();
    await flush();
    expect(suspended.client.state).toEqual({ phase: 'failed', diagnosis: { kind: 'suspended' } });
  });
});

describe('ConsoleClient: reconnects', () => {
  it('should wait 1 s, 2 s, 4 s … up to 20 s, with jitter taking at most a quarter off', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 20].map((a) => backoffDelay(a, () => 0))).toEqual([1000, 2000, 4000, 8000, 16000, 20000, 20000, 20000]);
    for (let attempt = 1; attempt <= 10; attempt++) {
      const full = Math.min(20_000, 1000 * 2 ** (attempt - 1));
      expect(backoffDelay(attempt, () => 0.999_999)).toBeGreaterThanOrEqual(full * 0.75);
      expect(backoffDelay(attempt, () => 0.5)).toBeLessThan(full);
      expect(backoffDelay(attempt, () => 0.5)).toBeLessThanOrEqual(20_000);
    }
  });

  it('should reconnect after a dropped connection, keep status and stats, reuse a valid token and ask for the logs again', async () => {
    const h = harness({ random: () => 0.5 });
    const s = await connected(h);
    s.receive('status', 'running');
    s.receive('stats', JSON.stringify({ cpu_absolute: 12 }));
    s.drop(1006);
    expect(h.client.state).toEqual({ phase: 'reconnecting', attempt: 1, delayMs: 875 });
    await vi.advanceTimersByTimeAsync(874);
    expect(h.sockets).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(h.sockets).toHaveLength(2);
    // The token had 15 minutes left: no new fetch.
    expect(h.fetches()).toBe(1);
    expect(h.client.status).toBe('running');
    expect(h.client.stats?.cpuAbsolute).toBe(12);
    const s2 = h.last();
    s2.open();
    s2.receive('auth success');
    expect(s2.events()).toEqual(['auth', 'send logs', 'send stats']);
    expect(h.events.filter((e) => e.type === 'reconnected')).toHaveLength(1);
    expect(h.client.state.phase).toBe('connected');
  });

  it('should fetch a new token before reconnecting when less than 60 s are left', async () => {
    const h = harness();
    const s = await connected(h);
    vi.setSystemTime(Date.now() + 850_000);
    s.drop();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(h.fetches()).toBe(2);
    expect(h.sockets).toHaveLength(2);
  });

  it('should grow the delay on each failed attempt and reset it once connected', async () => {
    const h = harness();
    await connected(h);
    const delays: number[] = [];
    for (let i = 0; i < 4; i++) {
      h.last().drop();
      const state = h.client.state;
      if (state.phase !== 'reconnecting') {throw new Error(state.phase);}
      delays.push(state.delayMs);
      await vi.advanceTimersByTimeAsync(state.delayMs);
    }
    expect(delays).toEqual([1000, 2000, 4000, 8000]);
    h.last().open();
    h.last().receive('auth success');
    h.last().drop();
    expect(h.client.state).toMatchObject({ phase: 'reconnecting', delayMs: 1000 });
  });

  it('should give up after N attempts that never opened and say the node is unreachable', async () => {
    const h = harness({ maxAttempts: 3 });
    h.client.start();
    await flush();
    for (let i = 0; i < 3; i++) {
      h.last().drop(1006);
      expect(h.client.state).toMatchObject({ phase: 'reconnecting', diagnosis: { kind: 'unreachable', socket: SOCKET_URL } });
      // The delays are 1, 2 and 4 s; the next socket is dropped before its connect timeout.
      await vi.advanceTimersByTimeAsync(5_000);
    }
    h.last().drop(1006);
    expect(h.client.state).toEqual({ phase: 'failed', diagnosis: { kind: 'unreachable', socket: SOCKET_URL } });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(h.sockets).toHaveLength(4);
    // Retry starts over.
    h.client.retry();
    await flush();
    expect(h.sockets).toHaveLength(5);
    expect(h.client.state).toEqual({ phase: 'connecting', attempt: 1 });
  });

  it('should give up a socket that a hung node never opens or never authenticates, and try again', async () => {
    const h = harness();
    h.client.start();
    await flush();
    // Never opened (the node holds the upgrade): unreachable, the socket closed, a new attempt later.
    await vi.advanceTimersByTimeAsync(9_999);
    expect(h.client.state).toEqual({ phase: 'connecting', attempt: 1 });
    await vi.advanceTimersByTimeAsync(1);
    expect(h.client.state).toMatchObject({ phase: 'reconnecting', attempt: 1, diagnosis: { kind: 'unreachable', socket: SOCKET_URL } });
    expect(h.sockets[0].closedWith).toEqual({ code: 1000, reason: 'no answer' });
    await vi.advanceTimersByTimeAsync(1_000);
    expect(h.sockets).toHaveLength(2);
    // Opened, auth sent, no answer: the node is down.
    h.last().open();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(h.client.state).toMatchObject({ phase: 'reconnecting', attempt: 2, diagnosis: { kind: 'node-down' } });
    // A socket that authenticates in time is kept.
    await vi.advanceTimersByTimeAsync(2_000);
    h.last().open();
    h.last().receive('auth success');
    await vi.advanceTimersByTimeAsync(60_000);
    expect(h.client.state).toEqual({ phase: 'connected' });
    expect(h.sockets).toHaveLength(3);
  });

  it('should wait without spending attempts while the browser is offline', async () => {
    let online = false;
    const h = harness({ maxAttempts: 2, isOnline: () => online });
    await connected(h);
    h.last().drop();
    await vi.advanceTimersByTimeAsync(120_000);
    expect(h.sockets).toHaveLength(1);
    expect(h.client.state.phase).toBe('reconnecting');
    online = true;
    await vi.advanceTimersByTimeAsync(2_000);
    expect(h.sockets).toHaveLength(2);
  });

  it('should say the node is down on 502 from the panel and keep trying', async () => {
    let down = true;
    const h = harness({
      answer: () =>
        down
          ? Promise.reject(Object.assign(new Error('Failed to prepare websocket session'), { status: 502, code: 'WEBSOCKET_PREPARE_FAILED' }))
          : Promise.resolve({ token: tokenWith(nowS(), nowS() + 900), socket: SOCKET_URL }),
    });
    h.client.start();
    await flush();
    expect(h.client.state).toEqual({ phase: 'reconnecting', attempt: 1, delayMs: 1000, diagnosis: { kind: 'node-down' } });
    expect(h.sockets).toHaveLength(0);
    down = false;
    await vi.advanceTimersByTimeAsync(1000);
    expect(h.sockets).toHaveLength(1);
  });

  it('should show the diagnostics of an unavailable server without opening a socket', async () => {
    const diagnostics = { error: 'not found', serverUuid: 'abc', serverIdentifier: 'abc', nodeId: '1', serverStatus: null };
    const h = harness({ answer: () => Promise.resolve({ unavailable: true, message: 'The server is not available on its node right now', diagnostics }) });
    h.client.start();
    await flush();
    expect(h.client.state).toEqual({ phase: 'failed', diagnosis: { kind: 'unavailable', message: 'The server is not available on its node right now', diagnostics } });
    expect(h.sockets).toHaveLength(0);
  });

  it('should refuse a ws:// socket from an https page as mixed content, before any attempt', async () => {
    const h = harness({ pageProtocol: 'https:' });
    h.client.start();
    await flush();
    expect(h.client.state).toEqual({ phase: 'failed', diagnosis: { kind: 'mixed-content', socket: SOCKET_URL } });
    expect(h.sockets).toHaveLength(0);
  });

  it('should not reconnect after close()', async () => {
    const h = harness();
    const s = await connected(h);
    h.client.close();
    expect(s.closedWith).toEqual({ code: 1000, reason: 'closed by the page' });
    s.drop(1000);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(h.sockets).toHaveLength(1);
    expect(h.client.state.phase).toBe('closed');
    // Nor renew its token.
    await vi.advanceTimersByTimeAsync(900_000);
    expect(h.fetches()).toBe(1);
  });

  it('should stop on close 1001 "server deleted"', async () => {
    const h = harness();
    const s = await connected(h);
    s.drop(1001, 'server deleted');
    expect(h.client.state.phase).toBe('deleted');
    await vi.advanceTimersByTimeAsync(60_000);
    expect(h.sockets).toHaveLength(1);
  });

  it('should reconnect on a 1001 for any other reason (the node going away)', async () => {
    const h = harness();
    const s = await connected(h);
    s.drop(1001, 'going away');
    expect(h.client.state.phase).toBe('reconnecting');
  });
});

describe('parseStats and tokenTimes', () => {
  it('should read missing numbers as 0', () => {
    expect(parseStats('{}')).toMatchObject({ memoryBytes: 0, networkRxBytes: 0, state: '' });
    expect(parseStats('null')).toBeNull();
    expect(parseStats(undefined)).toBeNull();
  });

  it('should read exp and iat from a base64url payload', () => {
    expect(tokenTimes(tokenWith(100, 1000))).toEqual({ exp: 1000, iat: 100 });
    expect(tokenTimes('garbage')).toBeNull();
  });
});
