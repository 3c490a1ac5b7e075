import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createConnection } from 'mysql2/promise';
import { testMySqlAccount } from 'test/setup/mariadb-env';
import { WingsSimulator } from 'test/wings-sim/simulator';
import { isCi } from 'e2e/chromium';
import { CONSOLE_TOKEN_TTL_SECONDS, E2E_ENV, PanelApi, type E2eEnv } from 'e2e/panel-api';
import { freePort, startPanel, type PanelProcess } from 'e2e/panel-process';

const ROOT = resolve(__dirname, '..', '..');
const EGGS = process.env.HATCHERY_EGG_FIXTURES ?? resolve(ROOT, '..', 'shared', 'fixtures', 'eggs', 'pterodactyl');

/** The eggs of the panel's egg gallery (EGG_GALLERY_URLS), served from the fixtures by a host on loopback. */
const GALLERY_EGGS = ['vanilla-minecraft', 'rust', 'mumble-server'];

/** Serves `/eggs/egg-<name>.json` from the fixtures for the gallery's names; 404 otherwise. */
const startEggHost = async (): Promise<{ server: Server; urls: string[] }> => {
  const server = createServer((req, res) => {
    const name = /^\/eggs\/egg-([a-z0-9-]+)\.json$/.exec(req.url ?? '')?.[1];
    const file = name && GALLERY_EGGS.includes(name) ? join(EGGS, `egg-${name}.json`) : undefined;
    if (!file || !existsSync(file)) {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found');
      return;
    }
    res.writeHead(200, { 'Content-Type': 'application/json' }).end(readFileSync(file));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { server, urls: GALLERY_EGGS.map((name) => `${base}/eggs/egg-${name}.json`) };
};

const storageState = (file: string, baseURL: string, cookie: string): string => {
  const [name, value] = [cookie.slice(0, cookie.indexOf('=')), cookie.slice(cookie.indexOf('=') + 1)];
  const { hostname } = new URL(baseURL);
  writeFileSync(file, JSON.stringify({ cookies: [{ name, value, domain: hostname, path: '/', expires: -1, httpOnly: true, secure: false, sameSite: 'Lax' }], origins: [] }));
  return file;
};

/**
 * One panel for the whole run: the built `node dist/main.js` (npm test builds first; a no-op when
 * fresh) on a fresh embedded PGlite directory, the default a newcomer gets; the Wings simulator with
 * fast timings; seeded through the API as an administrator would (location, node, allocations, the
 * Paper egg, an owner account). Signed-in states are saved once, so no test pays for a sign-in.
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  if (!existsSync(join(ROOT, 'dist', 'main.js')) || !existsSync(join(ROOT, 'dist', 'web', 'index.html'))) {
    throw new Error('no build in dist/: run `npm run build` first (npm test does)');
  }
  const work = mkdtempSync(join(tmpdir(), 'hatchery-browser-'));
  const admin = { email: 'admin@hatchery.test', password: 'browser-admin-password' };
  let panel: PanelProcess | undefined;
  let sim: WingsSimulator | undefined;
  let eggHost: Server | undefined;
  const teardown = async () => {
    await sim?.stop();
    await panel?.stop();
    eggHost?.closeAllConnections();
    await new Promise<void>((done) => (eggHost ? eggHost.close(() => done()) : done()));
    rmSync(work, { recursive: true, force: true });
  };

  try {
    const gallery = await startEggHost();
    eggHost = gallery.server;
    panel = await startPanel(work, {
      ADMIN_EMAIL: admin.email,
      ADMIN_PASSWORD: admin.password,
      ADMIN_USERNAME: 'admin',
      // Short console tokens, so the console spec sees the page renew one within seconds.
      CONSOLE_TOKEN_TTL_SECONDS: String(CONSOLE_TOKEN_TTL_SECONDS),
      // The files spec pulls from a file host on loopback, which the panel refuses by default.
      OUTBOUND_ALLOW_PRIVATE: 'true',
      // The egg gallery lists eggs from that host (admin-eggs.spec.ts), not from GitHub.
      EGG_GALLERY_URLS: gallery.urls.join(','),
      // The usage history's sampler at its shortest interval, so usage-history.spec.ts sees points within seconds.
      USAGE_SAMPLE_INTERVAL_SECONDS: '10',
    });
    const { baseURL } = panel;
    const api = new PanelApi(baseURL);
    const adminSession = await api.signIn(admin.email, admin.password);
    const key = await api.request<{ key: string }>('POST', '/api/account/api-keys', { session: adminSession, body: { name: 'browser tests', permissions: ['nodes.read'] } });

    const location = await api.request<{ id: string }>('POST', '/api/admin/locations', { session: adminSession, body: { short: 'lab', long: 'Browser lab' } });
    const simPort = await freePort();
    const simDataDir = join(work, 'wings');
    const node = await api.request<{ id: string }>('POST', '/api/admin/nodes', {
      session: adminSession,
      body: { name: 'sim', fqdn: '127.0.0.1', scheme: 'http', daemonListen: simPort, memory: 16384, disk: 100000, locationId: location.id },
    });
    await api.request('POST', `/api/admin/nodes/${node.id}/allocations`, { session: adminSession, body: { ip: '0.0.0.0', ports: ['25565-25600'] } });
    const config = await api.request<{ token_id: string; token: string }>('GET', `/api/admin/daemon/nodes/${node.id}/configuration`, { apiKey: key.key });
    sim = new WingsSimulator({
      panelUrl: baseURL,
      tokenId: config.token_id,
      token: config.token,
      port: simPort,
      // Server volumes where the workers can reach them (E2eEnv.simDataDir).
      dataDir: simDataDir,
      allowedOrigins: [baseURL],
      remoteTimeoutMs: 5000,
      // Stats once a second, as Wings sends them. Every update redraws an open console's three graphs, and
      // at ten a second an idle console page kept Chromium about a third of a core busy (≈ 5 times as much).
      timing: { lineDelayMs: 5, statsIntervalMs: 1000, installDurationMs: 20, tokenCheckIntervalMs: 100 },
    });
    await sim.start();

    // The stock Paper egg from the team's fixtures (as the Jest suite reads them); tests that need a
    // server are skipped with the reason when it is missing, and fail under CI.
    let eggId: string | undefined;
    const paperFile = join(EGGS, 'egg-paper.json');
    if (existsSync(paperFile)) {
      const nest = await api.request<{ id: string }>('POST', '/api/admin/nests', { session: adminSession, body: { name: 'Minecraft' } });
      const paper: unknown = JSON.parse(readFileSync(paperFile, 'utf8'));
      eggId = (await api.request<{ id: string }>('POST', `/api/admin/eggs/import?nestId=${nest.id}`, { session: adminSession, body: paper })).id;
    } else if (isCi()) {
      throw new Error(`egg fixtures not found at ${EGGS} (set HATCHERY_EGG_FIXTURES)`);
    } else {
      process.stdout.write(`browser tests: egg fixtures not found at ${EGGS} (set HATCHERY_EGG_FIXTURES); tests that create a server are skipped\n`);
    }

    // The test MariaDB as a global database host, so every server the specs make can have databases.
    const mysql = testMySqlAccount();
    let mariadb = 'available';
    try {
      const connection = await createConnection({ host: mysql.host, port: mysql.port, user: mysql.user, password: mysql.password, connectTimeout: 3_000 });
      await connection.end();
      await api.request('POST', '/api/admin/database-hosts', {
        session: adminSession,
        body: { name: 'Test MariaDB', host: mysql.host, port: mysql.port, username: mysql.user, password: mysql.password },
      });
    } catch (e) {
      const reason = `MariaDB at ${mysql.host}:${mysql.port} is not reachable as ${mysql.user} (${(e as Error).message})`;
      if (isCi()) {
        throw new Error(`browser tests: ${reason}. CI requires it for the database pages.`);
      }
      mariadb = `unavailable: ${reason}`;
      process.stdout.write(`browser tests: ${reason}; the database tests are skipped\n`);
    }

    const owner = { email: 'owner@hatchery.test', password: 'browser-owner-password' };
    const ownerUser = await api.request<{ id: string }>('POST', '/api/admin/users', {
      session: adminSession,
      body: { email: owner.email, username: 'owner', name: 'Olive Owner', password: owner.password },
    });
    // Two sessions of the owner: one for the browser pages, one for the tests' API calls. Tests never
    // sign the shared accounts in again: the panel keeps 5 sessions per user and drops the oldest, which
    // would sign every other test's page out.
    const ownerSession = await api.signIn(owner.email, owner.password);
    const ownerApiSession = await api.signIn(owner.email, owner.password);

    // The documentation's screenshots are retaken by `npm run docs:screenshots` when pages change, not by every test run.
    const screenshotsDir = process.env.HATCHERY_DOC_SCREENSHOTS === '1' ? join(ROOT, 'docs', 'screenshots') : null;
    if (screenshotsDir) {
      mkdirSync(screenshotsDir, { recursive: true });
    }
    const env: E2eEnv = {
      baseURL,
      adminState: storageState(join(work, 'admin.json'), baseURL, adminSession.cookie),
      ownerState: storageState(join(work, 'owner.json'), baseURL, ownerSession.cookie),
      admin: { ...admin, cookie: adminSession.cookie },
      owner: { id: ownerUser.id, ...owner, cookie: ownerApiSession.cookie },
      nodeId: node.id,
      simDataDir,
      eggId,
      screenshotsDir,
      mariadb,
    };
    // Workers inherit the environment of the process that ran the global setup.
    process.env[E2E_ENV] = JSON.stringify(env);
  } catch (err) {
    await teardown();
    throw err;
  }
  return teardown;
}
