// The simulator's files, signed URLs and backups checked against Wings' behaviour (docs/wings.md).
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import * as fsp from 'node:fs/promises';
import { Server, createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import * as path from 'node:path';
import * as yazl from 'yazl';
import { WingsSimulator } from 'test/wings-sim/simulator';
import { Harness, WsClient, createInstalledServer, sign, startHarness, stopHarness, waitFor, wsClaims } from 'test/wings-sim/testing/harness';

const GENERIC = 'An unexpected error was encountered while processing this request';

describe(`${WingsSimulator.name} files and backups`, () => {
  let h: Harness;
  let uuid: string;
  let root: string;

  beforeEach(async () => {
    h = await startHarness();
    uuid = await createInstalledServer(h, { egg: { id: randomUUID(), file_denylist: ['*.secret', 'locked/'] } });
    root = h.sim.servers.get(uuid)!.fs.root;
  });

  afterEach(async () => {
    await stopHarness(h);
  });

  const files = (p: string, init: RequestInit = {}): Promise<Response> =>
    fetch(`${h.url}/api/servers/${uuid}/files/${p}`, { ...init, headers: { ...h.auth, 'Content-Type': 'application/json' } });
  const post = (p: string, body: unknown): Promise<Response> => files(p, { method: 'POST', body: JSON.stringify(body) });
  const write = (file: string, text: string): Promise<Response> =>
    files(`write?file=${encodeURIComponent(file)}`, { method: 'POST', body: text });
  const names = async (dir = '/'): Promise<string[]> =>
    ((await (await files(`list-directory?directory=${encodeURIComponent(dir)}`)).json()) as { name: string }[]).map((s) => s.name).sort();
  const signedQuery = (claims: Record<string, unknown>): string => {
    const now = Math.floor(Date.now() / 1000);
    return sign({ iat: now, nbf: now - 300, exp: now + 900, server_uuid: uuid, unique_id: randomBytes(8).toString('hex'), ...claims });
  };

  describe('read and write', () => {
    it('should write, read and list files with Stat objects', async () => {
      expect((await write('/config/server.properties', 'motd=hi\n')).status).toBe(204);
      const res = await files('contents?file=config/server.properties');
      expect(res.headers.get('x-mime-type')).toBe('text/plain; charset=utf-8');
      expect(res.headers.get('content-length')).toBe('8');
      expect(await res.text()).toBe('motd=hi\n');
      const dl = await files('contents?file=/config/server.properties&download=1');
      expect(dl.headers.get('content-disposition')).toBe('attachment; filename="server.properties"');
      const [stat] = (await (await files('list-directory?directory=/config')).json()) as unknown[];
      expect(stat).toEqual({
        name: 'server.properties',
        created: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
        modified: expect.stringMatching(/Z$/),
        mode: '-rw-r--r--',
        mode_bits: '644',
        size: 8,
        directory: false,
        file: true,
        symlink: false,
        mime: 'text/plain; charset=utf-8',
      });
    });

    it('should answer 500 for missing files and paths that escape the root', async () => {
      for (const p of ['contents?file=nope.txt', 'contents?file=../../../../etc/passwd', 'list-directory?directory=../..']) {
        const res = await files(p);
        expect(res.status).toBe(500);
        expect(await res.json()).toEqual({ error: GENERIC, request_id: res.headers.get('x-request-id') });
      }
    });

    it('should refuse denylisted writes with 403 and writes over a directory with 400', async () => {
      const denied = await write('keys/a.secret', 'x');
      expect(denied.status).toBe(403);
      expect(((await denied.json()) as { error: string }).error).toBe('This file cannot be modified: present in egg denylist.');
      expect((await post('create-directory', { name: 'plugins', path: '/' })).status).toBe(204);
      const dir = await write('plugins', 'x');
      expect(dir.status).toBe(400);
      expect(await dir.json()).toEqual({ error: 'Cannot write file, name conflicts with an existing directory by the same name.' });
    });
  });

  describe('copy, rename, delete, chmod', () => {
    it('should name copies as Wings does, keeping .tar.gz whole', async () => {
      await write('a.jar', 'jar');
      await write('world.tar.gz', 'tgz');
      await write('.bashrc', 'rc');
      for (let i = 0; i < 3; i++) {
        expect((await post('copy', { location: '/a.jar' })).status).toBe(204);
      }
      await post('copy', { location: 'world.tar.gz' });
      await post('copy', { location: '.bashrc' });
      expect(await names()).toEqual(
        ['.bashrc', ' copy.bashrc', 'a.jar', 'a copy.jar', 'a copy 1.jar', 'a copy 2.jar', 'world.tar.gz', 'world copy.tar.gz'].sort(),
      );
      expect((await post('copy', { location: 'missing.jar' })).status).toBe(500);
    });

    it('should rename with 400 on an existing target, skip a missing source and 422 on an empty list', async () => {
      await write('a.txt', 'a');
      await write('b.txt', 'b');
      const exists = await files('rename', { method: 'PUT', body: JSON.stringify({ root: '/', files: [{ from: 'a.txt', to: 'b.txt' }] }) });
      expect(exists.status).toBe(400);
      expect(await exists.json()).toEqual({ error: 'Cannot move or rename file, destination already exists.' });
      const moved = await files('rename', {
        method: 'PUT',
        body: JSON.stringify({ root: '/', files: [{ from: 'a.txt', to: 'sub/dir/a.txt' }, { from: 'ghost', to: 'x' }] }),
      });
      expect(moved.status).toBe(204);
      expect(await names('/sub/dir')).toEqual(['a.txt']);
      const empty = await files('rename', { method: 'PUT', body: JSON.stringify({ root: '/', files: [] }) });
      expect([empty.status, await empty.json()]).toEqual([422, { error: 'No files to move or rename were provided.' }]);
    });

    it('should delete recursively, create directories and chmod with octal strings', async () => {
      await write('d/e/f.txt', 'x');
      await write('file.txt', 'x');
      const notDir = await post('create-directory', { name: 'x', path: '/file.txt' });
      expect(notDir.status).toBe(400);
      expect((await post('chmod', { root: '/', files: [{ file: 'file.txt', mode: '755' }, { file: 'nope', mode: '600' }] })).status).toBe(204);
      expect((await fsp.stat(path.join(root, 'file.txt'))).mode & 0o777).toBe(0o755);
      expect(await (await post('chmod', { root: '/', files: [{ file: 'file.txt', mode: '9x' }] })).json()).toEqual({ error: 'Invalid file mode.' });
      expect((await post('delete', { root: '/', files: ['d'] })).status).toBe(204);
      expect(await names()).toEqual(['file.txt']);
      expect((await post('delete', { root: '/', files: [] })).status).toBe(422);
    });
  });

  describe('archives', () => {
    it('should compress to archive-<time>.tar.gz and decompress it again', async () => {
      await write('world/level.dat', 'level');
      await write('ops.json', '[]');
      const res = await post('compress', { root: '/', files: ['world', 'ops.json'] });
      expect(res.status).toBe(200);
      const stat = (await res.json()) as { name: string; mime: string };
      expect(stat.name).toMatch(/^archive-\d{4}-\d\d-\d\dT\d{6}Z\.tar\.gz$/);
      expect(stat.mime).toBe('application/tar+gzip');
      await post('delete', { root: '/', files: ['world', 'ops.json'] });
      expect((await post('decompress', { root: '/', file: stat.name })).status).toBe(204);
      expect(await (await files('contents?file=world/level.dat')).text()).toBe('level');
    });

    it('should decompress zip archives, skip denylisted entries and refuse unknown formats with 400', async () => {
      const zip = new yazl.ZipFile();
      zip.addBuffer(Buffer.from('hello'), 'plugins/a.txt');
      zip.addBuffer(Buffer.from('nope'), 'b.secret');
      zip.end();
      const chunks: Buffer[] = [];
      for await (const c of zip.outputStream as AsyncIterable<Buffer>) {
        chunks.push(c);
      }
      await fsp.writeFile(path.join(root, 'p.zip'), Buffer.concat(chunks));
      expect((await post('decompress', { root: '/', file: 'p.zip' })).status).toBe(204);
      expect(await names('/plugins')).toEqual(['a.txt']);
      expect(await names()).not.toContain('b.secret');
      await write('notes.txt', 'plain');
      const bad = await post('decompress', { root: '/', file: 'notes.txt' });
      expect([bad.status, await bad.json()]).toEqual([400, { error: 'The archive provided is in a format Wings does not understand.' }]);
    });
  });

  describe('pull', () => {
    let source: Server;
    let sourceUrl: string;

    beforeEach(async () => {
      source = createServer((_req, res) => res.writeHead(200, { 'Content-Length': 4 }).end('data'));
      await new Promise<void>((r) => source.listen(0, '127.0.0.1', () => r()));
      sourceUrl = `http://127.0.0.1:${(source.address() as AddressInfo).port}`;
    });

    afterEach(async () => {
      await new Promise<void>((r) => source.close(() => r()));
    });

    it('should pull in the foreground (200 Stat) and in the background (202 identifier)', async () => {
      const fg = await post('pull', { url: `${sourceUrl}/plugin.jar`, root: '/plugins', foreground: true });
      expect(fg.status).toBe(200);
      expect(await fg.json()).toMatchObject({ name: 'plugin.jar', size: 4 });
      const bg = await post('pull', { url: `${sourceUrl}/x`, directory: '/', file_name: 'other.jar' });
      expect(bg.status).toBe(202);
      expect(((await bg.json()) as { identifier: string }).identifier).toMatch(/^[0-9a-f-]{36}$/);
      await waitFor(async () => (await names()).includes('other.jar'));
      expect(await (await files('pull')).json()).toEqual({ downloads: null });
      expect((await post('pull', { root: '/' })).status).toBe(400);
    });
  });

  describe('signed URLs', () => {
    it('should serve a download once per unique_id and answer 404 on reuse', async () => {
      await write('logs/latest.log', 'log line');
      const token = signedQuery({ file_path: '/logs/latest.log' });
      const res = await fetch(`${h.url}/download/file?token=${token}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-disposition')).toBe('attachment; filename="latest.log"');
      expect(await res.text()).toBe('log line');
      const again = await fetch(`${h.url}/download/file?token=${token}`);
      expect([again.status, await again.json()]).toEqual([404, { error: 'The requested resource was not found on this server.' }]);
    });

    it('should answer 500 for a bad signature or an expired token, 404 for a directory', async () => {
      const bad = sign({ exp: Math.floor(Date.now() / 1000) + 60, server_uuid: uuid, file_path: 'x', unique_id: 'u1' }, 'k'.repeat(64));
      expect((await fetch(`${h.url}/download/file?token=${bad}`)).status).toBe(500);
      expect((await fetch(`${h.url}/download/file?token=${signedQuery({ file_path: 'x', exp: 1 })}`)).status).toBe(500);
      await post('create-directory', { name: 'dir', path: '/' });
      expect((await fetch(`${h.url}/download/file?token=${signedQuery({ file_path: 'dir' })}`)).status).toBe(404);
    });

    it('should accept a multipart upload once per token and answer 400 without files', async () => {
      const token = signedQuery({ user_uuid: randomUUID() });
      const form = new FormData();
      form.append('files', new Blob(['abc']), 'up.txt');
      const res = await fetch(`${h.url}/upload/file?token=${token}&directory=/uploads`, { method: 'POST', body: form });
      expect([res.status, await res.text()]).toEqual([200, '']);
      expect(await (await files('contents?file=uploads/up.txt')).text()).toBe('abc');
      expect((await fetch(`${h.url}/upload/file?token=${token}`, { method: 'POST', body: form })).status).toBe(404);
      const empty = new FormData();
      empty.append('other', 'x');
      const none = await fetch(`${h.url}/upload/file?token=${signedQuery({})}`, { method: 'POST', body: empty });
      expect([none.status, await none.json()]).toEqual([400, { error: 'No files were found on the request body.' }]);
    });
  });

  describe('backups', () => {
    const backupApi = (p: string, method: string, body?: unknown): Promise<Response> =>
      fetch(`${h.url}/api/servers/${uuid}/backup${p}`, { method, headers: { ...h.auth, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });

    it('should create a local backup, report it to the panel and the socket, download, restore and delete it', async () => {
      await write('world/level.dat', 'level');
      await write('cache/tmp.bin', 'junk');
      const ws = await WsClient.connect(h, uuid);
      await ws.auth(sign(wsClaims(uuid)));
      const backup = randomUUID();
      expect((await backupApi('', 'POST', { adapter: 'wings', uuid: backup, ignore: 'cache/' })).status).toBe(202);
      const done = await ws.next((m) => m.event === 'backup completed');
      const event = JSON.parse(done.args![0]);
      const [call] = h.panel.callsTo(`/api/remote/backups/${backup}`, 'POST');
      expect(call.body).toEqual({ checksum: event.checksum, checksum_type: 'sha1', size: event.file_size, successful: true, parts: null });
      expect(event).toEqual({ checksum: expect.stringMatching(/^[0-9a-f]{40}$/), checksum_type: 'sha1', file_size: expect.any(Number), is_successful: true, uuid: backup });

      const archive = await fetch(`${h.url}/download/backup?token=${signedQuery({ backup_uuid: backup })}`);
      expect(archive.status).toBe(200);
      expect(createHash('sha1').update(Buffer.from(await archive.arrayBuffer())).digest('hex')).toBe(event.checksum);

      await post('delete', { root: '/', files: ['world'] });
      expect((await backupApi(`/${backup}/restore`, 'POST', { adapter: 'wings', truncate_directory: true })).status).toBe(202);
      await ws.next((m) => m.event === 'backup restore completed');
      expect(h.panel.callsTo(`/api/remote/backups/${backup}/restore`, 'POST')[0].body).toEqual({ successful: true });
      expect(ws.events('daemon message').map((m) => m.args![0])).toEqual(
        expect.arrayContaining(['(restoring): world/level.dat', 'Completed server restoration from local backup.']),
      );
      expect(await names()).toEqual(['world']);

      expect((await backupApi(`/${backup}`, 'DELETE')).status).toBe(204);
      const gone = await backupApi(`/${backup}`, 'DELETE');
      expect([gone.status, await gone.json()]).toEqual([404, { error: 'The requested backup was not found on this server.' }]);
      expect((await backupApi(`/${backup}/restore`, 'POST', { adapter: 'wings' })).status).toBe(500);
    });

    it('should report a failed backup with an empty checksum and size 0, and keep no archive, under the backupFails fault', async () => {
      h.sim.faults.backupFails = true;
      const backup = randomUUID();
      expect((await backupApi('', 'POST', { adapter: 'wings', uuid: backup, ignore: '' })).status).toBe(202);
      const call = await waitFor(() => h.panel.callsTo(`/api/remote/backups/${backup}`, 'POST')[0]);
      expect(call.body).toEqual({ checksum: '', checksum_type: 'sha1', size: 0, successful: false, parts: null });
      const gone = await backupApi(`/${backup}`, 'DELETE');
      expect(gone.status).toBe(404);
    });
  });
});
