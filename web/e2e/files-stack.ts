import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { request, type APIRequestContext } from '@playwright/test';
import pg from 'pg';

// The files spec's own stack until the shared Playwright fixtures land: the built panel
// (`node dist/main.js`) on a fresh PostgreSQL database and the Wings simulator as child processes,
// seeded through the HTTP API as an administrator would. Needs `npm run build` first.

const ROOT = resolve(__dirname, '..', '..');
const ADMIN = { email: 'files-admin@example.com', password: 'files-e2e-password' };
const PG_ADMIN = process.env.TEST_DATABASE_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium-headless-shell';

export interface FilesStack {
  baseURL: string;
  admin: typeof ADMIN;
  /** The identifier in /server/$id. */
  serverId: string;
  /** The server's files on the simulator's disk. */
  volume: string;
  api: APIRequestContext;
  stop: () => Promise<void>;
}

/** Why the stack cannot run here (no browser, no build, no PostgreSQL), or undefined. */
export const missing = async (): Promise<string | undefined> => {
  if (!existsSync(CHROMIUM)) {
    return `no Chromium at ${CHROMIUM} (set CHROMIUM_PATH)`;
  }
  if (!existsSync(join(ROOT, 'dist', 'main.js')) || !existsSync(join(ROOT, 'dist', 'web', 'index.html'))) {
    return 'no build in dist/ (run npm run build)';
  }
  const client = new pg.Client({ connectionString: PG_ADMIN });
  try {
    await client.connect();
    return undefined;
  } catch (e) {
    return `PostgreSQL not reachable at ${PG_ADMIN}: ${(e as Error).message}`;
  } finally {
    await client.end().catch(() => undefined);
  }
};

const freePort = () =>
  new Promise<number>((done, fail) => {
    const srv = createServer();
    srv.once('error', fail);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => done(port));
    });
  });

const until = async <T>(probe: () => Promise<T | undefined>, what: string, timeoutMs = 60_000): Promise<T> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) {
      return value;
    }
    if (Date.now() > deadline) {
      throw new Error(`timed out waiting for ${what}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
};

const child = (args: string[], env: Record<string, string>, name: string): ChildProcess => {
  const proc = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  proc.stderr?.on('data', (chunk: Buffer) => process.stderr.write(`[${name}] ${chunk.toString()}`));
  return proc;
};

const ok = async <T>(res: Awaited<ReturnType<APIRequestContext['get']>>, what: string): Promise<T> => {
  if (!res.ok()) {
    throw new Error(`${what}: ${res.status()} ${await res.text()}`);
  }
  return ((await res.json()) as { data: T }).data;
};

export const startFilesStack = async (): Promise<FilesStack> => {
  const database = `hatchery_e2e_files_${process.pid}_${Date.now()}`;
  const pgAdmin = new pg.Client({ connectionString: PG_ADMIN });
  await pgAdmin.connect();
  await pgAdmin.query(`CREATE DATABASE "${database}"`);
  const dbUrl = new URL(PG_ADMIN);
  dbUrl.pathname = `/${database}`;

  const [panelPort, simPort] = [await freePort(), await freePort()];
  const baseURL = `http://127.0.0.1:${panelPort}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'hatchery-files-e2e-'));
  const procs: ChildProcess[] = [];
  const api = await request.newContext({ baseURL, extraHTTPHeaders: { Origin: baseURL } });
  const stop = async () => {
    await api.dispose();
    for (const proc of procs.reverse()) {
      proc.kill('SIGTERM');
      await new Promise((r) => (proc.exitCode !== null ? r(null) : proc.once('exit', r)));
    }
    await pgAdmin.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`).catch(() => undefined);
    await pgAdmin.end();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    procs.push(
      child(
        ['dist/main.js'],
        {
          NODE_ENV: 'production',
          HOST: '127.0.0.1',
          PORT: String(panelPort),
          APP_URL: baseURL,
          APP_KEY: 'files-e2e-app-key-0123456789-abcdefghij',
          DATABASE_URL: dbUrl.href,
          RATE_LIMIT_ENABLED: 'false',
          LOG_LEVEL: 'warn',
          ADMIN_EMAIL: ADMIN.email,
          ADMIN_PASSWORD: ADMIN.password,
        },
        'panel',
      ),
    );
    await until(async () => ((await api.get('/api/health')).ok() ? true : undefined), 'the panel');
    await ok(await api.post('/api/auth/sign-in/email', { data: ADMIN }), 'sign-in');

    const location = await ok<{ id: string }>(await api.post('/api/admin/locations', { data: { short: 'lab', long: 'Lab' } }), 'location');
    const node = await ok<{ id: string }>(
      await api.post('/api/admin/nodes', {
        data: { name: 'sim', fqdn: '127.0.0.1', scheme: 'http', daemonListen: simPort, memory: 16384, disk: 100000, locationId: location.id, uploadSize: 1 },
      }),
      'node',
    );
    await ok(await api.post(`/api/admin/nodes/${node.id}/allocations`, { data: { ip: '0.0.0.0', ports: ['25565-25566'] } }), 'allocations');
    const key = await ok<{ key: string }>(await api.post('/api/account/api-keys', { data: { name: 'e2e', permissions: ['nodes.read'] } }), 'api key');
    const config = await ok<{ token_id: string; token: string }>(
      await api.get(`/api/admin/daemon/nodes/${node.id}/configuration`, { headers: { Authorization: `Bearer ${key.key}` } }),
      'node configuration',
    );
    procs.push(
      child(
        ['-r', 'ts-node/register/transpile-only', '-r', 'tsconfig-paths/register', 'test/wings-sim/main.ts'],
        { PANEL_URL: baseURL, TOKEN_ID: config.token_id, TOKEN: config.token, PORT: String(simPort), DATA_DIR: dataDir, TS_NODE_PROJECT: join(ROOT, 'tsconfig.json') },
        'wings-sim',
      ),
    );
    await until(async () => ((await api.get(`http://127.0.0.1:${simPort}/api/system`)).status() > 0 ? true : undefined), 'the simulator');

    const eggs = process.env.HATCHERY_EGG_FIXTURES ?? join(ROOT, '..', '..', 'shared', 'fixtures', 'eggs', 'pterodactyl');
    const eggFile = [join(eggs, 'egg-paper.json'), '/work/shared/fixtures/eggs/pterodactyl/egg-paper.json'].find(existsSync);
    if (!eggFile) {
      throw new Error(`egg-paper.json not found under ${eggs} (set HATCHERY_EGG_FIXTURES)`);
    }
    const nest = await ok<{ id: string }>(await api.post('/api/admin/nests', { data: { name: 'Minecraft' } }), 'nest');
    const egg = await ok<{ id: string }>(await api.post(`/api/admin/eggs/import?nestId=${nest.id}`, { data: JSON.parse(readFileSync(eggFile, 'utf8')) as unknown }), 'egg');
    const me = await ok<{ id: string }>(await api.get('/api/account'), 'account');
    const server = await ok<{ id: string; uuid: string }>(
      await api.post('/api/admin/servers', {
        data: {
          name: 'Files test',
          owner_id: me.id,
          node_id: node.id,
          egg_id: egg.id,
          memory: 2048,
          disk: 10240,
          cpu: 200,
          environment: { SERVER_JARFILE: 'paper.jar', MINECRAFT_VERSION: 'latest', BUILD_NUMBER: 'latest' },
        },
      }),
      'server',
    );
    await until(async () => ((await ok<{ installStatus: unknown }>(await api.get(`/api/admin/servers/${server.id}`), 'server')).installStatus === null ? true : undefined), 'the install');
    // Client routes and the server pages name a server by its 8-character identifier (or uuid).
    return { baseURL, admin: ADMIN, serverId: server.uuid.slice(0, 8), volume: join(dataDir, 'volumes', server.uuid), api, stop };
  } catch (e) {
    await stop();
    throw e;
  }
};
