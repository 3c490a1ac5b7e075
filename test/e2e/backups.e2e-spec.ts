import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { BackupsService } from 'src/modules/backups/backups.service';
import { ServerContextResolver, ServerSnapshot } from 'src/modules/servers/server-context';
import { createNodeRow } from 'test/factories/node.factory';
import { PanelRequestError } from 'test/wings-sim/panel-client';
import { eggFixtureFiles } from 'test/utils/fixtures';
import { DECIMAL_ID, ISO, Json, UUID_V4 } from 'test/utils/nodes';
import { SimPanel, startSimPanel, waitFor } from 'test/utils/sim-panel';
import { dbKinds } from 'test/utils/test-db';

const hasPaper = eggFixtureFiles().includes('egg-paper.json');
const SHA1 = /^sha1:[0-9a-f]{40}$/;

(hasPaper ? describe : describe.skip).each(dbKinds(['postgres']))('server backups, against the Wings simulator (%s)', (db) => {
  let p: SimPanel;

  interface TestServer {
    id: string;
    uuid: string;
    base: string;
    root: string;
  }

  /** A new installed server with this backup limit, and a file in it. */
  const newServer = async (backupLimit: number, name = 'Backups'): Promise<TestServer> => {
    const server = await p.createServer({ name, backup_limit: backupLimit });
    await p.installed(server.id);
    const root = p.sim.servers.get(server.uuid)!.fs.root;
    await mkdir(join(root, 'world'), { recursive: true });
    await writeFile(join(root, 'world', 'level.dat'), 'original level');
    return { id: server.id, uuid: server.uuid, base: `/api/client/servers/${server.uuid}/backups`, root };
  };

  const view = async (s: TestServer, id: string): Promise<Json> => (await p.asOwner('get', `${s.base}/${id}`).expect(200)).body.data;
  /** The backup once the daemon has reported on it. */
  const finished = (s: TestServer, id: string): Promise<Json> =>
    waitFor(async () => {
      const backup = await view(s, id);
      return backup.status === 'in_progress' ? undefined : backup;
    });
  const backUp = async (s: TestServer, body: Json = {}): Promise<Json> => {
    const res = await p.asOwner('post', s.base).send(body).expect(201);
    return finished(s, res.body.data.id);
  };
  const archiveOf = (uuid: string): string => join(p.sim.backupDir, `${uuid}.tar.gz`);
  const activity = async (s: TestServer, event: string): Promise<Json[]> =>
    (await p.asOwner('get', `/api/client/servers/${s.uuid}/activity?perPage=100`).expect(200)).body.data.filter((a: Json) => a.event === event);
  const serverStatus = async (s: TestServer): Promise<string | null> => (await p.admin('get', `/api/admin/servers/${s.id}`).expect(200)).body.data.installStatus;
  // The server as the schedule runner gets it.
  const loaded = async (s: TestServer): Promise<ServerSnapshot> => (await p.t.app.get(ServerContextResolver).forRunner(s.id))!;

  beforeAll(async () => {
    p = await startSimPanel(db);
  });

  afterAll(async () => {
    await p?.close();
  });

  describe('the life of a backup', () => {
    let s: TestServer;
    let backup: Json;

    beforeAll(async () => {
      s = await newServer(5, 'Lifecycle');
    });

    it('should create a backup that the daemon completes: sha1 checksum, size, and start/complete activity', async () => {
      const res = await p.asOwner('post', s.base).send({ name: '  Before the update  ', ignored: 'cache/\r\n\n*.log\n' }).expect(201);
      expect(res.body.data).toEqual({
        id: expect.stringMatching(DECIMAL_ID),
        uuid: expect.stringMatching(UUID_V4),
        name: 'Before the update',
        ignoredFiles: ['cache/', '*.log'],
        checksum: res.body.data.status === 'successful' ? expect.stringMatching(SHA1) : null,
        bytes: expect.any(Number),
        isSuccessful: res.body.data.status === 'successful',
        isLocked: false,
        status: expect.stringMatching(/^(in_progress|successful)$/),
        createdAt: expect.stringMatching(ISO),
        completedAt: res.body.data.status === 'successful' ? expect.stringMatching(ISO) : null,
      });
      const [call] = p.sim.requestsTo(`/api/servers/${s.uuid}/backup`, 'POST');
      expect(JSON.parse(call.body!)).toEqual({ adapter: 'wings', uuid: res.body.data.uuid, ignore: 'cache/\n*.log' });

      backup = await finished(s, res.body.data.id);
      expect(backup).toMatchObject({ status: 'successful', isSuccessful: true, checksum: expect.stringMatching(SHA1), completedAt: expect.stringMatching(ISO) });
      const archive = await readFile(archiveOf(backup.uuid));
      expect(backup.bytes).toBe(archive.length);
      expect(backup.checksum).toBe(`sha1:${createHash('sha1').update(archive).digest('hex')}`);
      expect(await activity(s, 'server.backup.start')).toEqual([
        expect.objectContaining({ metadata: { uuid: backup.uuid, name: 'Before the update', locked: false } }),
      ]);
      expect(await activity(s, 'server.backup.complete')).toEqual([
        expect.objectContaining({ metadata: { uuid: backup.uuid, name: 'Before the update', checksum: backup.checksum, bytes: backup.bytes } }),
      ]);
    });

    it('should name a backup after its time when no name is given, and list newest first with the count and limit', async () => {
      const unnamed = await backUp(s);
      expect(unnamed.name).toMatch(/^Backup at \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      const list = (await p.asOwner('get', `${s.base}?perPage=1`).expect(200)).body;
      expect(list).toEqual({
        data: [unnamed],
        meta: { pagination: { total: 2, count: 1, perPage: 1, currentPage: 1, totalPages: 2 }, backupCount: 2, backupLimit: 5 },
      });
      expect((await p.asOwner('get', `${s.base}?page=2&perPage=1`).expect(200)).body.data).toEqual([backup]);
      await p.asOwner('delete', `${s.base}/${unnamed.id}`).expect(204);
    });

    it('should answer 404 for a backup id that is not this server’s, or not an id at all', async () => {
      const other = await newServer(1, 'Other');
      const theirs = await backUp(other);
      expect((await p.asOwner('get', `${s.base}/${theirs.id}`).expect(404)).body).toMatchObject({ code: 'BACKUP_NOT_FOUND', message: 'Backup not found' });
      await p.asOwner('get', `${other.base}/${backup.id}`).expect(404);
      for (const bad of ['abc', '0', '-1', '1.5', theirs.uuid]) {
        expect((await p.asOwner('get', `${s.base}/${bad}`).expect(404)).body.code).toBe('BACKUP_NOT_FOUND');
      }
      await p.asOwner('delete', `${s.base}/${theirs.id}`).expect(404);
      await p.asOwner('post', `${s.base}/${theirs.id}/lock`).expect(404);
      await p.asOwner('get', `${s.base}/${theirs.id}/download`).expect(404);
      await p.asOwner('post', `${s.base}/${theirs.id}/restore`).send({}).expect(404);
    });

    it('should sign a download URL that serves the archive once', async () => {
      const res = await p.asOwner('get', `${s.base}/${backup.id}/download`).expect(200);
      const url = res.body.data.url as string;
      expect(res.body).toEqual({ data: { url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/download\/backup\?token=[\w-]+\.[\w-]+\.[\w-]+$/) } });
      const got = await fetch(url);
      expect(got.status).toBe(200);
      const bytes = Buffer.from(await got.arrayBuffer());
      expect(bytes.length).toBe(backup.bytes);
      expect(`sha1:${createHash('sha1').update(bytes).digest('hex')}`).toBe(backup.checksum);
      expect((await fetch(url)).status).toBe(404); // one unique_id, one download
      expect(await activity(s, 'server.backup.download')).toEqual([expect.objectContaining({ metadata: { uuid: backup.uuid, name: backup.name } })]);
    });

    it('should restore: restoring_backup until the daemon reports, the server stopped and the files back', async () => {
      await writeFile(join(s.root, 'world', 'level.dat'), 'changed level');
      await writeFile(join(s.root, 'added-later.txt'), 'new');
      await p.asOwner('post', `/api/client/servers/${s.uuid}/power`).send({ action: 'start' }).expect(200);
      await waitFor(() => p.sim.servers.get(s.uuid)!.state === 'running');

      // The daemon's report is refused (wrong token) so that the in-between state can be seen.
      p.sim.faults.wrongToken = true;
      try {
        await p.asOwner('post', `${s.base}/${backup.id}/restore`).send({ truncate: true }).expect(202);
        expect(JSON.parse(p.sim.requestsTo(`/api/servers/${s.uuid}/backup/${backup.uuid}/restore`, 'POST')[0].body!)).toEqual({
          adapter: 'wings',
          truncate_directory: true,
          download_url: '',
        });
        await waitFor(() => p.sim.panel.calls.some((c) => c.path === `/backups/${backup.uuid}/restore` && c.status === 403));
      } finally {
        p.sim.faults.wrongToken = false;
      }
      expect(p.sim.servers.get(s.uuid)!.state).toBe('offline');
      expect(await readFile(join(s.root, 'world', 'level.dat'), 'utf8')).toBe('original level');
      expect(existsSync(join(s.root, 'added-later.txt'))).toBe(false);
      expect(await serverStatus(s)).toBe('restoring_backup');
      expect((await p.asOwner('get', `/api/client/servers/${s.uuid}`).expect(200)).body.data.status).toBe('restoring_backup');

      // While restoring: no second restore, no new backup, no deleting the archive.
      const again = await p.asOwner('post', `${s.base}/${backup.id}/restore`).send({}).expect(409);
      expect(again.body).toMatchObject({ code: 'SERVER_BUSY', message: 'The server is restoring a backup; wait for it to finish' });
      expect((await p.asOwner('post', s.base).send({}).expect(409)).body.code).toBe('SERVER_BUSY');
      expect((await p.asOwner('delete', `${s.base}/${backup.id}`).expect(409)).body.code).toBe('SERVER_BUSY');

      await p.sim.panel.sendRestorationStatus(backup.uuid, true);
      expect(await serverStatus(s)).toBeNull();
      expect(await activity(s, 'server.backup.restore')).toEqual([expect.objectContaining({ metadata: { uuid: backup.uuid, name: backup.name, truncate: true } })]);
      expect(await activity(s, 'server.backup.restore-complete')).toHaveLength(1);
    });

    it('should restore end to end without truncating, and log a failed restore the daemon reports', async () => {
      await writeFile(join(s.root, 'world', 'level.dat'), 'changed again');
      await writeFile(join(s.root, 'kept.txt'), 'kept');
      await p.asOwner('post', `${s.base}/${backup.id}/restore`).send({}).expect(202);
      await waitFor(async () => (await serverStatus(s)) === null);
      expect(await readFile(join(s.root, 'world', 'level.dat'), 'utf8')).toBe('original level');
      expect(await readFile(join(s.root, 'kept.txt'), 'utf8')).toBe('kept');
      expect(await activity(s, 'server.backup.restore-complete')).toHaveLength(2);

      await p.sim.panel.sendRestorationStatus(backup.uuid, false);
      expect(await serverStatus(s)).toBeNull();
      expect(await activity(s, 'server.backup.restore-failed')).toEqual([
        expect.objectContaining({ actor: null, via: 'daemon', metadata: { uuid: backup.uuid, name: backup.name } }),
      ]);
    });

    it('should leave the server status alone when the daemon refuses a restore', async () => {
      p.sim.faults.status500 = true;
      try {
        const res = await p.asOwner('post', `${s.base}/${backup.id}/restore`).send({}).expect(500);
        expect(res.body).toMatchObject({ code: 'DAEMON_HTTP_ERROR', details: { nodeId: p.nodeId, status: 500 } });
      } finally {
        p.sim.faults.status500 = false;
      }
      expect(await serverStatus(s)).toBeNull();
    });

    it('should end a restore the daemon never reported on when the daemon restarts, and log it as failed', async () => {
      const refused = () => p.sim.panel.calls.filter((c) => c.path === `/backups/${backup.uuid}/restore` && c.status === 403).length;
      const before = refused();
      p.sim.faults.wrongToken = true;
      try {
        await p.asOwner('post', `${s.base}/${backup.id}/restore`).send({}).expect(202);
        await waitFor(() => refused() > before);
      } finally {
        p.sim.faults.wrongToken = false;
      }
      expect(await serverStatus(s)).toBe('restoring_backup');
      await p.sim.panel.resetServersState();
      expect(await serverStatus(s)).toBeNull();
      expect((await activity(s, 'server.backup.restore-failed'))[0]).toMatchObject({
        actor: null,
        via: 'daemon',
        metadata: { uuid: backup.uuid, name: backup.name, reason: 'The daemon restarted during the restore' },
      });
    });

    it('should refuse to delete a locked backup; unlocked, delete it on the node and here', async () => {
      const locked = (await p.asOwner('post', `${s.base}/${backup.id}/lock`).expect(200)).body.data;
      expect(locked).toEqual({ ...backup, isLocked: true });
      const refused = await p.asOwner('delete', `${s.base}/${backup.id}`).expect(409);
      expect(refused.body).toMatchObject({ code: 'BACKUP_LOCKED', message: 'The backup is locked; unlock it before deleting it' });
      expect(p.sim.requestsTo(`/api/servers/${s.uuid}/backup/${backup.uuid}`, 'DELETE')).toHaveLength(0);
      expect((await p.asOwner('post', `${s.base}/${backup.id}/lock`).expect(200)).body.data.isLocked).toBe(false);

      await p.asOwner('delete', `${s.base}/${backup.id}`).expect(204);
      expect(p.sim.requestsTo(`/api/servers/${s.uuid}/backup/${backup.uuid}`, 'DELETE')).toHaveLength(1);
      expect(existsSync(archiveOf(backup.uuid))).toBe(false);
      await p.asOwner('get', `${s.base}/${backup.id}`).expect(404);
      expect((await activity(s, 'server.backup.lock')).length).toBe(1);
      expect((await activity(s, 'server.backup.unlock')).length).toBe(1);
      expect(await activity(s, 'server.backup.delete')).toContainEqual(
        expect.objectContaining({ metadata: { uuid: backup.uuid, name: backup.name, failed: false } }),
      );
    });

    it('should delete a backup whose archive is already gone from the node', async () => {
      const gone = await backUp(s);
      await rm(archiveOf(gone.uuid));
      await p.asOwner('delete', `${s.base}/${gone.id}`).expect(204);
      await p.asOwner('get', `${s.base}/${gone.id}`).expect(404);
    });
  });

  describe('failures, limits and locks', () => {
    it('should keep no row when the daemon refuses a backup', async () => {
      const s = await newServer(3, 'Refused');
      p.sim.faults.status500 = true;
      try {
        const res = await p.asOwner('post', s.base).send({ name: 'Refused' }).expect(500);
        expect(res.body).toMatchObject({ code: 'DAEMON_HTTP_ERROR', details: { nodeId: p.nodeId, status: 500 } });
      } finally {
        p.sim.faults.status500 = false;
      }
      expect((await p.asOwner('get', s.base).expect(200)).body).toMatchObject({ data: [], meta: { backupCount: 0 } });
      expect(await activity(s, 'server.backup.start')).toEqual([]);
    });

    it('should show a backup the daemon failed as failed and unlocked, not counted, not downloadable, deletable', async () => {
      const s = await newServer(1, 'Failing');
      p.sim.faults.backupFails = true;
      let failed: Json;
      try {
        failed = await backUp(s, { name: 'Doomed', is_locked: true });
      } finally {
        p.sim.faults.backupFails = false;
      }
      expect(failed).toMatchObject({ status: 'failed', isSuccessful: false, isLocked: false, checksum: null, bytes: 0, completedAt: expect.stringMatching(ISO) });
      expect(await activity(s, 'server.backup.fail')).toEqual([expect.objectContaining({ via: 'daemon', metadata: { uuid: failed.uuid, name: 'Doomed' } })]);
      const download = await p.asOwner('get', `${s.base}/${failed.id}/download`).expect(409);
      expect(download.body).toMatchObject({ code: 'BACKUP_NOT_SUCCESSFUL', message: 'The backup cannot be downloaded: it failed', details: { status: 'failed' } });
      expect((await p.asOwner('post', `${s.base}/${failed.id}/restore`).send({}).expect(409)).body.code).toBe('BACKUP_NOT_SUCCESSFUL');

      // The limit is 1 and the failed one does not count.
      const ok = await backUp(s);
      expect(ok.status).toBe('successful');
      await p.asOwner('delete', `${s.base}/${failed.id}`).expect(204);
      expect(p.sim.requestsTo(`/api/servers/${s.uuid}/backup/${failed.uuid}`, 'DELETE')).toHaveLength(0);
    });

    it('should refuse backups at a limit of 0 and at the limit, and count the limit set by an administrator', async () => {
      const s = await newServer(0, 'Limited');
      const disabled = await p.asOwner('post', s.base).send({}).expect(409);
      expect(disabled.body).toMatchObject({ code: 'BACKUPS_DISABLED', message: 'Backups are not enabled for this server (its backup limit is 0)' });
      expect((await p.asOwner('get', s.base).expect(200)).body.meta).toMatchObject({ backupCount: 0, backupLimit: 0 });

      await p.admin('patch', `/api/admin/servers/${s.id}/build`).send({ backup_limit: 2 }).expect(200);
      await backUp(s);
      await backUp(s);
      const full = await p.asOwner('post', s.base).send({}).expect(409);
      expect(full.body).toMatchObject({ code: 'BACKUP_LIMIT_REACHED', message: 'This server has reached its backup limit (2)', details: { limit: 2 } });
      expect(p.sim.requestsTo(`/api/servers/${s.uuid}/backup`, 'POST')).toHaveLength(2);
      expect((await p.asOwner('get', s.base).expect(200)).body.meta).toMatchObject({ backupCount: 2, backupLimit: 2 });
    });

    it('should rotate scheduled backups: the oldest unlocked one goes, locked ones stay, and with all locked it refuses', async () => {
      const s = await newServer(2, 'Rotating');
      const service = p.t.app.get(BackupsService);
      const first = await backUp(s, { name: 'first', is_locked: true });
      const second = await backUp(s, { name: 'second' });

      const nightly = await service.createFromSchedule(await loaded(s), 'Nightly');
      expect(nightly).toMatchObject({ name: 'Nightly', isLocked: false });
      await finished(s, nightly.id);
      const names = (await p.asOwner('get', s.base).expect(200)).body.data.map((b: Json) => b.name);
      expect(names).toEqual(['Nightly', 'first']);
      expect(existsSync(archiveOf(second.uuid))).toBe(false);
      expect(existsSync(archiveOf(first.uuid))).toBe(true);
      expect(await activity(s, 'server.backup.delete')).toEqual([
        expect.objectContaining({ via: 'schedule', actor: null, metadata: { uuid: second.uuid, name: 'second', failed: false, rotated: true } }),
      ]);
      expect(await activity(s, 'server.backup.start')).toContainEqual(expect.objectContaining({ via: 'schedule', metadata: expect.objectContaining({ name: 'Nightly' }) }));

      // A user's backup at the limit is refused, never rotated.
      expect((await p.asOwner('post', s.base).send({}).expect(409)).body.code).toBe('BACKUP_LIMIT_REACHED');

      await p.asOwner('post', `${s.base}/${nightly.id}/lock`).expect(200);
      await expect(service.createFromSchedule(await loaded(s))).rejects.toMatchObject({ code: 'BACKUP_LIMIT_REACHED' });
      expect((await p.asOwner('get', s.base).expect(200)).body.meta.backupCount).toBe(2);

      await p.admin('patch', `/api/admin/servers/${s.id}/build`).send({ backup_limit: 0 }).expect(200);
      await expect(service.createFromSchedule(await loaded(s))).rejects.toMatchObject({ code: 'BACKUPS_DISABLED' });
    });

    it('should let only those who may delete backups create a locked one', async () => {
      const s = await newServer(3, 'Locking');
      const creator = await p.newUser();
      await p.asOwner('post', `/api/client/servers/${s.uuid}/users`).send({ email: creator.user.email, permissions: ['server.backup.create'] }).expect(201);
      const denied = await creator.as('post', s.base).send({ is_locked: true }).expect(403);
      expect(denied.body).toMatchObject({ code: 'SERVER_PERMISSION_DENIED', message: expect.stringContaining('server.backup.delete') });
      expect(p.sim.requestsTo(`/api/servers/${s.uuid}/backup`, 'POST')).toHaveLength(0);
      const plain = await creator.as('post', s.base).send({ name: 'plain' }).expect(201);
      expect(plain.body.data.isLocked).toBe(false);

      const manager = await p.newUser();
      await p.asOwner('post', `/api/client/servers/${s.uuid}/users`).send({ email: manager.user.email, permissions: ['server.backup.create', 'server.backup.delete'] }).expect(201);
      expect((await manager.as('post', s.base).send({ is_locked: true }).expect(201)).body.data.isLocked).toBe(true);
    });

    it('should validate the request bodies, and refuse backups and restores of a suspended server', async () => {
      const s = await newServer(3, 'Validation');
      const cases: [Json, string][] = [
        [{ name: '' }, 'name'],
        [{ name: '   ' }, 'name'],
        [{ name: 'x'.repeat(192) }, 'name'],
        [{ ignored: 'a'.repeat(32 * 1024 + 1) }, 'ignored'],
        [{ ignored: ['a'] }, 'ignored'],
        [{ is_locked: 'yes' }, 'is_locked'],
        [{ isLocked: true }, 'isLocked'],
      ];
      for (const [body, field] of cases) {
        const res = await p.asOwner('post', s.base).send(body).expect(400);
        expect({ body, code: res.body.code, fields: res.body.details.map((d: Json) => d.field) }).toEqual({ body, code: 'VALIDATION_FAILED', fields: [field] });
      }
      const kept = await backUp(s, { ignored: 'é'.repeat(16 * 1024) });
      await p.asOwner('post', `${s.base}/${kept.id}/restore`).send({ truncate: 'yes' }).expect(400);

      await p.admin('post', `/api/admin/servers/${s.id}/suspend`).expect(200);
      const before = p.sim.requests.length;
      expect((await p.asOwner('post', s.base).send({}).expect(409)).body).toMatchObject({ code: 'SERVER_SUSPENDED' });
      expect((await p.asOwner('post', `${s.base}/${kept.id}/restore`).send({}).expect(409)).body).toMatchObject({ code: 'SERVER_SUSPENDED' });
      expect(p.sim.requests.slice(before).filter((r) => r.path.includes('/backup'))).toEqual([]);
    });
  });

  describe('daemon reports (/api/remote/backups)', () => {
    let s: TestServer;

    beforeAll(async () => {
      s = await newServer(5, 'Reports');
    });

    /** A backup the daemon made but whose report was refused: still in progress here. */
    const unreported = async (): Promise<Json> => {
      p.sim.faults.wrongToken = true;
      try {
        const res = await p.asOwner('post', s.base).send({}).expect(201);
        await waitFor(() => p.sim.panel.calls.some((c) => c.path === `/backups/${res.body.data.uuid}` && c.status === 403));
        return res.body.data;
      } finally {
        p.sim.faults.wrongToken = false;
      }
    };
    const report = (uuid: string, body: unknown) => p.sim.panel.request('POST', `/backups/${uuid}`, body);
    const refusal = (fn: () => Promise<unknown>) => fn().then(() => undefined, (e: unknown) => e);

    it('should keep a backup in progress until reported: no download, restore or delete meanwhile', async () => {
      const pending = await unreported();
      expect(await view(s, pending.id)).toMatchObject({ status: 'in_progress', checksum: null, completedAt: null });
      const del = await p.asOwner('delete', `${s.base}/${pending.id}`).expect(409);
      expect(del.body).toMatchObject({ code: 'BACKUP_IN_PROGRESS' });
      expect((await p.asOwner('get', `${s.base}/${pending.id}/download`).expect(409)).body.message).toBe('The backup cannot be downloaded: it is still being made');
      expect((await p.asOwner('post', `${s.base}/${pending.id}/restore`).send({}).expect(409)).body.message).toBe('The backup cannot be restored: it is still being made');
      expect((await p.asOwner('get', s.base).expect(200)).body.meta.backupCount).toBe(1);
    });

    it('should refuse a report from another node as if the backup did not exist', async () => {
      const pending = await unreported();
      const other = await createNodeRow(p.t.app);
      const res = await p.t
        .http()
        .post(`/api/remote/backups/${pending.uuid}`)
        .set('Authorization', `Bearer ${other.node.tokenIdentifier}.${other.token}`)
        .send({ successful: true, checksum: 'ab'.repeat(20), checksum_type: 'sha1', size: 10, parts: null })
        .expect(404);
      expect(res.body).toEqual({
        errors: [{ code: 'BACKUP_NOT_FOUND', status: '404', detail: 'Backup not found' }],
        statusCode: 404,
        code: 'BACKUP_NOT_FOUND',
        message: 'Backup not found',
        requestId: expect.any(String),
      });
      await p.t.http().post(`/api/remote/backups/${pending.uuid}/restore`).set('Authorization', `Bearer ${other.node.tokenIdentifier}.${other.token}`).send({ successful: true }).expect(404);
      expect(await view(s, pending.id)).toMatchObject({ status: 'in_progress' });
      await p.t.http().post(`/api/remote/backups/${pending.uuid}`).send({ successful: false }).expect(401);
    });

    it('should require checksum, type and size of a successful report, store the checksum as type:hex, and refuse a second report', async () => {
      const pending = await unreported();
      const missing = (await refusal(() => report(pending.uuid, { successful: true, parts: null }))) as PanelRequestError;
      expect(missing).toBeInstanceOf(PanelRequestError);
      expect([missing.status, missing.code]).toEqual([400, 'VALIDATION_FAILED']);
      const bad = (await refusal(() => report(pending.uuid, { successful: true, checksum: 'not hex', checksum_type: 'sha1', size: -1 }))) as PanelRequestError;
      expect([bad.status, bad.code]).toEqual([400, 'VALIDATION_FAILED']);
      expect(await view(s, pending.id)).toMatchObject({ status: 'in_progress' });

      const hex = 'AB'.repeat(20);
      await report(pending.uuid, { successful: true, checksum: hex, checksum_type: 'sha1', size: 4096, parts: null });
      expect(await view(s, pending.id)).toMatchObject({ status: 'successful', checksum: `sha1:${hex.toLowerCase()}`, bytes: 4096 });

      const second = (await refusal(() => report(pending.uuid, { successful: false, checksum: '', checksum_type: 'sha1', size: 0, parts: null }))) as PanelRequestError;
      expect([second.status, second.code, second.detail]).toEqual([400, 'BACKUP_ALREADY_COMPLETED', 'Cannot update the status of a backup that is already marked as completed.']);
      expect(await view(s, pending.id)).toMatchObject({ status: 'successful' });
      const unknown = (await refusal(() => report('00000000-0000-4000-8000-000000000000', { successful: false }))) as PanelRequestError;
      expect([unknown.status, unknown.code]).toEqual([404, 'BACKUP_NOT_FOUND']);
    });
  });
});
