// The simulator checked against Wings' behaviour (docs/wings.md): auth, create/install, power, faults.
import { randomUUID } from 'node:crypto';
import { WingsSimulator } from 'test/wings-sim/simulator';
import { TOKEN, TOKEN_ID, Harness, WsClient, createInstalledServer, sign, startHarness, stopHarness, waitFor, wsClaims } from 'test/wings-sim/testing/harness';

const GENERIC = 'An unexpected error was encountered while processing this request';

describe(WingsSimulator.name, () => {
  let h: Harness;

  beforeEach(async () => {
    h = await startHarness();
  });

  afterEach(async () => {
    await stopHarness(h);
  });

  const api = (path: string, init: RequestInit = {}): Promise<Response> =>
    fetch(`${h.url}${path}`, { ...init, headers: { ...h.auth, 'Content-Type': 'application/json', ...(init.headers as Record<string, string>) } });

  describe('authentication', () => {
    it('should answer 401 with WWW-Authenticate when the header is missing or not Bearer', async () => {
      for (const headers of [{}, { Authorization: `Basic ${TOKEN}` }, { Authorization: 'Bearer' }]) {
        const res = await fetch(`${h.url}/api/system`, { headers: headers as Record<string, string> });
        expect(res.status).toBe(401);
        expect(res.headers.get('www-authenticate')).toBe('Bearer');
        expect(await res.json()).toEqual({ error: 'The required authorization heads were not present in the request.' });
      }
    });

    it('should answer 403 when the token is wrong or sent as <tokenId>.<token>', async () => {
      for (const value of ['nope', `${TOKEN_ID}.${TOKEN}`, `${TOKEN}x`]) {
        const res = await fetch(`${h.url}/api/system`, { headers: { Authorization: `Bearer ${value}` } });
        expect(res.status).toBe(403);
        expect(await res.json()).toEqual({ error: 'You are not authorized to access this endpoint.' });
      }
    });

    it('should check auth before server existence and answer 404 for an unknown server', async () => {
      const unknown = randomUUID();
      expect((await fetch(`${h.url}/api/servers/${unknown}`)).status).toBe(401);
      const res = await api(`/api/servers/${unknown}`);
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ error: 'The requested resource does not exist on this instance.' });
    });

    it('should answer OPTIONS with 204 and CORS headers without auth, and tag every response with X-Request-Id', async () => {
      const res = await fetch(`${h.url}/api/servers`, { method: 'OPTIONS' });
      expect(res.status).toBe(204);
      expect(res.headers.get('access-control-allow-origin')).toBe(h.panel.url);
      expect(res.headers.get('access-control-max-age')).toBe('7200');
      expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    });

    it('should answer 404 "404 page not found" for unknown routes', async () => {
      const res = await api('/api/nope');
      expect(res.status).toBe(404);
      expect(await res.text()).toBe('404 page not found');
    });

    it('should answer 400 for malformed and empty JSON bodies as gin BindJSON does', async () => {
      const uuid = await createInstalledServer(h);
      const empty = await api(`/api/servers/${uuid}/power`, { method: 'POST', body: '' });
      expect(empty.status).toBe(400);
      expect(await empty.json()).toEqual({ error: 'The data passed in the request was not in a parsable format. Please try again.' });
      const broken = await api(`/api/servers/${uuid}/power`, { method: 'POST', body: '{"action":' });
      expect(broken.status).toBe(400);
      expect(await broken.json()).toEqual({ error: GENERIC, request_id: broken.headers.get('x-request-id') });
    });
  });

  describe('system and configuration', () => {
    it('should describe the node with the v1 and v2 shapes of /api/system', async () => {
      expect(Object.keys((await (await api('/api/system')).json()) as object).sort()).toEqual(['architecture', 'cpu_count', 'kernel_version', 'os', 'version']);
      const v2 = (await (await api('/api/system?v=2')).json()) as { docker: object; system: object };
      expect(Object.keys(v2.docker).sort()).toEqual(['cgroups', 'containers', 'runc', 'storage', 'version']);
      expect(Object.keys(v2.system).sort()).toEqual(['architecture', 'cpu_threads', 'kernel_version', 'memory_bytes', 'os', 'os_type']);
    });

    it('should store a pushed configuration and rotate the token when POST /api/update changes it', async () => {
      const newToken = 'n'.repeat(64);
      const res = await api('/api/update', { method: 'POST', body: JSON.stringify({ debug: false, token_id: TOKEN_ID, token: newToken, remote: h.panel.url }) });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ applied: true });
      expect(h.sim.lastConfigUpdate).toMatchObject({ token: newToken });
      expect((await api('/api/system')).status).toBe(403);
      expect((await fetch(`${h.url}/api/system`, { headers: { Authorization: `Bearer ${newToken}` } })).status).toBe(200);
    });
  });

  describe('servers and install', () => {
    it('should answer 422 for a uuid that is not v4', async () => {
      const res = await api('/api/servers', { method: 'POST', body: JSON.stringify({ uuid: '00000000-0000-1000-8000-000000000000' }) });
      expect(res.status).toBe(422);
      expect(await res.json()).toEqual({ error: 'The data provided in the request could not be validated.' });
      expect(h.panel.calls).toHaveLength(0);
    });

    it('should fetch the configuration from the panel before answering 202, then run the install callbacks', async () => {
      const uuid = randomUUID();
      h.panel.addServer(uuid);
      const res = await api('/api/servers', { method: 'POST', body: JSON.stringify({ uuid, start_on_completion: false }) });
      expect(res.status).toBe(202);
      expect(await res.text()).toBe('');
      const fetchCall = h.panel.callsTo(`/api/remote/servers/${uuid}`, 'GET')[0];
      expect(fetchCall.authorization).toBe(`Bearer ${TOKEN_ID}.${TOKEN}`);
      expect(fetchCall.userAgent).toMatch(new RegExp(`^Pterodactyl Wings/v.+ \\(id:${TOKEN_ID}\\)$`));

      await waitFor(() => h.panel.callsTo(`/api/remote/servers/${uuid}/install`, 'POST').length > 0);
      expect(h.panel.calls.map((c) => `${c.method} ${c.path}`)).toEqual([
        `GET /api/remote/servers/${uuid}`,
        `GET /api/remote/servers/${uuid}/install`,
        `POST /api/remote/servers/${uuid}/install`,
      ]);
      expect(h.panel.callsTo(`/api/remote/servers/${uuid}/install`, 'POST')[0].body).toEqual({ successful: true, reinstall: false });

      const detail = (await (await api(`/api/servers/${uuid}`)).json()) as { utilization: object };
      expect(detail).toMatchObject({ state: 'offline', is_suspended: false, configuration: { uuid, build: { memory_limit: 1024 } } });
      expect(Object.keys(detail.utilization).sort()).toEqual(['cpu_absolute', 'disk_bytes', 'memory_bytes', 'memory_limit_bytes', 'network', 'state', 'uptime']);
      const list = (await (await api('/api/servers')).json()) as { configuration: { uuid: string } }[];
      expect(list.map((s) => s.configuration.uuid)).toEqual([uuid]);
    });

    it('should answer 500 and register nothing when the panel fetch fails', async () => {
      const uuid = randomUUID();
      const res = await api('/api/servers', { method: 'POST', body: JSON.stringify({ uuid }) });
      expect(res.status).toBe(500);
      expect(await res.json()).toEqual({ error: GENERIC, request_id: res.headers.get('x-request-id') });
      expect(h.sim.servers.has(uuid)).toBe(false);
    });

    it('should report successful=false to the panel when the install fails', async () => {
      h.sim.faults.installFails = true;
      const uuid = await createInstalledServer(h);
      expect(h.panel.callsTo(`/api/remote/servers/${uuid}/install`, 'POST')[0].body).toEqual({ successful: false, reinstall: false });
    });

    it('should start the server after install when start_on_completion is true', async () => {
      const uuid = randomUUID();
      h.panel.addServer(uuid);
      await api('/api/servers', { method: 'POST', body: JSON.stringify({ uuid, start_on_completion: true }) });
      await waitFor(() => h.sim.servers.get(uuid)?.state === 'running');
    });

    it('should reinstall with reinstall=true and answer 409 while a power action holds the lock', async () => {
      const uuid = await createInstalledServer(h);
      h.panel.delayMs = 300;
      await api(`/api/servers/${uuid}/power`, { method: 'POST', body: JSON.stringify({ action: 'start' }) });
      await waitFor(() => h.sim.servers.get(uuid)?.lock.locked);
      const busy = await api(`/api/servers/${uuid}/reinstall`, { method: 'POST' });
      expect(busy.status).toBe(409);
      expect(await busy.json()).toEqual({ error: 'Cannot execute server reinstall event while another power action is running.' });
      h.panel.delayMs = 0;
      await waitFor(() => !h.sim.servers.get(uuid)?.lock.locked);
      expect((await api(`/api/servers/${uuid}/reinstall`, { method: 'POST' })).status).toBe(202);
      await waitFor(() => h.panel.callsTo(`/api/remote/servers/${uuid}/install`, 'POST').length > 1);
      expect(h.panel.callsTo(`/api/remote/servers/${uuid}/install`, 'POST')[1].body).toEqual({ successful: true, reinstall: true });
      expect(h.sim.servers.get(uuid)?.state).toBe('offline');
    });

    it('should delete a server: 204, `deleted` event and close 1001 "server deleted"', async () => {
      const uuid = await createInstalledServer(h);
      const ws = await WsClient.connect(h, uuid);
      await ws.auth(sign(wsClaims(uuid)));
      expect((await api(`/api/servers/${uuid}`, { method: 'DELETE' })).status).toBe(204);
      await ws.next((m) => m.event === 'deleted');
      expect(ws.events('deleted')[0].args).toEqual(['null']);
      await waitFor(() => ws.closeCode !== null);
      expect([ws.closeCode, ws.closeReason]).toEqual([1001, 'server deleted']);
      expect(await (await api('/api/servers')).json()).toEqual([]);
    });
  });

  describe('power', () => {
    it('should go offline → starting → running on the done line, stream stats, echo commands and stop', async () => {
      const uuid = await createInstalledServer(h);
      const ws = await WsClient.connect(h, uuid);
      await ws.auth(sign(wsClaims(uuid)));
      await ws.next((m) => m.event === 'status');
      expect(ws.events('status')[0].args).toEqual(['offline']);

      expect((await api(`/api/servers/${uuid}/power`, { method: 'POST', body: JSON.stringify({ action: 'start' }) })).status).toBe(202);
      await ws.next((m) => m.event === 'status' && m.args?.[0] === 'running');
      expect(ws.events('status').map((m) => m.args?.[0])).toEqual(['offline', 'starting', 'running']);
      expect(ws.events('console output').map((m) => m.args?.[0])).toContain(')! For help, type ');
      const stats = await ws.next((m) => m.event === 'stats' && JSON.parse(m.args![0]).state === 'running');
      expect(JSON.parse(stats.args![0])).toMatchObject({ memory_limit_bytes: 1_177_600_000, network: expect.any(Object) });

      ws.send('send command', 'say ', 'hello');
      await ws.next((m) => m.event === 'console output' && m.args?.[0] === 'say hello');
      expect((await api(`/api/servers/${uuid}/commands`, { method: 'POST', body: JSON.stringify({ commands: ['list'] }) })).status).toBe(204);
      const logs = await (await api(`/api/servers/${uuid}/logs?size=2`)).json();
      expect(logs).toEqual({ data: ['say hello', 'list'] });

      await api(`/api/servers/${uuid}/power`, { method: 'POST', body: JSON.stringify({ action: 'stop' }) });
      await waitFor(() => ws.events('status').length >= 5);
      expect(ws.events('status').map((m) => m.args?.[0])).toEqual(['offline', 'starting', 'running', 'stopping', 'offline']);
      const stopped = await api(`/api/servers/${uuid}/commands`, { method: 'POST', body: JSON.stringify({ commands: ['list'] }) });
      expect(stopped.status).toBe(502);
      expect(await stopped.json()).toEqual({ error: 'Cannot send commands to a stopped server instance.' });
    });

    it('should kill, restart and reject invalid actions as Wings does', async () => {
      const uuid = await createInstalledServer(h);
      const bad = await api(`/api/servers/${uuid}/power`, { method: 'POST', body: JSON.stringify({ action: 'explode' }) });
      expect(bad.status).toBe(422);
      expect(await bad.json()).toEqual({ error: 'The power action provided was not valid, should be one of "stop", "start", "restart", "kill"' });
      await api(`/api/servers/${uuid}/power`, { method: 'POST', body: JSON.stringify({ action: 'restart' }) });
      await waitFor(() => h.sim.servers.get(uuid)?.state === 'running');
      await api(`/api/servers/${uuid}/power`, { method: 'POST', body: JSON.stringify({ action: 'kill' }) });
      await waitFor(() => h.sim.servers.get(uuid)?.state === 'offline');
    });

    it('should refuse start with 400 on a suspended server', async () => {
      const uuid = await createInstalledServer(h, { suspended: true });
      const res = await api(`/api/servers/${uuid}/power`, { method: 'POST', body: JSON.stringify({ action: 'start' }) });
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ error: 'Cannot start or restart a server that is suspended.' });
    });

    it('should detect a crash and restart once, then refuse a second crash within 60 s', async () => {
      const uuid = await createInstalledServer(h);
      await api(`/api/servers/${uuid}/power`, { method: 'POST', body: JSON.stringify({ action: 'start' }) });
      await waitFor(() => h.sim.servers.get(uuid)?.state === 'running');
      const ws = await WsClient.connect(h, uuid);
      await ws.auth(sign(wsClaims(uuid)));
      h.sim.crash(uuid, 1);
      await waitFor(() => h.sim.servers.get(uuid)?.state === 'running');
      h.sim.crash(uuid, 1);
      await ws.next((m) => m.event === 'console output' && m.args![0].includes('Aborting automatic restart'));
      expect(h.sim.servers.get(uuid)?.state).toBe('offline');
    });
  });

  describe('faults and request log', () => {
    it('should record requests without Authorization, with JSON bodies', async () => {
      await api('/api/update', { method: 'POST', body: JSON.stringify({ debug: true }) });
      const [entry] = h.sim.requestsTo('/api/update', 'POST');
      expect(entry.headers.authorization).toBeUndefined();
      expect(entry.body).toBe('{"debug":true}');
      expect(entry.time).toBeInstanceOf(Date);
    });

    it('should refuse connections while down and serve again afterwards', async () => {
      h.sim.faults.down = true;
      await expect(api('/api/system')).rejects.toThrow();
      h.sim.faults.down = false;
      expect((await api('/api/system')).status).toBe(200);
    });

    it('should hold requests unanswered while hung and close them when the hang ends', async () => {
      h.sim.faults.hang = true;
      const held = api('/api/system', { signal: AbortSignal.timeout(2_000) }).then(
        (res) => `answered ${res.status}`,
        () => 'closed',
      );
      let settled = false;
      void held.finally(() => (settled = true));
      await new Promise((r) => setTimeout(r, 300));
      expect(settled).toBe(false);
      h.sim.faults.hang = false;
      // Closed, not answered, and well before the client's own timeout.
      const started = Date.now();
      expect(await held).toBe('closed');
      expect(Date.now() - started).toBeLessThan(1_000);
      expect((await api('/api/system')).status).toBe(200);
    });

    it('should answer 500, slow answers and malformed JSON when asked to', async () => {
      h.sim.faults.status500 = true;
      const res = await api('/api/system');
      expect(res.status).toBe(500);
      expect(await res.json()).toEqual({ error: GENERIC, request_id: res.headers.get('x-request-id') });
      h.sim.faults.status500 = false;
      h.sim.faults.malformedJson = true;
      await expect((await api('/api/system')).json()).rejects.toThrow();
      h.sim.faults.malformedJson = false;
      h.sim.faults.slowMs = 150;
      const started = Date.now();
      await api('/api/system');
      expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    });

    it('should turn every fault off at once with resetFaults, saying whether any was on', async () => {
      Object.assign(h.sim.faults, { hang: true, status500: true, malformedJson: true, slowMs: 50, wrongToken: true, installFails: true, backupFails: true });
      h.sim.faults.down = true;
      expect(h.sim.resetFaults()).toBe(true);
      const { down, hang, slowMs, status500, malformedJson, wrongToken, installFails, backupFails } = h.sim.faults;
      expect([down, hang, slowMs, status500, malformedJson, wrongToken, installFails, backupFails].filter(Boolean)).toEqual([]);
      expect(h.sim.resetFaults()).toBe(false);
      const res = await api('/api/system');
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ version: expect.any(String) });
    });

    it('should call the panel with a wrong token when wrongToken is set (create then fails with 500)', async () => {
      h.sim.faults.wrongToken = true;
      const uuid = randomUUID();
      h.panel.addServer(uuid);
      const res = await api('/api/servers', { method: 'POST', body: JSON.stringify({ uuid }) });
      expect(res.status).toBe(500);
      expect(h.panel.calls[0].authorization).not.toBe(`Bearer ${TOKEN_ID}.${TOKEN}`);
      expect(h.sim.panel.calls[0].status).toBe(403);
    });
  });
});
