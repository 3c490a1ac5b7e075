import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isCi } from 'test/setup/test-env';
import { freePort } from 'test/utils/free-port';
import { PANEL_ROOT, panelEntry } from 'test/utils/panel-process';

/**
 * Several panel processes as a host runs them: each `node dist/main.js`, all on one PostgreSQL database
 * through PgBouncer in transaction mode (DATABASE_URL; migrations, locks and the change listener on
 * DATABASE_DIRECT_URL, PostgreSQL itself), sharing Redis, behind HAProxy with health checks. PgBouncer
 * and HAProxy are Debian's packages (`.ci/run` installs them).
 */

/**
 * What HAProxy does with a request a panel left unanswered, and how it tells a panel is up: the lines of
 * the configuration shipped to users (docker/fleet/haproxy.cfg), so that the fleet tests prove that file's
 * policy and not a copy of it. Its addresses, timeouts and DNS are a compose deployment's, and stay there.
 */
export const shippedHaproxyPolicy = (file = join(PANEL_ROOT, 'docker', 'fleet', 'haproxy.cfg')): { defaults: string[]; backend: string[] } => {
  const wanted = {
    defaults: [/^retries\b/, /^option redispatch\b/, /^retry-on\b/, /^option forwardfor\b/],
    backend: [/^balance\b/, /^http-request disable-l7-retry\b/, /^option httpchk\b/, /^http-check expect\b/],
  };
  const found: { defaults: string[]; backend: string[] } = { defaults: [], backend: [] };
  let section = '';
  for (const raw of readFileSync(file, 'utf8').split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) {
      continue;
    }
    if (!/^\s/.test(raw)) {
      section = line.split(/\s+/)[0];
      continue;
    }
    if (section === 'defaults' || section === 'backend') {
      if (wanted[section].some((re) => re.test(line))) {
        found[section].push(line);
      }
    }
  }
  for (const part of ['defaults', 'backend'] as const) {
    const missing = wanted[part].filter((re) => !found[part].some((line) => re.test(line)));
    if (missing.length > 0) {
      throw new Error(`${file}: its ${part} section has no line matching ${missing.join(', ')}`);
    }
  }
  return found;
};

const PGBOUNCER = '/usr/sbin/pgbouncer';
const HAPROXY = '/usr/sbin/haproxy';

/** Throws what `haproxy -c` says of a configuration file it finds invalid; returns what it says of a valid one (warnings). */
export const checkHaproxyConfig = (file: string): string => {
  const check = spawnSync(HAPROXY, ['-c', '-q', '-f', file], { encoding: 'utf8' });
  if (check.status !== 0) {
    throw new Error(`haproxy -c ${file}: ${check.stderr}${check.stdout}`);
  }
  return `${check.stderr}${check.stdout}`.trim();
};

/**
 * Whether `parts` are installed: true when they are; when not, skips (printing why) outside CI and
 * throws in CI, naming `tests`.
 */
const installed = (parts: string[], tests: string): boolean => {
  const missing = parts.filter((bin) => !existsSync(bin));
  if (missing.length === 0) {
    return true;
  }
  const why = `${missing.join(' and ')} not installed (Debian's ${missing.map((bin) => bin.split('/').pop()).join(' and ')} packages)`;
  if (isCi()) {
    throw new Error(`the ${tests} need them in CI: ${why}`);
  }
  process.stdout.write(`[hatchery tests] skipping the ${tests}: ${why}\n`);
  return false;
};

/** The fleet's parts (PgBouncer and HAProxy) are installed; see `installed`. */
export const fleetAvailable = (): boolean => installed([PGBOUNCER, HAPROXY], 'fleet tests');

/** PgBouncer is installed; see `installed`. */
export const pgBouncerAvailable = (tests: string): boolean => installed([PGBOUNCER], tests);

/** A failure that waiting longer cannot mend (the process it waits for has exited). */
class Fatal extends Error {}

/**
 * Resolves once `probe` answers true, polling every 50 ms (a probe that throws counts as not yet, unless
 * it throws Fatal); rejects after `timeoutMs` with the last error seen.
 */
const until = async (what: string, probe: () => Promise<boolean>, timeoutMs: number): Promise<void> => {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < deadline) {
    try {
      if (await probe()) {
        return;
      }
    } catch (e) {
      if (e instanceof Fatal) {
        throw e;
      }
      last = String((e as Error).cause ?? e);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${what}: not within ${timeoutMs} ms${last ? ` (last: ${last})` : ''}`);
};

/** A child process whose output is kept, to show when it fails. */
class Child {
  readonly output: string[] = [];
  readonly exited: Promise<number | null>;

  constructor(
    readonly name: string,
    readonly proc: ChildProcess,
  ) {
    const keep = (chunk: Buffer) => {
      this.output.push(chunk.toString('utf8'));
      if (this.output.length > 400) {
        this.output.splice(0, 100);
      }
    };
    proc.stdout?.on('data', keep);
    proc.stderr?.on('data', keep);
    this.exited = new Promise((resolve) => proc.once('exit', (code) => resolve(code)));
  }

  get running(): boolean {
    return this.proc.exitCode === null && this.proc.signalCode === null;
  }

  tail(lines = 40): string {
    return this.output.join('').trimEnd().split('\n').slice(-lines).join('\n');
  }

  async stop(signal: NodeJS.Signals = 'SIGTERM', timeoutMs = 15_000): Promise<void> {
    if (!this.running) {
      return;
    }
    this.proc.kill(signal);
    const timer = setTimeout(() => this.proc.kill('SIGKILL'), timeoutMs);
    await this.exited;
    clearTimeout(timer);
  }
}

/**
 * PgBouncer in transaction mode before one database of the test PostgreSQL (Debian's package), on a
 * port of its own. `stop` and `start` again keep the port: what a database outage looks like to a panel.
 */
export class PgBouncer {
  child!: Child;
  private readonly dir = mkdtempSync(join(tmpdir(), 'hatchery-pgbouncer-'));

  private constructor(
    private readonly database: string,
    private readonly port: number,
  ) {}

  static async start(database: string): Promise<PgBouncer> {
    const bouncer = new PgBouncer(database, await freePort());
    await bouncer.start();
    return bouncer;
  }

  /** The pooled DATABASE_URL. */
  get url(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/${this.database}`;
  }

  async start(): Promise<void> {
    const ini = join(this.dir, 'pgbouncer.ini');
    writeShared(join(this.dir, 'users.txt'), '"postgres" ""\n');
    writeShared(
      ini,
      [
        '[databases]',
        `${this.database} = host=127.0.0.1 port=5432 dbname=${this.database}`,
        '[pgbouncer]',
        'listen_addr = 127.0.0.1',
        `listen_port = ${this.port}`,
        'unix_socket_dir =',
        'auth_type = trust',
        `auth_file = ${join(this.dir, 'users.txt')}`,
        'pool_mode = transaction',
        'max_client_conn = 500',
        'default_pool_size = 12',
        // node-postgres sends it at connect; the panel sends no other startup option behind a pooler.
        'ignore_startup_parameters = extra_float_digits',
        'admin_users = postgres',
        '',
      ].join('\n'),
    );
    chmodSync(this.dir, 0o755);
    // PgBouncer refuses to run as root: then it switches to the postgres user (-u).
    const asRoot = process.getuid?.() === 0;
    const child = new Child('pgbouncer', spawn(PGBOUNCER, [...(asRoot ? ['-u', 'postgres'] : []), ini], { stdio: ['ignore', 'pipe', 'pipe'] }));
    this.child = child;
    await until(
      'PgBouncer listening',
      async () => {
        if (!child.running) {
          throw new Fatal(`PgBouncer exited: ${child.tail()}`);
        }
        const { Client } = await import('pg');
        const client = new Client({ connectionString: this.url });
        await client.connect();
        await client.query('SELECT 1');
        await client.end();
        return true;
      },
      10_000,
    );
  }

  /** Stops it at once (SIGTERM: PgBouncer's immediate shutdown), cutting every connection. */
  async stop(): Promise<void> {
    await this.child?.stop();
  }

  /** Stops it and removes its files. */
  async remove(): Promise<void> {
    await this.stop();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

export interface PanelInstance {
  readonly name: string;
  readonly port: number;
  readonly url: string;
  child: Child;
}

interface FleetOptions {
  /** The database's name on the test PostgreSQL. */
  database: string;
  /** postgres://…/<database> on PostgreSQL itself. */
  directUrl: string;
  redisUrl: string;
  /** How many panel processes. */
  panels: number;
  /** More environment for every panel (ADMIN_EMAIL, ...). */
  env?: Record<string, string>;
}

/** Writes `text` to `file`, readable by the user PgBouncer switches to when started as root. */
const writeShared = (file: string, text: string): void => {
  writeFileSync(file, text);
  chmodSync(file, 0o644);
};

export class Fleet {
  readonly panels: PanelInstance[] = [];
  private pgbouncer?: PgBouncer;
  private haproxy?: Child;
  private readonly dir = mkdtempSync(join(tmpdir(), 'hatchery-fleet-'));
  /** HAProxy's address: what clients (and APP_URL) use. */
  url = '';

  private constructor(private readonly options: FleetOptions) {}

  /** Starts PgBouncer, the panels (all at once: they migrate an empty database under one lock) and HAProxy. */
  static async start(options: FleetOptions): Promise<Fleet> {
    const fleet = new Fleet(options);
    try {
      fleet.pgbouncer = await PgBouncer.start(options.database);
      const ports = await Promise.all(Array.from({ length: options.panels }, () => freePort()));
      const proxyPort = await freePort();
      fleet.url = `http://127.0.0.1:${proxyPort}`;
      for (const [i, port] of ports.entries()) {
        fleet.panels.push({ name: `p${i + 1}`, port, url: `http://127.0.0.1:${port}`, child: undefined as unknown as Child });
      }
      await Promise.all(fleet.panels.map((panel) => fleet.startPanel(panel)));
      await fleet.startHaproxy(proxyPort);
      return fleet;
    } catch (e) {
      const tails = [fleet.pgbouncer?.child, ...fleet.panels.map((p) => p.child), fleet.haproxy]
        .filter((c): c is Child => c !== undefined)
        .map((c) => `--- ${c.name} ---\n${c.tail()}`)
        .join('\n');
      await fleet.stop();
      throw new Error(`${(e as Error).message}\n${tails}`);
    }
  }

  /** The processes of HAProxy and PgBouncer (for the bench's CPU accounting). */
  get proxyPids(): number[] {
    return [this.haproxy?.proc.pid, this.pgbouncer?.child.proc.pid].filter((pid): pid is number => pid !== undefined);
  }

  /** The pooled DATABASE_URL the panels use. */
  get pooledUrl(): string {
    return this.pgbouncer!.url;
  }

  private async startPanel(panel: PanelInstance): Promise<void> {
    const env = {
      PATH: process.env.PATH,
      TS_NODE_PROJECT: 'tsconfig.json',
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(panel.port),
      APP_URL: this.url,
      APP_KEY: 'fleet-tests-app-key-0123456789abcdef0123456789',
      DATABASE_URL: this.pooledUrl,
      DATABASE_DIRECT_URL: this.options.directUrl,
      DB_POOL_MAX: '4',
      REDIS_URL: this.options.redisUrl,
      TRUSTED_PROXIES: 'loopback',
      LOG_LEVEL: 'warn',
      // HAProxy checks every 250 ms and takes a panel out at its first failed check.
      SHUTDOWN_DRAIN_SECONDS: '2',
      // Live status twice a second: a few seconds show how often the fleet asks a node.
      LIVE_STATUS_INTERVAL_MS: '500',
      // Schedules looked for every second; a killed process's claims are stale after 6 s.
      SCHEDULER_TICK_SECONDS: '1',
      SCHEDULER_STALE_CLAIM_SECONDS: '6',
      LOG_FORMAT: 'json',
      DATA_DIR: join(this.dir, panel.name),
      // Cheap password hashing: the tests sign in often (the production cost is not what they check).
      PASSWORD_HASH_MEMORY_KIB: '1024',
      PASSWORD_HASH_TIME_COST: '1',
      ...this.options.env,
    };
    panel.child = new Child(panel.name, spawn(process.execPath, panelEntry('main'), { cwd: PANEL_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] }));
    const child = panel.child;
    const healthy = until(
      `${panel.name} healthy`,
      async () => {
        if (!child.running) {
          throw new Fatal(`${panel.name} exited: ${child.tail()}`);
        }
        return (await fetch(`${panel.url}/api/health`)).status === 200;
      },
      60_000,
    );
    await healthy.catch((e: unknown) => {
      throw new Error(`${(e as Error).message}\n--- ${panel.name} ---\n${child.tail()}`);
    });
  }

  private async startHaproxy(port: number): Promise<void> {
    const cfg = join(this.dir, 'haproxy.cfg');
    const policy = shippedHaproxyPolicy();
    writeShared(
      cfg,
      [
        'global',
        '  maxconn 2000',
        'defaults',
        '  mode http',
        '  timeout connect 2s',
        '  timeout client 30s',
        '  timeout server 30s',
        // A check answered slowly by a busy panel (the bench's storms) is not a failure; a refused or 503 one is, at once.
        '  timeout check 2s',
        // Retries (only reads are sent again to another panel) and forwarding: the shipped configuration's.
        ...policy.defaults.map((line) => `  ${line}`),
        'frontend panel',
        `  bind 127.0.0.1:${port}`,
        '  default_backend panels',
        'backend panels',
        ...policy.backend.map((line) => `  ${line}`),
        // Which panel answered, for the tests.
        '  http-response set-header X-Served-By %s',
        ...this.panels.map((p) => `  server ${p.name} 127.0.0.1:${p.port} check inter 250 fall 1 rise 1`),
        '',
      ].join('\n'),
    );
    checkHaproxyConfig(cfg);
    this.haproxy = new Child('haproxy', spawn(HAPROXY, ['-db', '-f', cfg], { stdio: ['ignore', 'pipe', 'pipe'] }));
    const served = new Set<string>();
    await until(
      'HAProxy sends to every panel',
      async () => {
        const res = await fetch(`${this.url}/api/health`);
        served.add(res.headers.get('x-served-by') ?? '');
        return this.panels.every((p) => served.has(p.name));
      },
      15_000,
    );
  }

  /** Starts a panel that was stopped, and waits until it is healthy. */
  async start(panel: PanelInstance): Promise<void> {
    await this.startPanel(panel);
  }

  /** Stops a panel as an orchestrator does (SIGTERM, or SIGKILL), then starts it again and waits until it is healthy. */
  async restart(panel: PanelInstance, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    await panel.child.stop(signal);
    await this.startPanel(panel);
  }

  async stop(): Promise<void> {
    await Promise.all(this.panels.filter((p) => p.child).map((p) => p.child.stop()));
    await this.haproxy?.stop();
    await this.pgbouncer?.remove();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
