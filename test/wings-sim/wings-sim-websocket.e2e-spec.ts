// The simulator's websocket checked against Wings' behaviour (docs/wings.md#console-tokens).
import { randomUUID } from 'node:crypto';
import { WingsSimulator } from 'test/wings-sim/simulator';
import {
  Harness,
  WsClient,
  createInstalledServer,
  sign,
  signRaw,
  startHarness,
  stopHarness,
  waitFor,
  wsClaims,
} from 'test/wings-sim/testing/harness';

const ERROR_EVENT = /^Error Event \[[0-9a-f-]{36}\]: /;

describe(`${WingsSimulator.name} websocket`, () => {
  let h: Harness;
  let uuid: string;

  beforeEach(async () => {
    h = await startHarness();
    uuid = await createInstalledServer(h);
  });

  afterEach(async () => {
    await stopHarness(h);
  });

  const firstError = async (ws: WsClient): Promise<{ event: string; text: string }> => {
    const m = await ws.next((x) => x.event === 'jwt error' || x.event === 'daemon error');
    return { event: m.event, text: m.args![0] };
  };

  describe('handshake', () => {
    it('should refuse the upgrade with 403 when Origin is missing or differs from the panel URL', async () => {
      await expect(WsClient.connect(h, uuid, null)).rejects.toThrow('HTTP 403');
      await expect(WsClient.connect(h, uuid, `${h.panel.url}/`)).rejects.toThrow('HTTP 403');
    });

    it('should accept an origin listed in allowed_origins and answer 404 for an unknown server', async () => {
      h.sim.setConfiguration({ allowedOrigins: ['http://other.test'] });
      (await WsClient.connect(h, uuid, 'http://other.test')).close();
      await expect(WsClient.connect(h, randomUUID())).rejects.toThrow('HTTP 404');
    });

    it('should answer any event before auth with `jwt: no jwt present` and ignore frames that are not JSON', async () => {
      const ws = await WsClient.connect(h, uuid);
      ws.ws.send('not json');
      ws.send('send stats');
      expect(await firstError(ws)).toEqual({ event: 'jwt error', text: 'jwt: no jwt present' });
      expect(ws.messages).toHaveLength(1);
    });
  });

  describe('auth event', () => {
    it('should send auth success, then status and one stats event for an offline server', async () => {
      const ws = await WsClient.connect(h, uuid);
      const token = sign(wsClaims(uuid));
      // Args are concatenated, so a token may be split across elements.
      ws.send('auth', token.slice(0, 10), token.slice(10));
      await ws.next((m) => m.event === 'stats');
      expect(ws.messages.slice(0, 2)).toEqual([{ event: 'auth success' }, { event: 'status', args: ['offline'] }]);
      expect(JSON.parse(ws.messages[2].args![0])).toMatchObject({ state: 'offline', memory_bytes: 0, uptime: 0 });
    });

    it('should answer a bad signature with a generic daemon error (not a JWT-class error)', async () => {
      const ws = await WsClient.connect(h, uuid);
      ws.send('auth', sign(wsClaims(uuid), 'x'.repeat(64)));
      const err = await firstError(ws);
      expect(err.event).toBe('daemon error');
      expect(err.text).toMatch(ERROR_EVENT);
      expect(err.text).toMatch(/an unexpected error was encountered while handling this request$/);
    });

    it('should refuse iat before boot, a missing iat and a fractional iat', async () => {
      const boot = Math.floor(h.sim.bootTime.getTime() / 1000);
      const ws = await WsClient.connect(h, uuid);
      ws.send('auth', sign(wsClaims(uuid, { iat: boot - 60 })));
      const before = await firstError(ws);
      expect(before.event).toBe('jwt error');
      expect(before.text).toMatch(ERROR_EVENT);
      expect(before.text.replace(ERROR_EVENT, '')).toBe('jwt: created too far in past (denylist)');

      const { iat: _iat, ...noIat } = wsClaims(uuid);
      ws.messages.length = 0;
      ws.send('auth', signRaw(JSON.stringify(noIat)));
      expect((await firstError(ws)).text.replace(ERROR_EVENT, '')).toBe('jwt: created too far in past (denylist)');

      // gbrlsnchs decodes dates into int64: a fractional value fails decoding → not a JWT-class error.
      ws.messages.length = 0;
      ws.send('auth', signRaw(JSON.stringify(wsClaims(uuid, { iat: boot + 0.5 }))));
      expect((await firstError(ws)).event).toBe('daemon error');
    });

    it('should refuse an expired or exp-less token with `jwt: exp claim is invalid`', async () => {
      const ws = await WsClient.connect(h, uuid);
      ws.send('auth', sign(wsClaims(uuid, { exp: Math.floor(Date.now() / 1000) - 5 })));
      expect((await firstError(ws)).text.replace(ERROR_EVENT, '')).toBe('jwt: exp claim is invalid');
      const { exp: _exp, ...noExp } = wsClaims(uuid);
      ws.messages.length = 0;
      ws.send('auth', signRaw(JSON.stringify(noExp)));
      expect((await firstError(ws)).text.replace(ERROR_EVENT, '')).toBe('jwt: exp claim is invalid');
    });

    it('should refuse a token without websocket.connect and accept one with it', async () => {
      const ws = await WsClient.connect(h, uuid);
      ws.send('auth', sign(wsClaims(uuid, { permissions: ['control.console'] })));
      expect((await firstError(ws)).text.replace(ERROR_EVENT, '')).toBe('jwt: missing connect permission');
      await ws.auth(sign(wsClaims(uuid, { permissions: ['websocket.connect'] })));
    });

    it('should accept a token for another server but turn every event into `jwt: server uuid mismatch`', async () => {
      const ws = await WsClient.connect(h, uuid);
      await ws.auth(sign(wsClaims(randomUUID())));
      await ws.next((m) => m.event === 'jwt error');
      expect(ws.messages[1]).toEqual({ event: 'jwt error', args: ['jwt: server uuid mismatch'] });
      ws.send('send stats');
      await waitFor(() => ws.events('jwt error').length >= 3);
      expect(ws.events('stats')).toHaveLength(0);
    });

    it('should answer a token refresh with auth success only', async () => {
      const ws = await WsClient.connect(h, uuid);
      await ws.auth(sign(wsClaims(uuid)));
      await ws.next((m) => m.event === 'stats');
      const count = ws.messages.length;
      ws.send('auth', sign(wsClaims(uuid)));
      // A barrier: the socket handles a refresh in one go before it reads the next event, so whatever
      // the refresh sends arrives before the stats asked for after it (an offline server sends none unasked).
      ws.send('send stats');
      await waitFor(() => ws.messages.slice(count).some((m) => m.event === 'stats'));
      expect(ws.messages.slice(count)).toEqual([{ event: 'auth success' }, { event: 'stats', args: [expect.any(String)] }]);
    });

    it('should deny tokens whose jti was sent to /ws/deny, if issued before the denial', async () => {
      const iat = Math.floor(Date.now() / 1000);
      const claims = wsClaims(uuid, { iat });
      const ws = await WsClient.connect(h, uuid);
      await ws.auth(sign(claims));
      // Denied only if issued strictly before the denial: let the clock pass the token's iat (it almost always has).
      await waitFor(() => Date.now() > iat * 1000);
      const res = await fetch(`${h.url}/api/servers/${uuid}/ws/deny`, {
        method: 'POST',
        headers: { ...h.auth, 'Content-Type': 'application/json' },
        body: JSON.stringify({ jtis: [claims.jti] }),
      });
      expect(res.status).toBe(204);
      ws.send('send stats');
      await ws.next((m) => m.event === 'jwt error' && m.args![0] === 'jwt: created too far in past (denylist)');
    });

    it('should send `token expiring` within 60 s of exp', async () => {
      const ws = await WsClient.connect(h, uuid);
      await ws.auth(sign(wsClaims(uuid, { exp: Math.floor(Date.now() / 1000) + 30 })));
      await ws.next((m) => m.event === 'token expiring');
    });
  });

  describe('events', () => {
    it('should start via set state, report a busy lock, and show real errors only with admin.websocket.errors', async () => {
      const ws = await WsClient.connect(h, uuid);
      await ws.auth(sign(wsClaims(uuid, { permissions: ['*', 'admin.websocket.errors'] })));
      h.panel.delayMs = 200;
      ws.send('set state', 'start');
      await waitFor(() => h.sim.servers.get(uuid)?.lock.locked);
      ws.send('set state', 'restart');
      const busy = await ws.next((m) => m.event === 'daemon error');
      expect(busy.args![0].replace(ERROR_EVENT, '')).toBe(
        'another power action is currently being processed for this server, please try again later',
      );
      h.panel.delayMs = 0;
      await ws.next((m) => m.event === 'status' && m.args![0] === 'running');
      ws.send('set state', 'start');
      await ws.next((m) => m.event === 'daemon error' && m.args![0].endsWith('server is running'));
    });

    it('should ignore commands and power actions the token lacks, and hide install output without admin.websocket.install', async () => {
      const ws = await WsClient.connect(h, uuid);
      await ws.auth(sign(wsClaims(uuid, { permissions: ['websocket.connect'] })));
      ws.send('set state', 'start');
      await fetch(`${h.url}/api/servers/${uuid}/reinstall`, { method: 'POST', headers: h.auth });
      await ws.next((m) => m.event === 'install completed');
      expect(ws.events('install started')).toEqual([{ event: 'install started', args: [''] }]);
      expect(ws.events('install output')).toEqual([]);
      expect(ws.events('daemon message').map((m) => m.args![0])).toEqual([
        'Starting installation process, this could take a few minutes...',
        'Installation process completed.',
      ]);
      expect(h.sim.servers.get(uuid)?.state).toBe('offline');
    });

    it('should replay logs one event per line on `send logs` while running', async () => {
      await fetch(`${h.url}/api/servers/${uuid}/power`, {
        method: 'POST',
        headers: { ...h.auth, 'Content-Type': 'application/json' },
        body: JSON.stringify({ action: 'start' }),
      });
      await waitFor(() => h.sim.servers.get(uuid)?.state === 'running');
      const ws = await WsClient.connect(h, uuid);
      await ws.auth(sign(wsClaims(uuid, { permissions: ['*', 'admin.websocket.install'] })));
      ws.send('send logs');
      await ws.next((m) => m.event === 'console output' && m.args![0] === ')! For help, type ');
      expect(ws.events('console output').map((m) => m.args![0])).toEqual(h.sim.servers.get(uuid)!.logs);
    });
  });
});
