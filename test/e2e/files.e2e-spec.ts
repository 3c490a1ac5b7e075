import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createUser } from 'test/factories/user.factory';
import { signIn } from 'test/utils/auth';
import { TEST_ORIGIN } from 'test/utils/create-test-app';
import { eggFixtureFiles } from 'test/utils/fixtures';
import { HOSTILE_PATHS } from 'test/utils/hostile-paths';
import { SimPanel, startSimPanel } from 'test/utils/sim-panel';
import { dbKinds } from 'test/utils/test-db';

const hasPaper = eggFixtureFiles().includes('egg-paper.json');

(hasPaper ? describe : describe.skip).each(dbKinds(['postgres']))('the file manager, against the Wings simulator (%s)', (db) => {
  let p: SimPanel;
  let uuid: string;
  let root: string;
  let base: string;

  /** Sim requests to this server's file API made while `fn` runs. */
  const fileRequestsDuring = async (fn: () => Promise<unknown>) => {
    const before = p.sim.requests.length;
    await fn();
    return p.sim.requests.slice(before).filter((r) => r.path.startsWith(`/api/servers/${uuid}/files`) || r.path.startsWith('/download') || r.path.startsWith('/upload'));
  };

  const activity = async (event: string) =>
    (await p.asOwner('get', `/api/client/servers/${uuid}/activity?perPage=100`).expect(200)).body.data.filter((a: { event: string }) => a.event === event);

  beforeAll(async () => {
    p = await startSimPanel(db);
    const server = await p.createServer({ name: 'Files' });
    uuid = server.uuid;
    await p.installed(server.id);
    root = p.sim.servers.get(uuid)!.fs.root;
    base = `/api/client/servers/${uuid}/files`;
    await mkdir(join(root, 'plugins'), { recursive: true });
    await writeFile(join(root, 'plugins', 'a.jar'), 'jar bytes');
    await writeFile(join(root, 'plugins', 'b.tar.gz'), 'not really gzip');
  });

  afterAll(async () => {
    await p?.close();
  });

  it('should write, read back and list a file, with the 2.4 fields and an activity entry', async () => {
    await p.asOwner('post', `${base}/write`).send({ file: '/config/server.properties', content: 'motd=Hello\n' }).expect(204);
    expect(await readFile(join(root, 'config', 'server.properties'), 'utf8')).toBe('motd=Hello\n');
    const read = await p.asOwner('get', `${base}/contents?file=config/server.properties`).expect(200);
    expect(read.text).toBe('motd=Hello\n');
    const list = (await p.asOwner('get', `${base}/list?directory=/config/`).expect(200)).body.data;
    expect(list.directory).toBe('/config');
    expect(list.entries).toEqual([
      expect.objectContaining({ name: 'server.properties', path: '/config/server.properties', size: 11, mode: '644', modeBits: 0o644, isFile: true, isDirectory: false, isSymlink: false, mimetype: 'text/plain; charset=utf-8' }),
    ]);
    // What the node sniffed, so the page can tell text it may edit from archives and other binaries.
    const plugins = (await p.asOwner('get', `${base}/list?directory=/plugins`).expect(200)).body.data.entries as { name: string; mimetype?: string }[];
    expect(plugins.map((e) => [e.name, e.mimetype])).toEqual(expect.arrayContaining([['a.jar', 'text/plain; charset=utf-8']]));
    expect((await p.asOwner('get', `${base}/list?directory=/`).expect(200)).body.data.entries).toContainEqual(expect.objectContaining({ name: 'plugins', mimetype: 'inode/directory' }));
    expect(new Date(list.entries[0].modified).toISOString()).toBe(list.entries[0].modified);
    expect(await activity('server.file.write')).toEqual([expect.objectContaining({ metadata: { file: '/config/server.properties' } })]);
  });

  // A file's contents (HTML, say) must not be sniffed into something a browser runs.
  it('should send file contents as text/plain with X-Content-Type-Options: nosniff', async () => {
    await p.asOwner('post', `${base}/write`).send({ file: '/page.html', content: '<script>alert(1)</script>' }).expect(204);
    const read = await p.asOwner('get', `${base}/contents?file=/page.html`).expect(200);
    expect(read.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(read.headers['x-content-type-options']).toBe('nosniff');
  });

  it('should turn the daemon 500 for a missing file or directory into a 404', async () => {
    const file = await p.asOwner('get', `${base}/contents?file=/nope.txt`).expect(404);
    expect(file.body).toMatchObject({ code: 'FILE_NOT_FOUND', message: '/nope.txt does not exist on the server' });
    const dir = await p.asOwner('get', `${base}/list?directory=/no/such/dir`).expect(404);
    expect(dir.body).toMatchObject({ code: 'FILE_NOT_FOUND', message: '/no/such/dir does not exist on the server' });
  });

  it('should open a file of up to FILE_EDIT_MAX_MB as text and refuse a larger one with a hint to download it', async () => {
    const limit = 4 * 1024 * 1024;
    await writeFile(join(root, 'at-limit.log'), Buffer.alloc(limit, 'a'));
    await writeFile(join(root, 'over-limit.log'), Buffer.alloc(limit + 1, 'a'));
    const ok = await p.asOwner('get', `${base}/contents?file=/at-limit.log`).expect(200);
    expect(ok.text).toHaveLength(limit);
    const over = await p.asOwner('get', `${base}/contents?file=/over-limit.log`).expect(400);
    expect(over.body).toMatchObject({
      code: 'FILE_TOO_LARGE_TO_VIEW',
      message: 'The file is larger than 4 MiB, the most the file manager opens; download it instead',
      details: { file: '/over-limit.log', limitBytes: limit },
    });
    await p.asOwner('get', `${base}/download?file=/over-limit.log`).expect(200);
  });

  it('should name copies a_copy.jar then a_copy_2.jar, keeping .tar.gz whole', async () => {
    const first = await p.asOwner('post', `${base}/copy`).send({ location: '/plugins/a.jar' }).expect(200);
    expect(first.body.data).toMatchObject({ name: 'a_copy.jar', path: '/plugins/a_copy.jar', isFile: true });
    const second = await p.asOwner('post', `${base}/copy`).send({ location: '/plugins/a.jar' }).expect(200);
    expect(second.body.data).toMatchObject({ name: 'a_copy_2.jar', path: '/plugins/a_copy_2.jar' });
    const tgz = await p.asOwner('post', `${base}/copy`).send({ location: 'plugins/b.tar.gz' }).expect(200);
    expect(tgz.body.data).toMatchObject({ path: '/plugins/b_copy.tar.gz' });
    const names = (await p.asOwner('get', `${base}/list?directory=/plugins`).expect(200)).body.data.entries.map((e: { name: string }) => e.name).sort();
    expect(names).toEqual(['a.jar', 'a_copy.jar', 'a_copy_2.jar', 'b.tar.gz', 'b_copy.tar.gz']);
    expect(await readFile(join(root, 'plugins', 'a_copy_2.jar'), 'utf8')).toBe('jar bytes');
    expect(await activity('server.file.copy')).toHaveLength(3);
    await p.asOwner('post', `${base}/copy`).send({ location: '/plugins/missing.jar' }).expect(404);
  });

  it('should create a folder, move and rename into it, chmod and delete, each with an activity entry', async () => {
    await p.asOwner('post', `${base}/create-folder`).send({ root: '/', name: 'world/region' }).expect(204);
    await writeFile(join(root, 'r.0.0.mca'), 'region');
    await p.asOwner('put', `${base}/rename`).send({ root: '/', files: [{ from: 'r.0.0.mca', to: 'world/region/r.0.0.mca' }] }).expect(204);
    await p.asOwner('put', `${base}/rename`).send({ root: '/world/region', files: [{ from: 'r.0.0.mca', to: 'r.1.1.mca' }] }).expect(204);
    expect(await readFile(join(root, 'world', 'region', 'r.1.1.mca'), 'utf8')).toBe('region');
    await p.asOwner('post', `${base}/chmod`).send({ root: '/world/region', files: [{ file: 'r.1.1.mca', mode: '600' }] }).expect(204);
    const entry = (await p.asOwner('get', `${base}/list?directory=/world/region`).expect(200)).body.data.entries[0];
    expect(entry).toMatchObject({ name: 'r.1.1.mca', mode: '600' });
    await p.asOwner('post', `${base}/delete`).send({ root: '/world', files: ['region'] }).expect(204);
    expect((await p.asOwner('get', `${base}/list?directory=/world`).expect(200)).body.data.entries).toEqual([]);
    expect(await activity('server.file.create-directory')).toEqual([expect.objectContaining({ metadata: expect.objectContaining({ path: '/world/region' }) })]);
    expect((await activity('server.file.rename')).map((a: { metadata: unknown }) => a.metadata)).toContainEqual({
      directory: '/',
      files: [{ from: '/r.0.0.mca', to: '/world/region/r.0.0.mca' }],
    });
    expect(await activity('server.file.chmod')).toHaveLength(1);
    expect(await activity('server.file.delete')).toEqual([expect.objectContaining({ metadata: { directory: '/world', files: ['/world/region'] } })]);
  });

  it('should compress into a .tar.gz in the current directory and decompress it elsewhere', async () => {
    await writeFile(join(root, 'plugins', 'notes.txt'), 'notes');
    const res = await p.asOwner('post', `${base}/compress`).send({ root: '/plugins', files: ['a.jar', 'notes.txt'] }).expect(200);
    const archive = res.body.data;
    expect(archive).toMatchObject({ isFile: true });
    expect(archive.path).toMatch(/^\/plugins\/archive-.+\.tar\.gz$/);
    await p.asOwner('put', `${base}/rename`).send({ root: '/plugins', files: [{ from: archive.name, to: '../unpacked/x.tar.gz' }] }).expect(204);
    await p.asOwner('post', `${base}/decompress`).send({ root: '/unpacked', file: 'x.tar.gz' }).expect(204);
    expect(await readFile(join(root, 'unpacked', 'notes.txt'), 'utf8')).toBe('notes');
    expect(await activity('server.file.compress')).toEqual([expect.objectContaining({ metadata: expect.objectContaining({ archive: archive.path }) })]);
    expect(await activity('server.file.decompress')).toEqual([expect.objectContaining({ metadata: { directory: '/unpacked', file: '/unpacked/x.tar.gz' } })]);
  });

  it('should sign one-time download and upload URLs the daemon accepts', async () => {
    const download = (await p.asOwner('get', `${base}/download?file=/plugins/a.jar`).expect(200)).body.data.url as string;
    expect(download).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/download\/file\?token=/);
    const got = await fetch(download);
    expect(got.status).toBe(200);
    expect(await got.text()).toBe('jar bytes');
    expect((await fetch(download)).status).toBe(404); // unique_id is one-time

    const upload = (await p.asOwner('get', `${base}/upload`).expect(200)).body.data.url as string;
    const form = new FormData();
    form.append('files', new Blob(['uploaded']), 'up.txt');
    const sent = await fetch(`${upload}&directory=/plugins`, { method: 'POST', body: form });
    expect(sent.status).toBe(200);
    expect(await readFile(join(root, 'plugins', 'up.txt'), 'utf8')).toBe('uploaded');
  });

  it('should stream a multipart upload through the panel to the daemon, and refuse one over the node upload size', async () => {
    await p.asOwner('post', `${base}/upload?directory=/uploads`).attach('files', Buffer.from('through the panel'), 'via.txt').expect(204);
    expect(await readFile(join(root, 'uploads', 'via.txt'), 'utf8')).toBe('through the panel');
    expect(await activity('server.file.upload')).toEqual([expect.objectContaining({ metadata: { directory: '/uploads' } })]);

    await p.admin('patch', `/api/admin/nodes/${p.nodeId}`).send({ uploadSize: 1 }).expect(200);
    try {
      const big = Buffer.alloc(2 * 1024 * 1024, 'x');
      const res = await p.asOwner('post', `${base}/upload?directory=/uploads`).attach('files', big, 'big.bin').expect(413);
      expect(res.body).toMatchObject({ statusCode: 413, code: 'FILE_TOO_LARGE', message: 'Uploads to this server are limited to 1 MiB' });
      await expect(readFile(join(root, 'uploads', 'big.bin'))).rejects.toThrow();
    } finally {
      await p.admin('patch', `/api/admin/nodes/${p.nodeId}`).send({ uploadSize: 100 }).expect(200);
    }

    const notMultipart = await p.asOwner('post', `${base}/upload`).send({ files: 'x' }).expect(400);
    expect(notMultipart.body.code).toBe('VALIDATION_FAILED');
    const escaping = await fileRequestsDuring(() => p.asOwner('post', `${base}/upload?directory=../../etc`).attach('files', Buffer.from('x'), 'x.txt').expect(400));
    expect(escaping).toEqual([]);
  });

  it('should report a denylisted file as the daemon 403', async () => {
    p.sim.servers.get(uuid)!.fs.setDenylist(['*.secret']);
    try {
      const res = await p.asOwner('post', `${base}/write`).send({ file: '/x.secret', content: 'no' }).expect(403);
      expect(res.body.message).toMatch(/denylist/);
    } finally {
      p.sim.servers.get(uuid)!.fs.setDenylist([]);
    }
  });

  it('should refuse pulls from non-http, private, loopback, link-local and metadata URLs before the daemon', async () => {
    const urls = ['ftp://example.com/a.jar', 'file:///etc/passwd', 'http://127.0.0.1/a.jar', 'http://10.1.2.3/a.jar', 'http://169.254.169.254/latest/meta-data/', 'http://[::1]/a', 'http://metadata.google.internal/', 'http://localhost/a.jar'];
    const seen = await fileRequestsDuring(async () => {
      for (const url of urls) {
        const res = await p.asOwner('post', `${base}/pull`).send({ url, directory: '/plugins' }).expect(400);
        expect(res.body.code).toBe('OUTBOUND_URL_REFUSED');
      }
    });
    expect(seen).toEqual([]);
  });

  it(`should refuse ${HOSTILE_PATHS.length} hostile paths on every endpoint with 400, never reaching the daemon`, async () => {
    const q = encodeURIComponent;
    const seen = await fileRequestsDuring(async () => {
      for (const bad of HOSTILE_PATHS) {
        const calls = [
          p.asOwner('get', `${base}/list?directory=${q(bad)}`),
          p.asOwner('get', `${base}/contents?file=${q(bad)}`),
          p.asOwner('get', `${base}/download?file=${q(bad)}`),
          p.asOwner('post', `${base}/write`).send({ file: bad, content: 'x' }),
          p.asOwner('post', `${base}/copy`).send({ location: bad }),
          p.asOwner('put', `${base}/rename`).send({ root: '/', files: [{ from: 'plugins/a.jar', to: bad }] }),
          p.asOwner('put', `${base}/rename`).send({ root: bad, files: [{ from: 'a', to: 'b' }] }),
          p.asOwner('post', `${base}/delete`).send({ root: '/', files: [bad] }),
          p.asOwner('post', `${base}/create-folder`).send({ root: bad, name: 'x' }),
          p.asOwner('post', `${base}/chmod`).send({ root: '/', files: [{ file: bad, mode: '644' }] }),
          p.asOwner('post', `${base}/compress`).send({ root: '/', files: [bad] }),
          p.asOwner('post', `${base}/decompress`).send({ root: bad, file: 'x.zip' }),
          p.asOwner('post', `${base}/pull`).send({ url: 'https://example.com/a.jar', directory: bad }),
        ];
        // A NUL is refused for every route before it reaches one: VALIDATION_FAILED, still 400.
        const code = bad.includes('\0') ? 'VALIDATION_FAILED' : 'FILE_PATH_INVALID';
        for (const call of calls) {
          const res = await call;
          expect({ bad, status: res.status, code: res.body.code, url: call.url }).toEqual({ bad, status: 400, code, url: call.url });
        }
      }
    });
    expect(seen).toEqual([]);
  });

  it('should hide every endpoint (404) from a user who cannot see the server, without calling the daemon', async () => {
    const stranger = await createUser(p.t.app);
    const cookie = await signIn(p.t, stranger.email);
    const as = (method: 'get' | 'post' | 'put', path: string) => p.t.http()[method](path).set('Cookie', cookie).set('Origin', TEST_ORIGIN);
    const seen = await fileRequestsDuring(async () => {
      const calls = [
        as('get', `${base}/list`),
        as('get', `${base}/contents?file=/plugins/a.jar`),
        as('get', `${base}/download?file=/plugins/a.jar`),
        as('get', `${base}/upload`),
        as('post', `${base}/write`).send({ file: '/x', content: 'x' }),
        as('post', `${base}/copy`).send({ location: '/plugins/a.jar' }),
        as('put', `${base}/rename`).send({ files: [{ from: 'a', to: 'b' }] }),
        as('post', `${base}/delete`).send({ files: ['plugins'] }),
        as('post', `${base}/create-folder`).send({ name: 'x' }),
        as('post', `${base}/chmod`).send({ files: [{ file: 'x', mode: '644' }] }),
        as('post', `${base}/compress`).send({ files: ['plugins'] }),
        as('post', `${base}/decompress`).send({ file: 'x.zip' }),
        as('post', `${base}/pull`).send({ url: 'https://example.com/a.jar' }),
      ];
      for (const call of calls) {
        expect((await call).body).toMatchObject({ statusCode: 404, code: 'SERVER_NOT_FOUND' });
      }
    });
    expect(seen).toEqual([]);
  });
});
