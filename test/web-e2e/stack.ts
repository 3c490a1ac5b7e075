// The browser tests' world, in one child process (started by web/e2e/global-setup.ts): PostgreSQL
// database, the built panel (`node dist/main.js`), a front that serves dist/web and passes /api to
// the panel on one origin (APP_URL), the Wings simulator, the seed data, and a small control API the
// specs call to make servers and subusers and to set the simulator's faults. Run with ts-node from
// the repository root (tsconfig paths), it prints one line `STACK {json}` when ready.
import { spawn } from 'node:child_process';
import { createReadStream, existsSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join, normalize, resolve } from 'node:path';
import { Client } from 'pg';
import { WingsSimulator } from 'test/wings-sim';
import { EGG_FIXTURES_DIR } from 'test/utils/fixtures';
import { freePort } from 'test/utils/free-port';

const ROOT = resolve(__dirname, '..', '..');
const WEB_DIR = join(ROOT, 'dist', 'web');
const PASSWORD = 'e2e-password-123';
const ADMIN_URL = process.env.TEST_DATABASE_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
/** Console tokens live this long here, so a spec sees the page renew one within seconds. */
const CONSOLE_TOKEN_TTL_SECONDS = 12;

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
};

const readBody = (req: IncomingMessage): Promise<string> =>
  new Promise((done, fail) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => done(Buffer.concat(chunks).toString('utf8')));
    req.on('error', fail);
  });

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const main = async () => {
  const dbName = `hatchery_web_e2e_${process.pid}_${Date.now().toString(36)}`;
  const admin = new Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${dbName}"`);
  await admin.end();
  const dbUrl = new URL(ADMIN_URL);
  dbUrl.pathname = `/${dbName}`;

  const [panelPort, frontPort, controlPort] = [await freePort(), await freePort(), await freePort()];
  const appUrl = `http://127.0.0.1:${frontPort}`;
  const panelUrl = `http://127.0.0.1:${panelPort}`;
  const adminUser = { email: 'admin@e2e.test', password: PASSWORD };

  const panel = spawn(process.execPath, [join(ROOT, 'dist', 'main.js')], {
    cwd: ROOT,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: {
      ...process.env,
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      PORT: String(panelPort),
      APP_URL: appUrl,
      APP_KEY: 'web-e2e-app-key-0123456789-abcdefghij',
      DATA_DIR: mkdtempSync(join(tmpdir(), 'hatchery-web-e2e-')),
      DATABASE_URL: dbUrl.href,
      RATE_LIMIT_ENABLED: 'false',
      LOG_LEVEL: 'warn',
      ADMIN_EMAIL: adminUser.email,
      ADMIN_PASSWORD: PASSWORD,
      ADMIN_USERNAME: 'admin',
      CONSOLE_TOKEN_TTL_SECONDS: String(CONSOLE_TOKEN_TTL_SECONDS),
    },
  });
  const sims: WingsSimulator[] = [];
  const stop = async () => {
    panel.kill('SIGTERM');
    await Promise.all(sims.map((x) => x.stop().catch(() => undefined)));
    const c = new Client({ connectionString: ADMIN_URL });
    await c.connect();
    await c.query(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`).catch(() => undefined);
    await c.end();
    process.exit(0);
  };
  // However this process ends, the panel it started ends with it.
  process.on('exit', () => panel.kill('SIGTERM'));
  process.on('SIGTERM', () => void stop());
  process.on('SIGINT', () => void stop());

  // One origin for the page and the API, as the panel itself will serve it.
  const front = createServer((req, res) => {
    const url = req.url ?? '/';
    if (url.startsWith('/api')) {
      const upstream = httpRequest(`${panelUrl}${url}`, { method: req.method, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      upstream.on('error', () => {
        res.writeHead(502).end();
      });
      req.pipe(upstream);
      return;
    }
    const path = normalize(join(WEB_DIR, decodeURIComponent(url.split('?')[0])));
    const file = path.startsWith(WEB_DIR) && existsSync(path) && statSync(path).isFile() ? path : join(WEB_DIR, 'index.html');
    res.writeHead(200, { 'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream' });
    createReadStream(file).pipe(res);
  });
  await new Promise<void>((r) => front.listen(frontPort, '127.0.0.1', r));

  for (let i = 0; ; i++) {
    const ok = await fetch(`${panelUrl}/api/health`).then((r) => r.ok, () => false);
    if (ok) {break;}
    if (i > 600 || panel.exitCode !== null) {throw new Error('the panel did not start');}
    await sleep(100);
  }

  const cookieOf = async (email: string): Promise<string> => {
    const res = await fetch(`${appUrl}/api/auth/sign-in/email`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: appUrl },
      body: JSON.stringify({ email, password: PASSWORD }),
    });
    if (!res.ok) {throw new Error(`sign-in ${email}: ${res.status} ${await res.text()}`);}
    return res.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
  };
  const call = async (cookie: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(`${appUrl}${path}`, {
      method,
      headers: { Cookie: cookie, Origin: appUrl, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) {throw new Error(`${method} ${path}: ${res.status} ${text}`);}
    return text ? (JSON.parse(text) as { data: Record<string, unknown> }).data : {};
  };

  const adminCookie = await cookieOf(adminUser.email);
  const owner = { email: 'owner@e2e.test', password: PASSWORD };
  const ownerRow = await call(adminCookie, 'POST', '/api/admin/users', { username: 'owner', email: owner.email, password: PASSWORD });
  const ownerCookie = await cookieOf(owner.email);

  const location = await call(adminCookie, 'POST', '/api/admin/locations', { short: 'lab1', long: 'Test lab' });
  const key = await call(adminCookie, 'POST', '/api/account/api-keys', { name: 'e2e', permissions: ['nodes.read'] });
  /** A node with its own simulator: `main` for most specs, `spare` for the ones that take their node down. */
  const addNode = async (name: string, firstPort: number) => {
    const port = await freePort();
    const node = await call(adminCookie, 'POST', '/api/admin/nodes', {
      name, fqdn: '127.0.0.1', scheme: 'http', daemonListen: port, memory: 16384, disk: 100000, locationId: location.id,
    });
    await call(adminCookie, 'POST', `/api/admin/nodes/${String(node.id)}/allocations`, { ip: '0.0.0.0', ports: [`${firstPort}-${firstPort + 99}`] });
    const configRes = await fetch(`${appUrl}/api/admin/daemon/nodes/${String(node.id)}/configuration`, { headers: { Authorization: `Bearer ${String(key.key)}` } });
    const config = ((await configRes.json()) as { data: { token_id: string; token: string } }).data;
    const nodeSim = new WingsSimulator({
      panelUrl: appUrl,
      tokenId: config.token_id,
      token: config.token,
      port,
      remoteTimeoutMs: 5000,
      timing: { lineDelayMs: 5, statsIntervalMs: 250, installDurationMs: 20, tokenCheckIntervalMs: 250 },
    });
    await nodeSim.start();
    sims.push(nodeSim);
    return { node, sim: nodeSim };
  };
  const nodes: Record<string, { node: Record<string, unknown>; sim: WingsSimulator }> = {
    main: await addNode('sim', 25565),
    spare: await addNode('spare', 26565),
  };
  const nest = await call(adminCookie, 'POST', '/api/admin/nests', { name: 'Minecraft' });
  const paper = JSON.parse(readFileSync(join(EGG_FIXTURES_DIR, 'egg-paper.json'), 'utf8')) as unknown;
  const egg = await call(adminCookie, 'POST', `/api/admin/eggs/import?nestId=${String(nest.id)}`, paper);

  let serial = 0;
  const control = createServer((req: IncomingMessage, res: ServerResponse) => {
    void (async () => {
      const body = JSON.parse((await readBody(req)) || '{}') as Record<string, unknown>;
      const target = nodes[typeof body.node === 'string' ? body.node : 'main'];
      if (!target) {throw new Error(`no node ${String(body.node)}`);}
      const s = target.sim;
      switch (req.url ?? '') {
        case '/server': {
          const server = await call(adminCookie, 'POST', '/api/admin/servers', {
            name: `Survival ${++serial}`,
            owner_id: ownerRow.id,
            node_id: target.node.id,
            egg_id: egg.id,
            memory: 2048,
            disk: 10240,
            cpu: 200,
            environment: { SERVER_JARFILE: 'paper.jar', MINECRAFT_VERSION: 'latest', BUILD_NUMBER: 'latest' },
          });
          for (let i = 0; i < 200; i++) {
            const row = await call(adminCookie, 'GET', `/api/admin/servers/${String(server.id)}`);
            if (row.installedAt) {break;}
            await sleep(50);
          }
          return { id: server.id, uuid: server.uuid };
        }
        case '/subuser': {
          const n = ++serial;
          const email = `sub${n}@e2e.test`;
          await call(adminCookie, 'POST', '/api/admin/users', { username: `sub${n}`, email, password: PASSWORD });
          await call(ownerCookie, 'POST', `/api/client/servers/${String(body.serverId)}/users`, { email, permissions: body.permissions });
          return { email, password: PASSWORD };
        }
        case '/faults': {
          const { node: _node, ...faults } = body;
          Object.assign(s.faults, faults);
          return {};
        }
        case '/drop':
          return { dropped: Object.values(nodes).reduce((n, x) => n + x.sim.dropConsoles(String(body.uuid)), 0) };
        case '/reset':
          s.resetFaults();
          return {};
        default:
          throw new Error(`unknown control ${req.url}`);
      }
    })().then(
      (answer) => res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(answer)),
      (error: unknown) => res.writeHead(500).end(String(error)),
    );
  });
  await new Promise<void>((r) => control.listen(controlPort, '127.0.0.1', r));
  process.stdout.write(`STACK ${JSON.stringify({ appUrl, controlUrl: `http://127.0.0.1:${controlPort}`, owner, admin: adminUser })}\n`);
};

main().catch((error: unknown) => {
  process.stderr.write(`stack failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
