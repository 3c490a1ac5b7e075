import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppConfigService } from 'src/config/app-config.service';
import { prettyDestination } from 'src/common/logging/logging.module';
import { freePort } from 'test/utils/free-port';
import { LogCapture } from 'test/utils/log-capture';
import { PANEL_ROOT, panelEntry } from 'test/utils/panel-process';

/**
 * Starts the panel (dist/main.js or src/main.ts: panelEntry) as `npm start` would, with a new embedded database in a
 * directory (a copy of the initdb template, then the migrations: memory:// would run initdb in WebAssembly at each
 * start, ≈ 3 s of CPU), and returns what it printed until it listened.
 */
const startPanel = async (env: Record<string, string>): Promise<string> => {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'hatchery-logging-'));
  return new Promise<string>((done, fail) => {
    const child = spawn(process.execPath, panelEntry('main'), {
      cwd: PANEL_ROOT,
      env: { PATH: process.env.PATH, TS_NODE_PROJECT: 'tsconfig.json', NODE_ENV: 'development', HOST: '127.0.0.1', PORT: String(port), APP_URL: `http://localhost:${port}`, DATA_DIR: dataDir, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), 90_000);
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('Hatchery listening')) {
        child.kill('SIGTERM');
      }
    });
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('error', fail);
    child.on('close', () => {
      clearTimeout(timer);
      done(out);
    });
  }).finally(() => rmSync(dataDir, { recursive: true, force: true }));
};

const START_UP_CONTEXTS = ['InstanceLoader', 'RoutesResolver', 'RouterExplorer'];

describe('logging', () => {
  it('should start without a line per module, controller and route, in JSON lines and in readable lines', async () => {
    const [json, pretty] = await Promise.all([startPanel({ LOG_FORMAT: 'json' }), startPanel({ LOG_FORMAT: 'pretty' })]);
    const [jsonLogs, listening] = [json.split('\n').filter((l) => l.startsWith('{')), json.split('\n').find((l) => l.startsWith('Hatchery listening'))];
    expect(listening).toMatch(/^Hatchery listening on 127\.0\.0\.1:\d+ \(http:\/\/localhost:\d+\)$/);
    const lines = jsonLogs.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.filter((l) => START_UP_CONTEXTS.includes(String(l.context)))).toEqual([]);
    expect(lines).toContainEqual(expect.objectContaining({ context: 'NestApplication', msg: 'Nest application successfully started', level: 30 }));
    expect(lines.length).toBeLessThan(20);

    // eslint-disable-next-line no-control-regex -- colour codes
    const readable = pretty.replace(/\u001b\[[0-9;]*m/g, '').split('\n').filter((l) => l.startsWith('['));
    expect(readable).toContainEqual(expect.stringMatching(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: \[NestApplication\] Nest application successfully started$/));
    expect(pretty).not.toMatch(/^\{/m);
    expect(pretty).not.toMatch(/Mapped \{/);
  }, 120_000);

  it('should keep the start-up lines at debug level', async () => {
    const out = await startPanel({ LOG_FORMAT: 'json', LOG_LEVEL: 'debug' });
    const routes = out
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((l) => l.context === 'RouterExplorer');
    expect(routes.length).toBeGreaterThan(100);
    expect(routes.every((l) => l.level === 20)).toBe(true);
    expect(routes).toContainEqual(expect.objectContaining({ msg: 'Mapped {/api/health, GET} route' }));
  }, 120_000);

  it('should write a request as method, path, status and time in the readable format', async () => {
    const out = new LogCapture();
    const stream = await prettyDestination(out);
    const time = Date.UTC(2026, 0, 1, 12);
    stream.write(`${JSON.stringify({ level: 30, time, pid: 1, hostname: 'h', req: { method: 'GET', url: '/api/servers' }, res: { statusCode: 200 }, responseTime: 3, msg: 'request completed' })}\n`);
    stream.write(`${JSON.stringify({ level: 40, time, pid: 1, hostname: 'h', context: 'NodeHealth', msg: 'node 3 is not answering' })}\n`);
    await new Promise((done) => setImmediate(done));
    // eslint-disable-next-line no-control-regex -- colour codes
    const [request, warning] = out.text.replace(/\u001b\[[0-9;]*m/g, '').trim().split('\n');
    expect(request).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: GET \/api\/servers 200 3 ms$/);
    expect(warning).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] WARN: \[NodeHealth\] node 3 is not answering$/);
  });

  it('should choose JSON in production and off a terminal, readable lines where asked or on a terminal in development', () => {
    const base = { APP_URL: 'http://localhost:3000', APP_KEY: 'x'.repeat(32) };
    const isTTY = process.stdout.isTTY;
    try {
      process.stdout.isTTY = true;
      expect(AppConfigService.fromEnv({ ...base, NODE_ENV: 'development' }).log.format).toBe('pretty');
      expect(AppConfigService.fromEnv({ ...base, NODE_ENV: 'production' }).log.format).toBe('json');
      expect(AppConfigService.fromEnv({ ...base, NODE_ENV: 'development', LOG_FORMAT: 'json' }).log.format).toBe('json');
      process.stdout.isTTY = false;
      expect(AppConfigService.fromEnv({ ...base, NODE_ENV: 'development' }).log.format).toBe('json');
      expect(AppConfigService.fromEnv({ ...base, NODE_ENV: 'production', LOG_FORMAT: 'pretty' }).log.format).toBe('pretty');
    } finally {
      process.stdout.isTTY = isTTY;
    }
  });
});
