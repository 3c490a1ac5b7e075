import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { OutboundPolicy } from 'src/common/http/outbound-url';
import { eggFixtureFiles } from 'test/utils/fixtures';
import { SimPanel, startSimPanel, waitFor } from 'test/utils/sim-panel';
import { dbKinds } from 'test/utils/test-db';

const hasPaper = eggFixtureFiles().includes('egg-paper.json');

/**
 * A pull that succeeds. The file host is on loopback, which the panel refuses in production
 * (files.e2e-spec shows the refusals), so this panel's outbound policy allows private addresses.
 */
(hasPaper ? describe : describe.skip).each(dbKinds(['postgres']))('pulling a remote file into a server (%s)', (db) => {
  let p: SimPanel;
  let host: Server;
  let hostUrl: string;
  const served: string[] = [];

  beforeAll(async () => {
    host = createServer((req, res) => {
      served.push(req.url ?? '');
      // Wings needs a Content-Length to pull a file.
      const body = Buffer.from(`plugin bytes of ${req.url}`);
      res.writeHead(200, { 'Content-Type': 'application/java-archive', 'Content-Length': body.length }).end(body);
    });
    await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
    hostUrl = `http://127.0.0.1:${(host.address() as AddressInfo).port}`;
    p = await startSimPanel(db, { overrides: [{ provide: OutboundPolicy, useValue: new OutboundPolicy(true) }] });
  });

  afterAll(async () => {
    await p?.close();
    await new Promise((resolve) => host?.close(resolve));
  });

  it('should start the download on the daemon, land the file in the directory, and log it', async () => {
    const server = await p.createServer({ name: 'Pull' });
    await p.installed(server.id);
    const base = `/api/client/servers/${server.uuid}/files`;

    const res = await p.asOwner('post', `${base}/pull`).send({ url: `${hostUrl}/plugins/EssentialsX.jar`, directory: '/plugins' }).expect(202);
    expect(res.body.data).toEqual({ identifier: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    const root = p.sim.servers.get(server.uuid)!.fs.root;
    const contents = await waitFor(() => readFile(join(root, 'plugins', 'EssentialsX.jar'), 'utf8').catch(() => undefined));
    expect(contents).toBe('plugin bytes of /plugins/EssentialsX.jar');
    expect(served).toEqual(['/plugins/EssentialsX.jar']);

    const [pull] = p.sim.requestsTo(`/api/servers/${server.uuid}/files/pull`, 'POST');
    expect(JSON.parse(pull.body!)).toMatchObject({ url: `${hostUrl}/plugins/EssentialsX.jar`, root: '/plugins' });
    const listed = (await p.asOwner('get', `${base}/list?directory=/plugins`).expect(200)).body.data.entries;
    expect(listed).toEqual([expect.objectContaining({ name: 'EssentialsX.jar', isFile: true })]);
    const activity = (await p.asOwner('get', `/api/client/servers/${server.uuid}/activity`).expect(200)).body.data;
    expect(activity[0]).toMatchObject({ event: 'server.file.pull', metadata: { url: `${hostUrl}/plugins/EssentialsX.jar`, directory: '/plugins' } });
  });
});
