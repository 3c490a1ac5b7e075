import { parse } from 'yaml';
import { eggFixtureFiles } from 'test/utils/fixtures';
import { DECIMAL_ID, expectError, expectValidation, ISO, Json, UUID_V4 } from 'test/utils/nodes';
import { SimPanel, startSimPanel } from 'test/utils/sim-panel';
import { dbKinds } from 'test/utils/test-db';

const hasPaper = eggFixtureFiles().includes('egg-paper.json');
const MOUNTS = '/api/admin/mounts';
const MOUNT_NOT_FOUND = ['MOUNT_NOT_FOUND', 'Mount not found'] as const;

/** The panel as a node's Wings reads it: a server's configuration, with the node's token. */
const configurationOf = async (p: SimPanel, uuid: string): Promise<Json> => {
  const { tokenId, token } = p.sim.configuration;
  const res = await p.t.http().get(`/api/remote/servers/${uuid}`).set('Authorization', `Bearer ${tokenId}.${token}`).expect(200);
  return res.body;
};

/** The node's config.yml, as an administrator downloads it with an API key (nodes.read). */
const configYml = async (p: SimPanel, key: string): Promise<Json> => {
  const res = await p.t.http().get(`/api/admin/daemon/nodes/${p.nodeId}/configuration?format=yaml`).set('Authorization', `Bearer ${key}`).expect(200);
  return parse(res.text) as Json;
};

const nodesReadKey = async (p: SimPanel): Promise<string> =>
  (await p.admin('post', '/api/account/api-keys').send({ name: 'config', permissions: ['nodes.read'] }).expect(201)).body.data.key;

(hasPaper ? describe : describe.skip).each(dbKinds(['pglite']))('mounts (%s)', (db) => {
  let p: SimPanel;
  let server: { id: string; uuid: string };
  let key: string;

  const create = async (body: Json = {}): Promise<Json> =>
    (await p.admin('post', MOUNTS).send({ name: 'Shared maps', source: '/srv/maps', target: '/mnt/maps', ...body }).expect(201)).body.data;
  const auditOf = async (type: string, id: string): Promise<Json[]> =>
    (await p.admin('get', `/api/admin/audit-logs?targetType=${type}&targetId=${id}`).expect(200)).body.data;

  beforeAll(async () => {
    p = await startSimPanel(db);
    server = await p.createServer({ name: 'Mounted' });
    await p.installed(server.id);
    key = await nodesReadKey(p);
  });

  afterAll(async () => {
    await p?.close();
  });

  describe('administration', () => {
    it('should create a mount with normalised paths, show it, list and search it, update it and delete it, each in the audit log', async () => {
      const res = await p.admin('post', MOUNTS).send({ name: 'Maps', description: 'Map pool', source: '/srv//maps/', target: '/mnt/maps/', readOnly: true }).expect(201);
      const mount = res.body.data;
      expect(mount).toEqual({
        id: expect.stringMatching(DECIMAL_ID),
        uuid: expect.stringMatching(UUID_V4),
        name: 'Maps',
        description: 'Map pool',
        source: '/srv/maps',
        target: '/mnt/maps',
        readOnly: true,
        userMountable: false,
        createdAt: expect.stringMatching(ISO),
        updatedAt: expect.stringMatching(ISO),
        eggs: [],
        nodes: [],
        servers: [],
      });
      expect((await p.admin('get', `${MOUNTS}/${mount.id}`).expect(200)).body.data).toEqual(mount);

      const other = await create({ name: 'Plugins', source: '/opt/plugins', target: '/mnt/plugins' });
      const list = (await p.admin('get', `${MOUNTS}?perPage=1`).expect(200)).body;
      expect(list.data).toEqual([expect.objectContaining({ id: mount.id, name: 'Maps' })]);
      expect(list.meta.pagination).toMatchObject({ total: 2, count: 1, perPage: 1, totalPages: 2 });
      expect((await p.admin('get', `${MOUNTS}?search=PLUG`).expect(200)).body.data.map((m: Json) => m.id)).toEqual([other.id]);
      expect((await p.admin('get', `${MOUNTS}?search=%25`).expect(200)).body.data).toEqual([]);

      const updated = (await p.admin('patch', `${MOUNTS}/${mount.id}`).send({ readOnly: false, target: '/mnt/map-pool' }).expect(200)).body.data;
      expect(updated).toMatchObject({ readOnly: false, target: '/mnt/map-pool', source: '/srv/maps', name: 'Maps' });
      expectError(await p.admin('patch', `${MOUNTS}/${other.id}`).send({ name: 'Maps' }), 409, 'MOUNT_NAME_TAKEN', 'A mount with this name exists');
      expectError(await p.admin('post', MOUNTS).send({ name: 'Maps', source: '/srv/x', target: '/mnt/x' }), 409, 'MOUNT_NAME_TAKEN', 'A mount with this name exists');

      await p.admin('delete', `${MOUNTS}/${mount.id}`).expect(204);
      await p.admin('delete', `${MOUNTS}/${other.id}`).expect(204);
      expectError(await p.admin('get', `${MOUNTS}/${mount.id}`), 404, ...MOUNT_NOT_FOUND);
      for (const bad of ['abc', '0', '-1']) {
        expectError(await p.admin('get', `${MOUNTS}/${bad}`), 404, ...MOUNT_NOT_FOUND);
      }
      expect((await auditOf('mount', mount.id)).map((e) => [e.action, e.target.name, e.changes])).toEqual([
        ['mount.deleted', 'Maps', { before: expect.objectContaining({ name: 'Maps', target: '/mnt/map-pool' }) }],
        // A deleted mount's name is kept by the entries that recorded it (as for every target).
        ['mount.updated', null, { before: { target: '/mnt/maps', readOnly: true }, after: { target: '/mnt/map-pool', readOnly: false } }],
        ['mount.created', 'Maps', { after: expect.objectContaining({ name: 'Maps', source: '/srv/maps', target: '/mnt/maps', readOnly: true }) }],
      ]);
    });

    it.each([
      ['source', 'relative', 'source must be an absolute path (start with /)'],
      ['source', '', 'source must not be empty'],
      ['source', '/srv/../etc', 'source must not contain . or .. segments'],
      ['source', '/srv/./maps', 'source must not contain . or .. segments'],
      ['source', '/srv/ma\u0000ps', 'source must not contain the NUL character (\\u0000)'],
      ['source', '/srv/maps\n', 'source must not contain control characters'],
      ['source', '/', 'source must not be the root of the node'],
      ['source', '//', 'source must not be the root of the node'],
      ['source', '/var/lib/pterodactyl/volumes/abc', "source must not be, lie under or contain /var/lib/pterodactyl (Wings' own files and every server's data are there)"],
      ['source', '/var/lib', "source must not be, lie under or contain /var/lib/pterodactyl (Wings' own files and every server's data are there)"],
      ['source', '/etc/pterodactyl/', "source must not be, lie under or contain /etc/pterodactyl (Wings' own files and every server's data are there)"],
      ['source', '/etc', "source must not be, lie under or contain /etc/pterodactyl (Wings' own files and every server's data are there)"],
      ['source', '/srv/daemon-data/x', "source must not be, lie under or contain /srv/daemon-data (Wings' own files and every server's data are there)"],
      ['source', '/var/run/docker.sock', "source must not be, lie under or contain /var/run/docker.sock (Wings' own files and every server's data are there)"],
      ['source', `/${'a'.repeat(255)}`, 'source must be at most 255 characters'],
      ['target', '/home/container', "target must not be, lie under or contain /home/container (the server's own files)"],
      ['target', '/home/container/maps', "target must not be, lie under or contain /home/container (the server's own files)"],
      ['target', '/home', "target must not be, lie under or contain /home/container (the server's own files)"],
      ['target', '/', 'target must not be the root of the container'],
      ['target', '/etc/ssl', 'target must not be or lie under /etc (a system directory of the container)'],
      ['target', '/usr', 'target must not be or lie under /usr (a system directory of the container)'],
      ['target', '/proc/self', 'target must not be or lie under /proc (a system directory of the container)'],
      ['target', 'mnt/maps', 'target must be an absolute path (start with /)'],
      ['target', '/mnt/../etc', 'target must not contain . or .. segments'],
    ])('should refuse a %s of %j with a 400 naming the field, and write nothing', async (field, value, message) => {
      const before = (await p.admin('get', MOUNTS).expect(200)).body.meta.pagination.total;
      expectValidation(await p.admin('post', MOUNTS).send({ name: 'Bad', source: '/srv/ok', target: '/mnt/ok', [field]: value }), [{ field, message }]);
      expect((await p.admin('get', MOUNTS).expect(200)).body.meta.pagination.total).toBe(before);
    });

    it('should name every bad field at once, refuse unknown fields and wrong types, and check an update as a create', async () => {
      expectValidation(await p.admin('post', MOUNTS).send({ name: 'Bad', source: 'x', target: '/usr/lib' }), [
        { field: 'source', message: 'source must be an absolute path (start with /)' },
        { field: 'target', message: 'target must not be or lie under /usr (a system directory of the container)' },
      ]);
      const res = await p.admin('post', MOUNTS).send({ name: '', source: 1, target: '/mnt/x', readOnly: 'yes', extra: true });
      expect(res.status).toBe(400);
      expect(res.body.details.map((d: Json) => d.field).sort()).toEqual(['extra', 'name', 'readOnly', 'source']);
      const mount = await create({ name: 'Checked' });
      expectValidation(await p.admin('patch', `${MOUNTS}/${mount.id}`).send({ target: '/home/container/x' }), [
        { field: 'target', message: "target must not be, lie under or contain /home/container (the server's own files)" },
      ]);
      await p.admin('delete', `${MOUNTS}/${mount.id}`).expect(204);
    });
  });

  describe('links and attachment', () => {
    let mount: Json;
    let otherNode: Json;

    beforeAll(async () => {
      mount = await create({ name: 'Shared maps', readOnly: true });
      otherNode = (
        await p.admin('post', '/api/admin/nodes').send({ name: 'spare', fqdn: 'spare.example.com', scheme: 'https', memory: 1024, disk: 1024, daemonBase: '/srv/wings' }).expect(201)
      ).body.data;
    });

    it('should refuse to attach a mount not linked to the server’s egg and node, naming what is missing', async () => {
      const res = await p.admin('put', `/api/admin/servers/${server.id}/mounts/${mount.id}`);
      expect(res.status).toBe(409);
      expect(res.body).toMatchObject({ code: 'MOUNT_NOT_LINKED', message: "Mount Shared maps is not linked to this server's egg Paper and node sim; link it on the mount's page first" });
      await p.admin('post', `${MOUNTS}/${mount.id}/eggs`).send({ eggIds: [p.eggId] }).expect(200);
      const nodeMissing = await p.admin('put', `/api/admin/servers/${server.id}/mounts/${mount.id}`);
      expect([nodeMissing.status, nodeMissing.body.message]).toEqual([409, "Mount Shared maps is not linked to this server's node sim; link it on the mount's page first"]);
      await p.admin('post', `${MOUNTS}/${mount.id}/nodes`).send({ nodeIds: [otherNode.id] }).expect(200);
      expect((await p.admin('put', `/api/admin/servers/${server.id}/mounts/${mount.id}`)).status).toBe(409);
      expect((await p.admin('get', `/api/admin/servers/${server.id}/mounts`).expect(200)).body.data).toEqual([]);
      expect((await configurationOf(p, server.uuid)).settings.mounts).toEqual([]);
    });

    it('should link eggs and nodes (twice is once), refuse unknown ones, and refuse a node whose data directory holds the source', async () => {
      const detail = (await p.admin('post', `${MOUNTS}/${mount.id}/eggs`).send({ eggIds: [p.eggId, p.eggId] }).expect(200)).body.data;
      expect(detail.eggs).toEqual([{ id: p.eggId, name: 'Paper' }]);
      expectError(await p.admin('post', `${MOUNTS}/${mount.id}/eggs`).send({ eggIds: ['00000000-0000-4000-8000-000000000000'] }), 404, 'EGG_NOT_FOUND', 'Egg not found');
      expectValidation(await p.admin('post', `${MOUNTS}/${mount.id}/eggs`).send({ eggIds: ['nope'] }), [{ field: 'eggIds', message: 'each of eggIds must be an egg id' }]);
      expectError(await p.admin('post', `${MOUNTS}/${mount.id}/nodes`).send({ nodeIds: ['999999'] }), 404, 'NODE_NOT_FOUND', 'Node not found');
      expectValidation(await p.admin('post', `${MOUNTS}/${mount.id}/nodes`).send({ nodeIds: [] }), [{ field: 'nodeIds', message: 'nodeIds must contain at least 1 elements' }]);
      expectError(await p.admin('post', `${MOUNTS}/999999/nodes`).send({ nodeIds: [p.nodeId] }), 404, ...MOUNT_NOT_FOUND);

      const inside = await create({ name: 'Inside wings', source: '/srv/wings/other' });
      expectValidation(await p.admin('post', `${MOUNTS}/${inside.id}/nodes`).send({ nodeIds: [otherNode.id] }), [
        { field: 'nodeIds', message: "the mount's source must not be, lie under or contain /srv/wings (Wings' own files and every server's data are there) on node spare" },
      ]);
      expect((await p.admin('get', `${MOUNTS}/${inside.id}`).expect(200)).body.data.nodes).toEqual([]);
      await p.admin('delete', `${MOUNTS}/${inside.id}`).expect(204);
    });

    it('should attach a linked mount: Wings’ configuration lists it, the node is told to sync and reads it, config.yml allows its source', async () => {
      await p.admin('post', `${MOUNTS}/${mount.id}/nodes`).send({ nodeIds: [p.nodeId] }).expect(200);
      expect((await configYml(p, key)).allowed_mounts).toEqual(['/srv/maps']);
      const offered = (await p.admin('get', `/api/admin/servers/${server.id}/mounts`).expect(200)).body.data;
      expect(offered).toEqual([expect.objectContaining({ id: mount.id, name: 'Shared maps', attached: false, eggLinked: true, nodeLinked: true })]);

      const syncsBefore = p.sim.requestsTo(`/api/servers/${server.uuid}/sync`, 'POST').length;
      const res = await p.admin('put', `/api/admin/servers/${server.id}/mounts/${mount.id}`).expect(200);
      expect(res.body.meta).toEqual({ changed: true, daemonSynced: true });
      expect(res.body.data).toEqual([expect.objectContaining({ id: mount.id, attached: true })]);
      expect(p.sim.requestsTo(`/api/servers/${server.uuid}/sync`, 'POST')).toHaveLength(syncsBefore + 1);
      const mounts = [{ source: '/srv/maps', target: '/mnt/maps', read_only: true }];
      expect(p.sim.servers.get(server.uuid)!.config.mounts).toEqual(mounts);
      expect((await configurationOf(p, server.uuid)).settings.mounts).toEqual(mounts);
      const page = await p.t.http().get('/api/remote/servers?per_page=50').set('Authorization', `Bearer ${p.sim.configuration.tokenId}.${p.sim.configuration.token}`).expect(200);
      expect(page.body.data.find((s: Json) => s.uuid === server.uuid).settings.mounts).toEqual(mounts);

      // Attaching again changes nothing and is not logged twice.
      expect((await p.admin('put', `/api/admin/servers/${server.id}/mounts/${mount.id}`).expect(200)).body.meta.changed).toBe(false);
      expect((await auditOf('server', server.id)).filter((e) => e.action === 'server.mount.attached')).toEqual([
        expect.objectContaining({ changes: { after: { mountId: mount.id, mount: 'Shared maps' } } }),
      ]);
      expect((await p.admin('get', `${MOUNTS}/${mount.id}`).expect(200)).body.data.servers).toEqual([{ id: server.id, uuid: server.uuid, name: 'Mounted' }]);
    });

    it('should show the owner the server’s mounts, read-only, and nobody else', async () => {
      expect((await p.asOwner('get', `/api/client/servers/${server.uuid}/mounts`).expect(200)).body.data).toEqual([
        { name: 'Shared maps', description: null, target: '/mnt/maps', readOnly: true },
      ]);
      const stranger = await p.newUser();
      expect((await stranger.as('get', `/api/client/servers/${server.uuid}/mounts`)).status).toBe(404);
    });

    it('should refuse to delete a mount while servers have it, and keep the attachment', async () => {
      expectError(await p.admin('delete', `${MOUNTS}/${mount.id}`), 409, 'MOUNT_IN_USE', 'The mount is attached to 1 server; detach it from them first');
      expect((await configurationOf(p, server.uuid)).settings.mounts).toHaveLength(1);
    });

    it('should leave a mount out of the configuration once its node is unlinked, though still attached', async () => {
      const detail = (await p.admin('delete', `${MOUNTS}/${mount.id}/nodes/${p.nodeId}`).expect(200)).body.data;
      expect(detail.nodes).toEqual([{ id: otherNode.id, name: 'spare' }]);
      expect((await configurationOf(p, server.uuid)).settings.mounts).toEqual([]);
      expect((await configYml(p, key)).allowed_mounts).toEqual([]);
      expect((await p.admin('get', `/api/admin/servers/${server.id}/mounts`).expect(200)).body.data).toEqual([
        expect.objectContaining({ id: mount.id, attached: true, eggLinked: true, nodeLinked: false }),
      ]);
      expect((await p.asOwner('get', `/api/client/servers/${server.uuid}/mounts`).expect(200)).body.data).toEqual([]);
      await p.admin('post', `${MOUNTS}/${mount.id}/nodes`).send({ nodeIds: [p.nodeId] }).expect(200);
    });

    it('should attach while the node is down, saying the node was not told', async () => {
      await p.admin('delete', `/api/admin/servers/${server.id}/mounts/${mount.id}`).expect(200);
      p.sim.faults.down = true;
      try {
        const res = await p.admin('put', `/api/admin/servers/${server.id}/mounts/${mount.id}`).expect(200);
        expect(res.body.meta).toEqual({ changed: true, daemonSynced: false, syncError: expect.any(String) });
      } finally {
        p.sim.resetFaults();
      }
      expect((await configurationOf(p, server.uuid)).settings.mounts).toHaveLength(1);
    });

    it("should refuse to attach a mount whose source the node's data directory has come to hold", async () => {
      await p.admin('delete', `/api/admin/servers/${server.id}/mounts/${mount.id}`).expect(200);
      // The node's configuration push would point the simulator at APP_URL, not at this test's panel.
      p.sim.setConfiguration({ ignorePanelConfigUpdates: true });
      await p.admin('patch', `/api/admin/nodes/${p.nodeId}`).send({ daemonBase: '/srv' }).expect(200);
      try {
        expectError(
          await p.admin('put', `/api/admin/servers/${server.id}/mounts/${mount.id}`),
          409,
          'MOUNT_UNSAFE_ON_NODE',
          "Mount Shared maps's source must not be, lie under or contain /srv (Wings' own files and every server's data are there) on node sim; change its source first",
        );
      } finally {
        await p.admin('patch', `/api/admin/nodes/${p.nodeId}`).send({ daemonBase: '/var/lib/pterodactyl/volumes' }).expect(200);
        p.sim.setConfiguration({ ignorePanelConfigUpdates: false });
      }
      await p.admin('put', `/api/admin/servers/${server.id}/mounts/${mount.id}`).expect(200);
    });

    it('should detach: gone from the configuration and from the node after its sync, then the mount can be deleted', async () => {
      const res = await p.admin('delete', `/api/admin/servers/${server.id}/mounts/${mount.id}`).expect(200);
      expect(res.body.meta).toEqual({ changed: true, daemonSynced: true });
      expect(res.body.data).toEqual([expect.objectContaining({ id: mount.id, attached: false })]);
      expect((await configurationOf(p, server.uuid)).settings.mounts).toEqual([]);
      expect(p.sim.servers.get(server.uuid)!.config.mounts).toEqual([]);
      expect((await p.admin('delete', `/api/admin/servers/${server.id}/mounts/${mount.id}`).expect(200)).body.meta.changed).toBe(false);
      expectError(await p.admin('put', `/api/admin/servers/${server.id}/mounts/999999`), 404, ...MOUNT_NOT_FOUND);
      expectError(await p.admin('put', `/api/admin/servers/999999/mounts/${mount.id}`), 404, 'SERVER_NOT_FOUND', 'Server not found');
      expect((await auditOf('server', server.id)).map((e) => e.action).filter((a) => a.startsWith('server.mount'))).toEqual([
        'server.mount.detached',
        'server.mount.attached',
        'server.mount.detached',
        'server.mount.attached',
        'server.mount.detached',
        'server.mount.attached',
      ]);
      await p.admin('delete', `${MOUNTS}/${mount.id}/eggs/${p.eggId}`).expect(200);
      await p.admin('delete', `${MOUNTS}/${mount.id}`).expect(204);
      expect((await configYml(p, key)).allowed_mounts).toEqual([]);
    });
  });
});

(hasPaper ? describe : describe.skip).each(dbKinds(['postgres']))('mounts reach Wings (%s)', (db) => {
  let p: SimPanel;

  beforeAll(async () => {
    p = await startSimPanel(db);
  });

  afterAll(async () => {
    await p?.close();
  });

  it('should put an attached mount in the server’s configuration and its source in config.yml', async () => {
    const server = await p.createServer({ name: 'Mounted' });
    await p.installed(server.id);
    const mount = (await p.admin('post', MOUNTS).send({ name: 'Maps', source: '/srv/maps', target: '/mnt/maps' }).expect(201)).body.data;
    await p.admin('post', `${MOUNTS}/${mount.id}/eggs`).send({ eggIds: [p.eggId] }).expect(200);
    await p.admin('post', `${MOUNTS}/${mount.id}/nodes`).send({ nodeIds: [p.nodeId] }).expect(200);
    const attached = (await p.admin('put', `/api/admin/servers/${server.id}/mounts/${mount.id}`).expect(200)).body;
    expect(attached.meta).toEqual({ changed: true, daemonSynced: true });
    expect(attached.data).toEqual([expect.objectContaining({ id: mount.id, attached: true, eggLinked: true, nodeLinked: true })]);
    const mounts = [{ source: '/srv/maps', target: '/mnt/maps', read_only: false }];
    expect((await configurationOf(p, server.uuid)).settings.mounts).toEqual(mounts);
    expect(p.sim.servers.get(server.uuid)!.config.mounts).toEqual(mounts);
    expect((await configYml(p, await nodesReadKey(p))).allowed_mounts).toEqual(['/srv/maps']);
  });
});
