import { spawn } from 'node:child_process';
import { Client } from 'pg';
import { UsersRepository } from 'src/modules/users/users.repository';
import { createUser } from 'test/factories/user.factory';
import { signIn } from 'test/utils/auth';
import { createTestApp, TestApp } from 'test/utils/create-test-app';
import { PANEL_ROOT, panelEntry } from 'test/utils/panel-process';
import { createTestDatabase, dbKinds } from 'test/utils/test-db';

const ADMIN_ENV = { ADMIN_EMAIL: 'Root@Example.test', ADMIN_PASSWORD: 'first admin password' };
const APP_KEY = 'cli-test-app-key-0123456789-abcdefghij';

interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the CLI (panelEntry) as a real process, with stdin a closed pipe (not a TTY). */
const runCli = (args: string[], databaseUrl: string): Promise<CliResult> =>
  new Promise((done, fail) => {
    const child = spawn(
      process.execPath,
      [...panelEntry('cli'), ...args],
      {
        cwd: PANEL_ROOT,
        env: { PATH: process.env.PATH, DATABASE_URL: databaseUrl, APP_KEY, NODE_ENV: 'test', TS_NODE_PROJECT: 'tsconfig.json' },
        stdio: ['pipe', 'pipe', 'pipe'],
      },
    );
    child.stdin.end();
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 50_000);
    child.on('error', fail);
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, stdout, stderr });
    });
  });

/**
 * Runs the CLI on a terminal (a pseudo-terminal from util-linux's `script`), typing each answer
 * once its prompt has appeared: what the screen shows is `screen`.
 */
const runCliOnTerminal = (args: string[], databaseUrl: string, answers: [prompt: string, typed: string][]): Promise<{ code: number | null; screen: string }> =>
  new Promise((done, fail) => {
    const command = [process.execPath, ...panelEntry('cli'), ...args].join(' ');
    const child = spawn('script', ['-qefc', command, '/dev/null'], {
      cwd: PANEL_ROOT,
      env: { PATH: process.env.PATH, DATABASE_URL: databaseUrl, APP_KEY, NODE_ENV: 'test', TS_NODE_PROJECT: 'tsconfig.json', TERM: 'dumb' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let screen = '';
    const pending = [...answers];
    child.stdout.on('data', (chunk: Buffer) => {
      screen += chunk.toString();
      if (pending.length > 0 && screen.includes(pending[0][0])) {
        child.stdin.write(`${pending.shift()![1]}\r`);
      }
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 50_000);
    child.on('error', fail);
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, screen });
    });
  });

const withClient = async <T>(url: string, fn: (client: Client) => Promise<T>): Promise<T> => {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
};

const userRows = (url: string): Promise<{ username: string; email: string; admin: boolean }[]> =>
  withClient(url, async (c) => (await c.query('SELECT username, email, admin FROM "user" ORDER BY id')).rows);

describe.each(dbKinds(['postgres']))('first administrator from ADMIN_EMAIL (%s)', (db) => {
  const apps: TestApp[] = [];
  const drops: (() => Promise<void>)[] = [];

  /** A fresh database that outlives the apps booted on it, so a second boot can find the first one's rows. */
  const sharedDatabase = async (): Promise<string> => {
    const database = await createTestDatabase();
    drops.push(database.drop);
    return database.url;
  };
  const boot = async (env: Record<string, string>): Promise<TestApp> => {
    const t = await createTestApp({ db, env });
    apps.push(t);
    return t;
  };

  afterEach(async () => {
    for (const t of apps.splice(0)) {
      await t.close();
    }
    for (const drop of drops.splice(0)) {
      await drop();
    }
  });

  it('should create exactly one admin named after the local part, who can sign in, when the database is empty', async () => {
    const t = await boot(ADMIN_ENV);
    const users = await t.app.get(UsersRepository).findPage(0, 10);
    expect(users[1]).toBe(1);
    expect(users[0][0]).toMatchObject({ username: 'root', email: 'root@example.test', name: '', admin: true, twoFactorEnabled: false });
    const cookie = await signIn(t, 'root@example.test', ADMIN_ENV.ADMIN_PASSWORD);
    const account = await t.http().get('/api/admin/users').set('Cookie', cookie).expect(200);
    expect(account.body.meta.pagination.total).toBe(1);
    expect(account.body.data[0]).toMatchObject({ username: 'root', admin: true });
  });

  it('should use ADMIN_USERNAME for the username when it is given', async () => {
    const url = await sharedDatabase();
    await boot({ ...ADMIN_ENV, ADMIN_USERNAME: 'operator', DATABASE_URL: url });
    expect(await userRows(url)).toEqual([{ username: 'operator', email: 'root@example.test', admin: true }]);
  });

  it('should create nothing on a later boot when the database already has users', async () => {
    const url = await sharedDatabase();
    await boot({ ...ADMIN_ENV, DATABASE_URL: url });
    await boot({ ADMIN_EMAIL: 'second@example.test', ADMIN_PASSWORD: 'second admin password', DATABASE_URL: url });
    expect(await userRows(url)).toEqual([{ username: 'root', email: 'root@example.test', admin: true }]);
  });

  it('should create nothing when the only existing user is not an admin', async () => {
    const url = await sharedDatabase();
    const first = await boot({ DATABASE_URL: url });
    const member = await createUser(first.app);
    await boot({ ...ADMIN_ENV, DATABASE_URL: url });
    expect(await userRows(url)).toEqual([{ username: member.username, email: member.email, admin: false }]);
  });

  it('should boot every instance and create one admin when two instances start at once on an empty database', async () => {
    const url = await sharedDatabase();
    const results = await Promise.allSettled([boot({ ...ADMIN_ENV, DATABASE_URL: url }), boot({ ...ADMIN_ENV, DATABASE_URL: url })]);
    expect(results.map((r) => (r.status === 'rejected' ? String(r.reason) : 'booted'))).toEqual(['booted', 'booted']);
    expect(await userRows(url)).toEqual([{ username: 'root', email: 'root@example.test', admin: true }]);
  });
});

describe.each(dbKinds(['postgres']))('CLI user:create (%s)', (db) => {
  let url: string;
  let drop: () => Promise<void>;
  let t: TestApp;
  let withPassword: CliResult;
  let generated: CliResult;

  beforeAll(async () => {
    ({ url, drop } = await createTestDatabase());
    // Two real processes at once: each compiles the CLI on start, which is the slow part.
    [withPassword, generated] = await Promise.all([
      runCli(['user:create', '--admin', '--email', 'Cli.Admin@Example.test', '--username', 'Cli-Admin', '--password', 'cli admin password'], url),
      runCli(['user:create', '--email', 'member@example.test', '--username', 'member', '--name', 'Member'], url),
    ]);
    // An app on the very database the CLI wrote to.
    t = await createTestApp({ db, env: { DATABASE_URL: url } });
  });

  afterAll(async () => {
    await t?.close();
    await drop?.();
  });

  it('should exit 0 and report the administrator when given --admin and --password', () => {
    expect(withPassword).toEqual({
      code: 0,
      stdout: expect.stringMatching(/^Created administrator cli-admin <cli\.admin@example\.test> \(id [1-9]\d*\)\n$/),
      stderr: '',
    });
  });

  it('should create an admin who signs in over HTTP with the given password when run with --admin', async () => {
    const cookie = await signIn(t, 'cli.admin@example.test', 'cli admin password');
    const res = await t.http().get('/api/account').set('Cookie', cookie).expect(200);
    const id = /\(id (\d+)\)/.exec(withPassword.stdout)![1];
    expect(res.body.data).toMatchObject({ id, username: 'cli-admin', email: 'cli.admin@example.test', admin: true });
    await t.http().get('/api/admin/users').set('Cookie', cookie).expect(200);
  });

  it('should generate, print and accept a password when --password is absent and stdin is not a TTY', async () => {
    expect(generated.code).toBe(0);
    expect(generated.stderr).toBe('');
    const match = /^Created user member <member@example\.test> \(id [1-9]\d*\)\nGenerated password: (\S{20,})\n$/.exec(generated.stdout);
    expect(match).not.toBeNull();
    const cookie = await signIn(t, 'member@example.test', match![1]);
    const res = await t.http().get('/api/account').set('Cookie', cookie).expect(200);
    expect(res.body.data).toMatchObject({ username: 'member', name: 'Member', admin: false });
  });

  it('should ask for the password twice on a terminal without showing it, and refuse two that differ', async () => {
    const [typed, mistyped] = await Promise.all([
      runCliOnTerminal(['user:create', '--email', 'typed@example.test', '--username', 'typed'], url, [
        ['Password (leave empty', 'typed secret password'],
        ['The same password again', 'typed secret password'],
      ]),
      runCliOnTerminal(['user:create', '--email', 'mistyped@example.test', '--username', 'mistyped'], url, [
        ['Password (leave empty', 'first secret password'],
        ['The same password again', 'other secret password'],
      ]),
    ]);
    expect(typed.code).toBe(0);
    expect(typed.screen).toMatch(/Created user typed <typed@example\.test>/);
    expect(typed.screen).not.toContain('typed secret');
    await signIn(t, 'typed@example.test', 'typed secret password');
    expect(mistyped.code).toBe(1);
    expect(mistyped.screen).toContain('error: the two passwords differ; nothing was created');
    expect(mistyped.screen).not.toMatch(/first secret|other secret/);
    expect((await userRows(url)).map((u) => u.username)).not.toContain('mistyped');
  });

  it('should exit non-zero with the reason on stderr and create nothing when the e-mail is invalid', async () => {
    const before = await userRows(url);
    const bad = await runCli(['user:create', '--admin', '--email', 'not-an-email', '--username', 'broken', '--password', 'long enough password'], url);
    expect(bad).toEqual({ code: 1, stdout: '', stderr: 'error: email: email must be an email\n' });
    expect(await userRows(url)).toEqual(before);
    expect(before.map((u) => u.username).sort()).toEqual(['cli-admin', 'member', 'typed']);
  });
});
