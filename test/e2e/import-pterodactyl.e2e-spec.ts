import { ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Secret, TOTP } from 'otpauth';
import { DataSource } from 'typeorm';
import { SecretBox } from 'src/common/crypto/secret-box';
import { PterodactylImporter } from 'src/import/pterodactyl/importer';
import { PanelSettings } from 'src/modules/settings/panel-settings.service';
import { WingsSimulator } from 'test/wings-sim';
import { createBackupArchive } from 'test/wings-sim/archive';
import { testMySqlAccount } from 'test/setup/mariadb-env';
import { copyPgliteTemplate } from 'test/setup/pglite-template';
import { sessionCookie, signIn } from 'test/utils/auth';
import { createTestApp, TEST_ORIGIN, TestApp } from 'test/utils/create-test-app';
import { freePort } from 'test/utils/free-port';
import { newLaravelAppKey } from 'test/utils/laravel-encrypt';
import { MariaDb, mariadbAvailable } from 'test/utils/mariadb';
import { PANEL_ROOT, panelEntry } from 'test/utils/panel-process';
import { PTERODACTYL_ACCEPT } from 'test/utils/pterodactyl';
import { createPterodactylSource, PterodactylSource, SeededPanel, seedPanel } from 'test/utils/pterodactyl-source';
import { waitFor } from 'test/utils/sim-panel';
import { createTestDatabase, dbKinds, DbKind } from 'test/utils/test-db';

/**
 * A Pterodactyl 1.11 panel on MariaDB, filled as the old panel fills it (test/utils/pterodactyl-source),
 * imported by the real CLI into an empty Hatchery on each database kind; then the old panel's users,
 * keys and node carry on against Hatchery (docs/migrate-from-pterodactyl.md).
 */

/** The Hatchery APP_KEY of the test panels (create-test-app.ts): the CLI must seal with the same. */
const HATCHERY_APP_KEY = 'test-app-key-0123456789-abcdefghijklmnop';

interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

type Target = { kind: 'pglite'; dir: string } | { kind: 'postgres'; url: string };

const targetEnv = (target: Target): Record<string, string> =>
  target.kind === 'pglite' ? { PGLITE_DIR: target.dir } : { DATABASE_URL: target.url };

/** Starts the CLI (panelEntry) as a real process; `onStderr` sees its progress lines as they come. */
const startCli = (args: string[], target: Target, onStderr?: (text: string, child: ChildProcess) => void): { child: ChildProcess; done: Promise<CliResult> } => {
  const child = spawn(process.execPath, [...panelEntry('cli'), ...args], {
    cwd: PANEL_ROOT,
    env: { PATH: process.env.PATH, APP_KEY: HATCHERY_APP_KEY, NODE_ENV: 'test', TS_NODE_PROJECT: 'tsconfig.json', ...targetEnv(target) },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  child.stdin?.end();
  let stdout = '';
  let stderr = '';
  const done = new Promise<CliResult>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      onStderr?.(stderr, child);
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
  return { child, done };
};

const runImport = (source: PterodactylSource, appKey: string, target: Target, extra: string[] = []): Promise<CliResult> =>
  startCli(['import:pterodactyl', '--from', source.url, '--app-key', appKey, ...extra], target).done;

const codeAt = (secret: string, ms: number): string => new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({ timestamp: ms });

const newTarget = async (kind: DbKind): Promise<{ target: Target; remove: () => Promise<void> }> => {
  if (kind === 'pglite') {
    const copy = copyPgliteTemplate();
    return { target: { kind, dir: copy.dir }, remove: () => Promise.resolve(copy.remove()) };
  }
  const db = await createTestDatabase();
  return { target: { kind, url: db.url }, remove: db.drop };
};

const appOn = (target: Target): Promise<TestApp> =>
  createTestApp(target.kind === 'pglite' ? { db: 'pglite', env: { PGLITE_DIR: target.dir } } : { db: 'external', env: { DATABASE_URL: target.url, DB_RUN_MIGRATIONS: 'false' } });

/** The importer in the test app's process, as the CLI's action makes it (without its progress lines). */
const importerOn = (t: TestApp): PterodactylImporter =>
  new PterodactylImporter(t.app.get(DataSource), t.app.get(SecretBox), { start: () => undefined, advance: () => undefined, done: () => undefined });

/** The report as the CLI prints it with --json. */
const asJson = (report: object) => JSON.parse(JSON.stringify(report));

const rowCount = async (t: TestApp, table: string): Promise<number> => Number((await t.app.get(DataSource).query<{ n: string }[]>(`SELECT COUNT(*) AS n FROM "${table}"`))[0].n);

describe.each(dbKinds(['pglite', 'postgres']))('import:pterodactyl into %s', (kind) => {
  if (!mariadbAvailable()) {
    it.skip('needs MariaDB', () => undefined);
    return;
  }

  let source: PterodactylSource;
  let panel: SeededPanel;
  let appKey: string;
  let daemonPort: number;

  beforeAll(async () => {
    appKey = newLaravelAppKey();
    daemonPort = await freePort();
    source = await createPterodactylSource();
    const { host, port, user, password } = testMySqlAccount();
    panel = await seedPanel(source, { appKey, nodes: [{ fqdn: '127.0.0.1', scheme: 'http', daemonListen: daemonPort }], databaseHost: { host, port, username: user, password } });
  }, 60_000);

  afterAll(async () => {
    await source?.drop();
  });

  // What is refused before anything is read for real (the key, the source) does not depend on the target:
  // checked on the embedded database, the default. A non-empty target is refused on both kinds, below.
  // These run the importer in the test app's process (what the CLI's action does, without booting a
  // panel process for each); the CLI itself, its options and its exit codes are run as a process for
  // the S3 import here and for every import below.
  const refusals = (): void => {
    let target: Target;
    let remove: () => Promise<void>;
    let t: TestApp;
    const importFrom = (from: PterodactylSource, key: string, options: Partial<Parameters<PterodactylImporter['run']>[0]> = {}) =>
      importerOn(t).run({ from: from.url, appKey: key, dryRun: false, skipActivity: false, ...options });

    beforeAll(async () => {
      ({ target, remove } = await newTarget(kind));
      t = await appOn(target);
    });

    afterAll(async () => {
      await t?.close();
      await remove();
    });

    it('should refuse a wrong APP_KEY before writing anything', async () => {
      await expect(importFrom(source, newLaravelAppKey())).rejects.toThrow("The APP_KEY does not open this panel's secrets (tried a node token)");
      expect(await rowCount(t, 'user')).toBe(0);
    });

    it('should refuse a database that is not Pterodactyl\'s', async () => {
      const other = await createPterodactylSource();
      try {
        await other.query(`DROP TABLE ${other.table('activity_log_subjects')}`);
        await other.query(`ALTER TABLE ${other.table('nodes')} DROP COLUMN daemonSFTP`);
        const refused = importFrom(other, appKey);
        await expect(refused).rejects.toThrow('This is not a Pterodactyl 1.x panel database that the importer can read');
        await expect(refused).rejects.toThrow('lacks daemonSFTP');
      } finally {
        await other.drop();
      }
    });

    it('should find the old panel\'s table prefix (DB_PREFIX) by itself', async () => {
      const prefixed = await createPterodactylSource({ prefix: 'pt_' });
      try {
        const seeded = await seedPanel(prefixed, { appKey, nodes: [{ fqdn: '127.0.0.1', scheme: 'http', daemonListen: daemonPort }] });
        const report = asJson(await importFrom(prefixed, appKey, { dryRun: true }));
        expect(report.source).toContain('(prefix pt_)');
        expect(report.imported).toMatchObject({ users: seeded.users.length, servers: seeded.servers.length, nodes: 1 });
      } finally {
        await prefixed.drop();
      }
    });

    it('should refuse a malformed APP_KEY without echoing it', async () => {
      const refused = importFrom(source, 'base64:c2hvcnQ=');
      await expect(refused).rejects.toThrow(/APP_KEY/);
      expect(await refused.catch((err: Error) => err.message)).not.toContain('c2hvcnQ=');
    });
  };
  if (kind === 'pglite') {
    describe('refusals', refusals);
    // Its own target and apps: the embedded database is opened by one app of this process at a time.
    describe('S3 backups', () => {
      it("should leave S3 backups behind without the old .env, and with it bring the bucket as a backup host and the backups on it", async () => {
        const s3Source = await createPterodactylSource();
        const dir = await mkdtemp(join(tmpdir(), 'ptero-env-'));
        const fresh = await newTarget(kind);
        try {
          const seeded = await seedPanel(s3Source, { appKey, nodes: [{ fqdn: '127.0.0.1', scheme: 'http', daemonListen: daemonPort }] });
          const uuid = randomUUID();
          await s3Source.query(
            `INSERT INTO ${s3Source.table('backups')} (server_id, uuid, upload_id, is_successful, is_locked, name, ignored_files, disk, checksum, bytes, completed_at, created_at, updated_at) VALUES (?, ?, 'upload-1', 1, 0, 'On S3', '[]', 's3', 'sha1:ab', 1000, NOW(), NOW(), NOW())`,
            [seeded.servers[0].id, uuid],
          );
          const dry = await appOn(fresh.target);
          let without: { leftBehind: { reason: string }[] };
          try {
            without = asJson(await importerOn(dry).run({ from: s3Source.url, appKey, dryRun: true, skipActivity: false }));
          } finally {
            await dry.close();
          }
          expect(without.leftBehind.map((l) => l.reason).join('\n')).toContain('pass --backup-env');
          const envFile = join(dir, '.env');
          await writeFile(envFile, 'APP_BACKUP_DRIVER=s3\nAWS_DEFAULT_REGION=eu-central-1\nAWS_ACCESS_KEY_ID=AKIDOLD\nAWS_SECRET_ACCESS_KEY="old secret"\nAWS_BACKUPS_BUCKET=old-bucket\nAWS_ENDPOINT=https://s3.example.test\nAWS_USE_PATH_STYLE_ENDPOINT=true\n');
          const res = await runImport(s3Source, appKey, fresh.target, ['--json', '--backup-env', envFile]);
          expect(res.code).toBe(0);
          expect(res.stdout).not.toContain('old secret');
          const imported = await appOn(fresh.target);
          try {
            const ds = imported.app.get(DataSource);
            const [host] = await ds.query('SELECT id, adapter, endpoint, region, bucket, access_key_id, secret_access_key, path_style FROM backup_host');
            expect(host).toMatchObject({ id: '1', adapter: 's3', endpoint: 'https://s3.example.test', region: 'eu-central-1', bucket: 'old-bucket', access_key_id: 'AKIDOLD', path_style: true });
            expect(host.secret_access_key).toMatch(/^v1:/);
            expect(await ds.query('SELECT DISTINCT backup_host_id FROM node')).toEqual([{ backup_host_id: '1' }]);
            expect(await ds.query('SELECT disk, backup_host_id, upload_id FROM backup WHERE uuid = $1', [uuid])).toEqual([{ disk: 's3', backup_host_id: '1', upload_id: 'upload-1' }]);
          } finally {
            await imported.close();
          }
        } finally {
          await fresh.remove();
          await rm(dir, { recursive: true, force: true });
          await s3Source.drop();
        }
      });
    });
  }

  describe('a dry run, a run killed half-way, then the import', () => {
    let target: Target;
    let remove: () => Promise<void>;
    let t: TestApp;
    let sim: WingsSimulator | undefined;
    let dryRun: CliResult;
    let imported: CliResult;
    let again: CliResult;

    beforeAll(async () => {
      ({ target, remove } = await newTarget(kind));
      dryRun = await runImport(source, appKey, target, ['--dry-run', '--json']);
      // Killed while its transaction holds everything but the activity log: the old panel's activity table
      // is write-locked (LOCK TABLES blocks every other session's reads), so the run waits there for sure.
      await source.query(`LOCK TABLES ${source.table('activity_logs')} WRITE`);
      const killed = startCli(['import:pterodactyl', '--from', source.url, '--app-key', appKey], target, (text, child) => {
        if (/backups: \d+\/\d+ \(100 %\)/.test(text)) {
          child.kill('SIGKILL');
        }
      });
      const result = await killed.done;
      await source.query('UNLOCK TABLES');
      expect(result.code).toBeNull();
      expect(result.stderr).toMatch(/servers: \d+\/\d+ \(100 %\)/);
      imported = await runImport(source, appKey, target, ['--json']);
      again = await runImport(source, appKey, target, ['--dry-run']);
      t = await appOn(target);
      await t.app.listen(0, '127.0.0.1');
    }, 240_000);

    afterAll(async () => {
      await sim?.stop();
      await t?.close();
      await remove();
    });

    it('should write nothing in the dry run and report what it would bring', () => {
      expect(dryRun.code).toBe(0);
      const report = JSON.parse(dryRun.stdout);
      expect(report.dryRun).toBe(true);
      expect(report.imported.users).toBe(panel.users.length);
      expect(report.imported.servers).toBe(panel.servers.length);
    });

    it('should import everything once after a killed run, and report what it left behind', () => {
      expect(imported.code).toBe(0);
      const report = JSON.parse(imported.stdout);
      const dry = JSON.parse(dryRun.stdout);
      expect(report.dryRun).toBe(false);
      expect(report.imported).toEqual(dry.imported);
      expect(report.imported).toMatchObject({
        users: panel.users.length,
        nodes: panel.nodes.length,
        servers: panel.servers.length,
        eggs: panel.eggs.length,
        allocations: panel.allocations.length,
        databases: panel.databases.length,
        schedules: panel.schedules.length,
        sshKeys: panel.sshKeys.filter((k) => !k.deleted).length,
        apiKeys: panel.keys.filter((k) => !k.expired && (k.keyType === 1 || k.keyType === 2)).length,
        twoFactor: panel.users.filter((u) => u.useTotp).length,
        recoveryCodes: panel.users.filter((u) => u.useTotp).reduce((n, u) => n + (u.recoveryCodes?.length ?? 0), 0),
      });
      const reasons = report.leftBehind.map((l: { reason: string }) => l.reason).join('\n');
      expect(reasons).toContain('sessions');
      expect(reasons).toContain('API keys that had expired');
      expect(reasons).toContain('egg variable rules Hatchery cannot run');
      expect(reasons).toContain('mounts whose paths Hatchery refuses');
      expect(report.imported).toMatchObject({ mounts: 1, mountLinks: 3, settings: 1 });
      // "Require 2-Factor Authentication: Admin Only" became the policy; the other settings are counted as left behind.
      expect(reasons).toContain('panel settings (name, mail, reCAPTCHA');
    });

    it("should bring Pterodactyl's two-factor requirement over as the policy, which holds the administrator without one", async () => {
      expect(await t.app.get(DataSource).query('SELECT key, value FROM panel_setting')).toEqual([{ key: 'twoFactorPolicy', value: 'admins' }]);
      expect(JSON.parse(imported.stdout).notes.join('\n')).toContain('The two-factor policy is "admins": 1 account has no second factor yet');
      const admin = panel.users.find((u) => u.admin)!;
      const cookie = await signIn(t, admin.email, admin.password);
      expect((await t.http().get('/api/admin/users').set('Cookie', cookie).expect(403)).body.code).toBe('TWO_FACTOR_SETUP_REQUIRED');
      // The host relaxes it for the rest of this suite (two-factor-policy.e2e-spec.ts tests the policy itself).
      await t.http().patch('/api/admin/settings').set('Cookie', cookie).set('Origin', TEST_ORIGIN).send({ twoFactorPolicy: 'none' }).expect(403);
      await t.app.get(PanelSettings).update({ twoFactorPolicy: 'none' }, { userId: String(admin.id), username: admin.username, email: admin.email, via: 'test', ip: null });
      await t.http().get('/api/admin/users').set('Cookie', cookie).expect(200);
    });

    it('should refuse a second import into the panel that now holds the first', () => {
      expect(again.code).toBe(1);
      expect(again.stderr).toContain(`Hatchery already holds ${panel.users.length} users, ${panel.nodes.length} node`);
      expect(again.stderr).toContain('an import goes into an empty panel only');
    });

    it('should sign an old user in with the old password, then with the old TOTP, and upgrade the hash', async () => {
      const plain = panel.users.find((u) => !u.useTotp && !u.admin)!;
      const res = await t.http().post('/api/auth/sign-in/email').set('Origin', TEST_ORIGIN).send({ email: plain.email, password: plain.password }).expect(200);
      expect(sessionCookie(res)).toBeDefined();
      await t.http().post('/api/auth/sign-in/email').set('Origin', TEST_ORIGIN).send({ email: plain.email, password: `${plain.password}x` }).expect(401);
      const [row] = await t.app.get(DataSource).query<{ password_hash: string }[]>('SELECT password_hash FROM "user" WHERE id = $1', [plain.id]);
      expect(row.password_hash).toMatch(/^\$argon2id\$/);

      const withTotp = panel.users.find((u) => u.useTotp)!;
      await t.http().post('/api/auth/sign-in/email').set('Origin', TEST_ORIGIN).send({ email: withTotp.email, password: withTotp.password }).expect(401);
      const code = codeAt(withTotp.totpSecret!, t.clock.now().getTime());
      const ok = await t.http().post('/api/auth/sign-in/email').set('Origin', TEST_ORIGIN).send({ email: withTotp.email, password: withTotp.password, totp: code }).expect(200);
      expect(sessionCookie(ok)).toBeDefined();
      // An old recovery code works once.
      const recovery = withTotp.recoveryCodes![3];
      await t.http().post('/api/auth/sign-in/email').set('Origin', TEST_ORIGIN).send({ email: withTotp.email, password: withTotp.password, totp: recovery }).expect(200);
      await t.http().post('/api/auth/sign-in/email').set('Origin', TEST_ORIGIN).send({ email: withTotp.email, password: withTotp.password, totp: recovery }).expect(401);
    });

    it("should file the old panel's activity under the months it happened in, none in the DEFAULT partition", async () => {
      expect(await rowCount(t, 'server_activity')).toBeGreaterThan(0);
      expect(await rowCount(t, 'audit_log')).toBeGreaterThan(0);
      expect(await rowCount(t, 'server_activity_default')).toBe(0);
      expect(await rowCount(t, 'audit_log_default')).toBe(0);
    });

    it('should give what is created after the import ids past the imported ones', async () => {
      const admin = panel.users.find((u) => u.admin)!;
      const cookie = await signIn(t, admin.email, admin.password);
      const location = await t.http().post('/api/admin/locations').set('Cookie', cookie).set('Origin', TEST_ORIGIN).send({ short: 'new1' }).expect(201);
      expect(Number(location.body.data.id)).toBeGreaterThan(Math.max(...panel.locations.map((l) => l.id)));
      const nest = await t.http().post('/api/admin/nests').set('Cookie', cookie).set('Origin', TEST_ORIGIN).send({ name: 'After the import' }).expect(201);
      const [row] = await t.app.get(DataSource).query<{ int_id: number }[]>('SELECT int_id FROM "nest" WHERE id = $1', [nest.body.data.id]);
      expect(row.int_id).toBeGreaterThan(Math.max(...panel.nests.map((n) => n.id)));
    });

    it('should answer the old ptlc_, ptla_ and unprefixed keys on the Pterodactyl API', async () => {
      const live = panel.keys.filter((k) => !k.expired && (k.keyType === 1 || k.keyType === 2));
      expect(live.some((k) => k.identifier.startsWith('ptlc_'))).toBe(true);
      expect(live.some((k) => k.identifier.startsWith('ptla_'))).toBe(true);
      expect(live.some((k) => !k.identifier.startsWith('ptl'))).toBe(true);
      for (const key of live) {
        const path = key.keyType === 2 ? '/api/application/servers' : '/pterodactyl/api/client';
        const res = await t.http().get(path).set('Accept', PTERODACTYL_ACCEPT).set('Authorization', `Bearer ${key.full}`);
        expect({ key: key.identifier, status: res.status }).toEqual({ key: key.identifier, status: 200 });
        if (key.keyType === 1) {
          // A bot that kept the old panel's URL calls Pterodactyl's own path.
          const atOldPath = await t.http().get('/api/client?page=1').set('Accept', PTERODACTYL_ACCEPT).set('Authorization', `Bearer ${key.full}`);
          expect({ key: key.identifier, status: atOldPath.status, object: atOldPath.body.object }).toEqual({ key: key.identifier, status: 200, object: 'list' });
          const account = await t.http().get('/api/client/account').set('Accept', PTERODACTYL_ACCEPT).set('Authorization', `Bearer ${key.full}`).expect(200);
          expect(account.body).toMatchObject({ object: 'user', attributes: { id: key.ownerId } });
        }
      }
      const expired = panel.keys.find((k) => k.expired)!;
      await t.http().get('/pterodactyl/api/client').set('Accept', PTERODACTYL_ACCEPT).set('Authorization', `Bearer ${expired.full}`).expect(401);
      const wrong = live[0].full.slice(0, -1) + (live[0].full.endsWith('a') ? 'b' : 'a');
      await t.http().get('/api/application/servers').set('Accept', PTERODACTYL_ACCEPT).set('Authorization', `Bearer ${wrong}`).expect(401);
    });

    it('should boot the Wings simulator started with the old node token, with every server of the node', async () => {
      const node = panel.nodes[0];
      sim = new WingsSimulator({ panelUrl: await t.app.getUrl(), tokenId: node.tokenId, token: node.token, port: daemonPort, remoteTimeoutMs: 5000, allowedOrigins: [TEST_ORIGIN] });
      await sim.start();
      const booted = await sim.boot();
      expect(booted.sort()).toEqual(panel.servers.filter((s) => s.nodeId === node.id).map((s) => s.uuid).sort());
      // The mount Hatchery keeps reaches the node with its paths normalised; the one it refuses does not.
      const [maps] = panel.mounts;
      const mounted = panel.servers.find((s) => s.id === maps.serverIds[0])!;
      expect(sim.servers.get(mounted.uuid)!.config.mounts).toEqual([{ source: '/srv/pterodactyl/maps', target: '/mnt/maps', read_only: true }]);
    });

    it('should show a subuser the server it was given, with its permissions', async () => {
      const sub = panel.users.find((u) => u.id === panel.subuser.userId)!;
      const server = panel.servers.find((s) => s.id === panel.subuser.serverId)!;
      const cookie = await signIn(t, sub.email, sub.password);
      const list = await t.http().get('/api/client/servers').set('Cookie', cookie).expect(200);
      expect(list.body.data.map((s: { uuid: string }) => s.uuid)).toContain(server.uuid);
      const details = await t.http().get(`/api/client/servers/${server.uuidShort}`).set('Cookie', cookie).expect(200);
      expect(details.body.data.permissions).toEqual(expect.arrayContaining(['server.view', 'websocket.connect', 'server.console', 'server.power', 'server.files.read', 'server.backup.read']));
      expect(details.body.data.permissions).not.toContain('server.files.write');
    });

    it('should rotate an old database password on the real MariaDB host', async () => {
      const db = panel.databases[0];
      const owner = panel.users.find((u) => u.id === panel.servers.find((s) => s.id === db.serverId)!.ownerId)!;
      const server = panel.servers.find((s) => s.id === db.serverId)!;
      const cookie = await signIn(t, owner.email, owner.password);
      const mariadb = await MariaDb.connect();
      try {
        const before = await mariadb.connectAs(db.username, db.password, db.database);
        expect(before.outcome).toBe('ok');
        await before.connection?.end();
        const rotated = await t.http().post(`/api/client/servers/${server.uuidShort}/databases/${db.id}/rotate-password`).set('Cookie', cookie).set('Origin', TEST_ORIGIN).expect(200);
        const password = rotated.body.meta.password as string;
        expect((await mariadb.connectAs(db.username, db.password, db.database)).outcome).not.toBe('ok');
        const after = await mariadb.connectAs(db.username, password, db.database);
        expect(after.outcome).toBe('ok');
        await after.connection?.end();
      } finally {
        await mariadb.close();
      }
    });

    it('should list and restore an old local backup through the node', async () => {
      const backup = panel.backups.find((b) => b.state === 'successful')!;
      const server = panel.servers.find((s) => s.id === backup.serverId)!;
      const owner = panel.users.find((u) => u.id === server.ownerId)!;
      const cookie = await signIn(t, owner.email, owner.password);
      const list = await t.http().get(`/api/client/servers/${server.uuidShort}/backups`).set('Cookie', cookie).expect(200);
      const listed = list.body.data.find((b: { uuid: string }) => b.uuid === backup.uuid);
      expect(listed).toMatchObject({ id: String(backup.id), checksum: backup.checksum, bytes: backup.bytes });
      // The archive Wings keeps for the old backup, as the old panel's node made it.
      const content = await mkdtemp(join(tmpdir(), 'old-backup-'));
      await writeFile(join(content, 'restored.txt'), 'from the old panel');
      await createBackupArchive(content, join(sim!.backupDir, `${backup.uuid}.tar.gz`), '');
      await rm(content, { recursive: true, force: true });
      const restore = await t.http().post(`/api/client/servers/${server.uuidShort}/backups/${backup.id}/restore`).set('Cookie', cookie).set('Origin', TEST_ORIGIN).send({ truncate: false });
      expect({ status: restore.status, body: restore.body }).toEqual({ status: 202, body: {} });
      const restored = join(sim!.servers.get(server.uuid)!.fs.root, 'restored.txt');
      await waitFor(async () => (await readFile(restored, 'utf8').catch(() => '')) === 'from the old panel', 15_000);
    });
  });
});
