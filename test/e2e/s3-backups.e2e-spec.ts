import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { StaleUploadsCleanup } from 'src/modules/backups/hosts/stale-uploads.cleanup';
import { eggFixtureFiles } from 'test/utils/fixtures';
import { Json } from 'test/utils/nodes';
import { startTestS3, TestS3Server } from 'test/utils/s3-server';
import { SimPanel, startSimPanel, waitFor } from 'test/utils/sim-panel';
import { dbKinds } from 'test/utils/test-db';
import { PanelRequestError } from 'test/wings-sim/panel-client';

const hasPaper = eggFixtureFiles().includes('egg-paper.json');
const HOSTS = '/api/admin/backup-hosts';
const MIB = 1024 * 1024;
const DAY_MS = 24 * 3_600_000;

interface TestServer {
  id: string;
  uuid: string;
  base: string;
  root: string;
}

/** A panel with one simulated node, an S3 server, and the helpers both database kinds use. */
const setUp = async (db: 'postgres' | 'pglite') => {
  const p = await startSimPanel(db);
  const s3 = await startTestS3();
  const s3Host = (extra: Json = {}): Json => ({
    name: 'Bucket',
    adapter: 's3',
    endpoint: s3.endpoint,
    region: s3.region,
    bucket: s3.bucket,
    accessKeyId: s3.credentials.accessKeyId,
    secretAccessKey: s3.credentials.secretAccessKey,
    pathStyle: true,
    partSizeMib: 5,
    ...extra,
  });
  const newServer = async (name: string, bytes: number): Promise<TestServer> => {
    const server = await p.createServer({ name, backup_limit: 10 });
    await p.installed(server.id);
    const root = p.sim.servers.get(server.uuid)!.fs.root;
    await mkdir(join(root, 'world'), { recursive: true });
    // Random bytes do not compress: the archive is about this big.
    await writeFile(join(root, 'world', 'region.mca'), randomBytes(bytes));
    return { id: server.id, uuid: server.uuid, base: `/api/client/servers/${server.uuid}/backups`, root };
  };
  const finished = (s: TestServer, id: string): Promise<Json> =>
    waitFor(async () => {
      const backup = (await p.asOwner('get', `${s.base}/${id}`).expect(200)).body.data;
      return backup.status === 'in_progress' ? undefined : backup;
    }, 30_000);
  const backUp = async (s: TestServer): Promise<Json> => finished(s, (await p.asOwner('post', s.base).send({}).expect(201)).body.data.id);
  const row = async (uuid: string): Promise<{ disk: string; backup_host_id: string | null; upload_id: string | null }> =>
    (await p.t.app.get(DataSource).query('SELECT disk, backup_host_id, upload_id FROM backup WHERE uuid = $1', [uuid]))[0];
  return { p, s3, s3Host, newServer, finished, backUp, row };
};

(hasPaper ? describe : describe.skip).each(dbKinds(['postgres']))('S3 backups through the Wings simulator (%s)', (db) => {
  let env: Awaited<ReturnType<typeof setUp>>;
  let p: SimPanel;
  let s3: TestS3Server;
  let host: Json;
  let s: TestServer;
  let backup: Json;

  beforeAll(async () => {
    env = await setUp(db);
    ({ p, s3 } = env);
    host = (await p.admin('post', HOSTS).send(env.s3Host()).expect(201)).body.data;
    await p.admin('patch', `/api/admin/nodes/${p.nodeId}`).send({ backupHostId: host.id }).expect(200);
    s = await env.newServer('Big world', 11 * MIB);
  }, 60_000);

  afterAll(async () => {
    await p?.close();
    await s3?.close();
  });

  afterEach(() => {
    p.sim.resetFaults();
  });

  it('should back up in several parts that land as one object of the archive size', async () => {
    const started = (await p.asOwner('post', s.base).send({ name: 'Before the update' }).expect(201)).body.data;
    const [call] = p.sim.requestsTo(`/api/servers/${s.uuid}/backup`, 'POST');
    expect(JSON.parse(call.body!)).toEqual({ adapter: 's3', uuid: started.uuid, ignore: '' });
    backup = await env.finished(s, started.id);
    expect(backup).toMatchObject({ status: 'successful', checksum: expect.stringMatching(/^sha1:[0-9a-f]{40}$/) });
    expect(backup.bytes).toBeGreaterThan(10 * MIB);

    // Wings asked once, with the size, and got three 5 MiB part URLs.
    const asked = p.sim.panel.calls.filter((c) => c.path.startsWith(`/backups/${backup.uuid}?size=`));
    expect(asked.map((c) => [c.path, c.status])).toEqual([[`/backups/${backup.uuid}?size=${backup.bytes}`, 200]]);
    const puts = s3.log.filter((l) => l.method === 'PUT' && l.url.includes(`${backup.uuid}.tar.gz`) && l.url.includes('partNumber='));
    expect(puts.map((l) => l.status)).toEqual([200, 200, 200]);
    expect(await s3.objectSize(`${s.uuid}/${backup.uuid}.tar.gz`)).toBe(backup.bytes);
    expect(s3.uploads()).toEqual([]);
    expect(await env.row(backup.uuid)).toEqual({ disk: 's3', backup_host_id: host.id, upload_id: null });
    expect(p.sim.backupDir && (await readFile(join(p.sim.backupDir, `${backup.uuid}.tar.gz`)).catch(() => null))).toBeNull();
  });

  it('should download through a short-lived presigned GET with the same bytes', async () => {
    const { url } = (await p.asOwner('get', `${s.base}/${backup.id}/download`).expect(200)).body.data;
    expect(url).toMatch(new RegExp(`^${s3.endpoint}/${s3.bucket}/${s.uuid}/${backup.uuid}\\.tar\\.gz\\?.*X-Amz-Expires=900`));
    const got = await fetch(url);
    expect(got.status).toBe(200);
    expect(got.headers.get('content-type')).toBe('application/x-gzip');
    expect(got.headers.get('content-disposition')).toBe(`attachment; filename="${backup.uuid}.tar.gz"`);
    const bytes = Buffer.from(await got.arrayBuffer());
    expect(`sha1:${createHash('sha1').update(bytes).digest('hex')}`).toBe(backup.checksum);
  });

  it('should restore through Wings fetching a presigned download_url', async () => {
    const original = await readFile(join(s.root, 'world', 'region.mca'));
    await writeFile(join(s.root, 'world', 'region.mca'), 'overwritten');
    await p.asOwner('post', `${s.base}/${backup.id}/restore`).send({ truncate: true }).expect(202);
    const body = JSON.parse(p.sim.requestsTo(`/api/servers/${s.uuid}/backup/${backup.uuid}/restore`, 'POST')[0].body!);
    expect(body).toEqual({ adapter: 's3', truncate_directory: true, download_url: expect.stringContaining(`${s3.endpoint}/${s3.bucket}/${s.uuid}/${backup.uuid}.tar.gz?`) });
    await waitFor(async () => (await p.admin('get', `/api/admin/servers/${s.id}`).expect(200)).body.data.installStatus === null);
    expect((await readFile(join(s.root, 'world', 'region.mca'))).equals(original)).toBe(true);
  });

  it('should answer Wings 400, 409 and 404 where the part URLs cannot be had', async () => {
    const ask = (uuid: string, size: string) => p.sim.panel.request('GET', `/backups/${uuid}?size=${size}`).then(
      (r) => r.status,
      (e: PanelRequestError) => e.status,
    );
    expect(await ask(backup.uuid, '100')).toBe(409);
    expect(await ask('00000000-0000-4000-8000-000000000000', '100')).toBe(404);
    const pending = (await p.t.app.get(DataSource).query(
      `INSERT INTO backup (uuid, server_id, name, disk, backup_host_id) VALUES (gen_random_uuid(), $1, 'pending', 's3', $2) RETURNING uuid`,
      [s.id, host.id],
    ))[0].uuid as string;
    for (const size of ['0', '-1', 'abc', '', String(6 * 1024 ** 4)]) {
      expect([size, await ask(pending, size)]).toEqual([size, 400]);
    }
    await p.t.app.get(DataSource).query('DELETE FROM backup WHERE uuid = $1', [pending]);
  });

  it('should delete the object with the backup', async () => {
    await p.asOwner('delete', `${s.base}/${backup.id}`).expect(204);
    expect(await s3.objectSize(`${s.uuid}/${backup.uuid}.tar.gz`)).toBeNull();
  });

  it('should abort the upload of a backup that fails mid-way, leaving no multipart upload behind', async () => {
    p.sim.faults.backupUploadFailsAfterParts = 1;
    const failed = await env.backUp(s);
    expect(failed).toMatchObject({ status: 'failed', isSuccessful: false });
    const puts = s3.log.filter((l) => l.method === 'PUT' && l.url.includes(`${failed.uuid}.tar.gz`));
    expect(puts.map((l) => l.status)).toEqual([200]);
    expect(s3.uploads()).toEqual([]);
    expect(s3.log.some((l) => l.method === 'DELETE' && l.url.includes(`${failed.uuid}.tar.gz?uploadId=`))).toBe(true);
    expect(await env.row(failed.uuid)).toMatchObject({ upload_id: null });
    expect(await s3.objectSize(`${s.uuid}/${failed.uuid}.tar.gz`)).toBeNull();
  });

  it('should abort a stale upload in the periodic cleanup and mark its backup failed, and leave a fresh one', async () => {
    const insert = async (name: string): Promise<string> =>
      (await p.t.app.get(DataSource).query(
        `INSERT INTO backup (uuid, server_id, name, disk, backup_host_id) VALUES (gen_random_uuid(), $1, $2, 's3', $3) RETURNING uuid`,
        [s.id, name, host.id],
      ))[0].uuid as string;
    // Wings asked for part URLs and was never heard from again.
    const stale = await insert('abandoned');
    await p.sim.panel.getBackupRemoteUploadUrls(stale, 6 * MIB);
    s3.ageUploads(DAY_MS + 60_000);
    const fresh = await insert('still uploading');
    await p.sim.panel.getBackupRemoteUploadUrls(fresh, 6 * MIB);
    expect(s3.uploads()).toHaveLength(2);

    expect(await p.t.app.get(StaleUploadsCleanup).sweep()).toEqual({ aborted: 1, failed: 1, hostErrors: 0 });
    expect(s3.uploads().map((u) => u.key)).toEqual([`${s.uuid}/${fresh}.tar.gz`]);
    const rows = await p.t.app.get(DataSource).query('SELECT uuid, completed_at IS NOT NULL AS done, is_successful, upload_id FROM backup WHERE uuid IN ($1, $2)', [stale, fresh]);
    expect(rows).toEqual(
      expect.arrayContaining([
        { uuid: stale, done: true, is_successful: false, upload_id: null },
        { uuid: fresh, done: false, is_successful: false, upload_id: expect.any(String) },
      ]),
    );
    await p.t.app.get(DataSource).query('DELETE FROM backup WHERE uuid IN ($1, $2)', [stale, fresh]);
  });

  it('should take the objects and open uploads of a deleted server out of the bucket, and keep the server while the bucket refuses', async () => {
    const doomed = await env.newServer('Short-lived', 64 * 1024);
    const kept = await env.backUp(doomed);
    expect(kept).toMatchObject({ status: 'successful' });
    const pending = (
      await p.t.app.get(DataSource).query(`INSERT INTO backup (uuid, server_id, name, disk, backup_host_id) VALUES (gen_random_uuid(), $1, 'uploading', 's3', $2) RETURNING uuid`, [doomed.id, host.id])
    )[0].uuid as string;
    await p.sim.panel.getBackupRemoteUploadUrls(pending, MIB);
    // (the cleanup test above leaves its fresh upload of another server behind)
    const uploadsOfDoomed = (): string[] => s3.uploads().map((u) => u.key).filter((key) => key.startsWith(`${doomed.uuid}/`));
    expect(uploadsOfDoomed()).toEqual([`${doomed.uuid}/${pending}.tar.gz`]);

    // A bucket that refuses (a wrong secret) stops the deletion: nothing is left behind unseen.
    await p.t.app.get(DataSource).query(`UPDATE backup_host SET bucket = 'no-such-bucket' WHERE id = $1`, [host.id]);
    await p.admin('delete', `/api/admin/servers/${doomed.id}`).expect((r) => expect(r.status).toBeGreaterThanOrEqual(400));
    expect(await p.t.app.get(DataSource).query('SELECT id FROM server WHERE id = $1', [doomed.id])).toHaveLength(1);
    await p.t.app.get(DataSource).query(`UPDATE backup_host SET bucket = $2 WHERE id = $1`, [host.id, s3.bucket]);

    await p.admin('delete', `/api/admin/servers/${doomed.id}`).expect(204);
    expect(await s3.objectSize(`${doomed.uuid}/${kept.uuid}.tar.gz`)).toBeNull();
    expect(uploadsOfDoomed()).toEqual([]);
  });
});

(hasPaper ? describe : describe.skip).each(dbKinds(['pglite']))('backup hosts (%s)', (db) => {
  let env: Awaited<ReturnType<typeof setUp>>;
  let p: SimPanel;
  let s3: TestS3Server;

  const audit = async (id: string): Promise<string[]> =>
    (await p.admin('get', `/api/admin/audit-logs?targetType=backup_host&targetId=${id}`).expect(200)).body.data.map((e: Json) => e.action);

  beforeAll(async () => {
    env = await setUp(db);
    ({ p, s3 } = env);
  }, 60_000);

  afterAll(async () => {
    await p?.close();
    await s3?.close();
  });

  it('should keep the secret sealed and never return it, keep it on an update that leaves it out, and test the connection', async () => {
    const created = await p.admin('post', HOSTS).send(env.s3Host({ name: ' Wrong key ', secretAccessKey: 'not-the-secret' })).expect(201);
    const host = created.body.data;
    expect(host).toEqual({
      id: expect.any(String),
      name: 'Wrong key',
      adapter: 's3',
      endpoint: s3.endpoint,
      region: 'us-east-1',
      bucket: s3.bucket,
      keyPrefix: '',
      accessKeyId: s3.credentials.accessKeyId,
      secretSet: true,
      pathStyle: true,
      partSizeMib: 5,
      nodes: 0,
      backups: 0,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const [{ secret_access_key: sealed }] = await p.t.app.get(DataSource).query('SELECT secret_access_key FROM backup_host WHERE id = $1', [host.id]);
    expect(sealed).toMatch(/^v1:/);
    expect(sealed).not.toContain('not-the-secret');

    const failed = (await p.admin('post', `${HOSTS}/${host.id}/test`).expect(200)).body.data;
    expect(failed).toEqual({ ok: false, error: expect.stringContaining('SignatureDoesNotMatch') });
    expect(JSON.stringify(failed)).not.toContain('not-the-secret');

    await p.admin('patch', `${HOSTS}/${host.id}`).send({ secretAccessKey: s3.credentials.secretAccessKey }).expect(200);
    expect((await p.admin('post', `${HOSTS}/${host.id}/test`).expect(200)).body.data).toEqual({ ok: true });
    const renamed = (await p.admin('patch', `${HOSTS}/${host.id}`).send({ name: 'Bucket', keyPrefix: 'hatchery/' }).expect(200)).body.data;
    expect(renamed).toMatchObject({ name: 'Bucket', keyPrefix: 'hatchery/', secretSet: true });
    expect((await p.admin('post', `${HOSTS}/${host.id}/test`).expect(200)).body.data).toEqual({ ok: true });

    for (const body of [(await p.admin('get', HOSTS).expect(200)).body, (await p.admin('get', `${HOSTS}/${host.id}`).expect(200)).body]) {
      const text = JSON.stringify(body);
      expect(text).not.toContain(s3.credentials.secretAccessKey);
      expect(text).not.toContain('secretAccessKey');
    }
    expect(await audit(host.id)).toEqual(expect.arrayContaining(['backup_host.created', 'backup_host.updated']));
  });

  it('should refuse bad input with 400 and no row, a taken name with 409, an unknown host with 404', async () => {
    const count = async () => (await p.t.app.get(DataSource).query('SELECT count(*)::int AS n FROM backup_host'))[0].n as number;
    const before = await count();
    const bad: Json[] = [
      { name: 'x', adapter: 'ftp' },
      env.s3Host({ name: 'x', bucket: undefined }),
      env.s3Host({ name: 'x', bucket: 'Not_A_Bucket' }),
      env.s3Host({ name: 'x', secretAccessKey: undefined }),
      env.s3Host({ name: 'x', partSizeMib: 4 }),
      env.s3Host({ name: 'x', partSizeMib: 5121 }),
      env.s3Host({ name: 'x', endpoint: 'ftp://example.com' }),
      env.s3Host({ name: 'x', keyPrefix: '/abs' }),
      env.s3Host({ name: 'x', keyPrefix: 'a/../b' }),
      env.s3Host({ name: '' }),
    ];
    for (const body of bad) {
      const res = await p.admin('post', HOSTS).send(body);
      expect([JSON.stringify(body), res.status, res.body.code]).toEqual([JSON.stringify(body), 400, 'VALIDATION_FAILED']);
    }
    expect((await p.admin('post', HOSTS).send(env.s3Host({ name: 'Bucket' })).expect(409)).body.code).toBe('BACKUP_HOST_NAME_TAKEN');
    expect(await count()).toBe(before);
    await p.admin('get', `${HOSTS}/999999`).expect(404);
    await p.admin('get', `${HOSTS}/abc`).expect(404);
    await p.admin('patch', `${HOSTS}/999999`).send({ name: 'y' }).expect(404);
    await p.admin('post', `${HOSTS}/999999/test`).expect(404);
    await p.admin('delete', `${HOSTS}/999999`).expect(404);
    await p.asOwner('get', HOSTS).expect(403);
  });

  it('should keep a wings host free of S3 settings and not test it', async () => {
    const local = (await p.admin('post', HOSTS).send({ name: 'On the node', adapter: 'wings', bucket: 'ignored-bucket' }).expect(201)).body.data;
    expect(local).toMatchObject({ adapter: 'wings', bucket: null, accessKeyId: null, secretSet: false, partSizeMib: 128 });
    expect((await p.admin('post', `${HOSTS}/${local.id}/test`).expect(400)).body.code).toBe('BACKUP_NOT_S3');
    // Turned into an s3 host, it needs the bucket and both keys.
    expect((await p.admin('patch', `${HOSTS}/${local.id}`).send({ adapter: 's3' }).expect(400)).body.details).toEqual([
      { field: 'bucket', message: 'bucket is required for an s3 backup host' },
      { field: 'accessKeyId', message: 'accessKeyId is required for an s3 backup host' },
      { field: 'secretAccessKey', message: 'secretAccessKey is required for an s3 backup host' },
    ]);
    await p.admin('delete', `${HOSTS}/${local.id}`).expect(204);
    expect(await audit(local.id)).toEqual(expect.arrayContaining(['backup_host.created', 'backup_host.deleted']));
  });

  it('should give a node a backup host, refuse an unknown one, and refuse deleting a host in use', async () => {
    const [host] = (await p.admin('get', HOSTS).expect(200)).body.data as Json[];
    const node = `/api/admin/nodes/${p.nodeId}`;
    expect((await p.admin('patch', node).send({ backupHostId: '999999' }).expect(400)).body.code).toBe('VALIDATION_FAILED');
    expect((await p.admin('patch', node).send({ backupHostId: 'abc' }).expect(400)).body.code).toBe('VALIDATION_FAILED');
    expect((await p.admin('patch', node).send({ backupHostId: host.id }).expect(200)).body.data.backupHostId).toBe(host.id);
    expect((await p.admin('get', node).expect(200)).body.data.backupHostId).toBe(host.id);
    const inUse = (await p.admin('delete', `${HOSTS}/${host.id}`).expect(409)).body;
    expect(inUse).toMatchObject({ code: 'BACKUP_HOST_IN_USE', details: { nodes: 1, backups: 0 } });

    // A backup made there keeps the host in use after the node moves back to local backups.
    const s = await env.newServer('Small', 64 * 1024);
    const backup = await env.backUp(s);
    expect(backup.status).toBe('successful');
    expect(await s3.objectSize(`hatchery/${s.uuid}/${backup.uuid}.tar.gz`)).toBe(backup.bytes);
    await p.admin('patch', node).send({ backupHostId: null }).expect(200);
    expect((await p.admin('delete', `${HOSTS}/${host.id}`).expect(409)).body.details).toEqual({ nodes: 0, backups: 1 });
    expect((await p.admin('patch', `${HOSTS}/${host.id}`).send({ adapter: 'wings' }).expect(409)).body.code).toBe('BACKUP_HOST_IN_USE');
    // Still downloadable and deletable through the host it went to.
    const { url } = (await p.asOwner('get', `${s.base}/${backup.id}/download`).expect(200)).body.data;
    expect((await fetch(url)).status).toBe(200);
    await p.asOwner('delete', `${s.base}/${backup.id}`).expect(204);
    expect(await s3.objectSize(`hatchery/${s.uuid}/${backup.uuid}.tar.gz`)).toBeNull();
    await p.admin('delete', `${HOSTS}/${host.id}`).expect(204);
  });
});
