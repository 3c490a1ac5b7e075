import { PteroApp } from '@devnote-dev/pterojs';
import { DataSource } from 'typeorm';
import type { TestApp } from 'test/utils/create-test-app';
import { eggFixtureFiles } from 'test/utils/fixtures';
import { SimPanel, startSimPanel, waitFor } from 'test/utils/sim-panel';
import { dbKinds } from 'test/utils/test-db';
import { applicationKey, PTERODACTYL_ACCEPT } from 'test/utils/pterodactyl';

// nodeactyl ships no types: the calls these tests make, as it defines them.
interface NodeactylApplicationApi {
  getAllUsers(): Promise<{ object: string; data: { attributes: Record<string, unknown> }[]; meta: { pagination: Record<string, unknown> } }>;
  getUserDetails(id: number): Promise<{ attributes: Record<string, unknown> }>;
  getUserByEmail(email: string): Promise<{ attributes: Record<string, unknown> } | undefined>;
  createUser(email: string, username: string, first: string, last: string, password?: string | null): Promise<{ attributes: { id: number } }>;
  updateUserDetails(id: number, email: string, username: string, first: string, last: string, language: string, password?: string): Promise<boolean>;
  deleteUser(id: number): Promise<boolean>;
  createLocation(short: string, long: string): Promise<{ attributes: { id: number } }>;
  getLocationDetails(id: number): Promise<Record<string, unknown>>;
  deleteLocation(id: number): Promise<boolean>;
  getAllNodes(): Promise<{ data: { attributes: { id: number } }[] }>;
  getNodeDetails(id: number): Promise<Record<string, unknown>>;
  getNodeConfig(id: number): Promise<Record<string, unknown>>;
  createNode(name: string, locationId: number, fqdn: string, memory: number, disk: number): Promise<{ attributes: { id: number } }>;
  updateNodeDetails(...args: unknown[]): Promise<{ attributes: Record<string, unknown> }>;
  getNodeAllocations(id: number): Promise<{ data: { attributes: { id: number; port: number } }[] }>;
  createNodeAllocations(id: number, ip: string, ports: string[]): Promise<boolean>;
  deleteNodeAllocation(node: number, allocation: number): Promise<boolean>;
  deleteNode(id: number): Promise<boolean>;
  createRawServer(body: Record<string, unknown>): Promise<{ attributes: { id: number; uuid: string } }>;
  getServerDetails(id: number): Promise<Record<string, unknown>>;
  suspendServer(id: number): Promise<boolean>;
  unsuspendServer(id: number): Promise<boolean>;
  deleteServer(id: number): Promise<boolean>;
}
 
const { NodeactylApplication } = require('nodeactyl') as { NodeactylApplication: new (host: string, key: string) => NodeactylApplicationApi };

/**
 * Two client libraries from the npm registry, unchanged, pointed at Hatchery's Pterodactyl layer
 * (`<panel>/pterodactyl` as the panel URL) over real HTTP.
 */
(eggFixtureFiles().includes('egg-paper.json') ? describe : describe.skip).each(dbKinds(['postgres']))('Pterodactyl client libraries against the application API (%s)', (db) => {
  let p: SimPanel;
  let t: TestApp;
  let panelUrl: string;
  let key: string;
  let eggId: number;

  beforeAll(async () => {
    p = await startSimPanel(db);
    t = p.t;
    panelUrl = `${await t.app.getUrl()}/pterodactyl`.replace('[::1]', '127.0.0.1');
    ({ key } = await applicationKey(t));
    eggId = (await t.app.get(DataSource).query('SELECT int_id FROM egg WHERE id = $1', [p.eggId]))[0].int_id;
  });

  afterAll(async () => {
    await p?.close();
  });

  /** The server as the API shows it now (to check what a library did without trusting its own parsing). */
  const serverNow = async (id: number) =>
    (await t.http().get(`/api/application/servers/${id}`).set('Authorization', `Bearer ${key}`).set('Accept', PTERODACTYL_ACCEPT).expect(200)).body.attributes;

  const freeAllocation = async (): Promise<number> =>
    (await t.http().get(`/api/application/nodes/${p.nodeId}/allocations?per_page=100`).set('Authorization', `Bearer ${key}`).expect(200)).body.data
      .map((a: { attributes: { id: number; assigned: boolean } }) => a.attributes)
      .find((a: { assigned: boolean }) => !a.assigned).id;

  const suffix = () => Math.random().toString(36).slice(2, 8);

  describe('@devnote-dev/pterojs', () => {
    const app = () => new PteroApp(panelUrl, key);

    it('should create a server, suspend and unsuspend it, and delete it', async () => {
      const server = await app().servers.create({
        name: 'pterojs server',
        user: Number(p.owner.id),
        egg: eggId,
        dockerImage: 'ghcr.io/pterodactyl/yolks:java_21',
        startup: 'java -jar {{SERVER_JARFILE}}',
        environment: { SERVER_JARFILE: 'server.jar' },
        allocation: { default: await freeAllocation() },
        externalId: `pterojs-${suffix()}`,
      });
      expect(typeof server.id).toBe('number');
      await p.installed(String(server.id));
      expect(await serverNow(server.id)).toMatchObject({ name: 'pterojs server', limits: { memory: 128, disk: 512 }, feature_limits: { databases: 1, allocations: 1, backups: 1 } });
      await app().servers.suspend(server.id);
      expect(await serverNow(server.id)).toMatchObject({ suspended: true });
      await app().servers.unsuspend(server.id);
      expect(await serverNow(server.id)).toMatchObject({ suspended: false });
      await app().servers.delete(server.id);
      await t.http().get(`/api/application/servers/${server.id}`).set('Authorization', `Bearer ${key}`).expect(404);
    });

    it('should create, fetch, query, update and delete a user', async () => {
      const s = suffix();
      const created = await app().users.create({ email: `pj-${s}@example.test`, username: `pj-${s}`, firstname: 'Petra', lastname: 'Js', password: 'a long enough password', externalId: `pj-${s}` });
      expect(created).toMatchObject({ email: `pj-${s}@example.test`, username: `pj-${s}`, firstname: 'Petra', lastname: 'Js', externalId: `pj-${s}`, isAdmin: false });
      expect(typeof created.id).toBe('number');
      const fetched = await app().users.fetch(created.id, { force: true });
      expect(fetched).toMatchObject({ id: created.id, username: `pj-${s}`, email: `pj-${s}@example.test` });
      expect((await app().users.fetch(`pj-${s}`, { force: true })).id).toBe(created.id);
      const found = await app().users.query(`pj-${s}@example.test`, { filter: 'email' });
      expect([...found.keys()]).toEqual([created.id]);
      const updated = await app().users.update(created.id, { firstname: 'Paula' });
      expect(updated).toMatchObject({ id: created.id, firstname: 'Paula', lastname: 'Js' });
      const all = await app().users.fetch();
      expect(all.has(created.id)).toBe(true);
      await app().users.delete(created.id);
      await expect(app().users.fetch(created.id, { force: true })).rejects.toMatchObject({ codes: ['NotFoundHttpException'] });
    });

    it('should create a location and a node, read its configuration, add and remove allocations, find it deployable, and delete it', async () => {
      const client = app();
      const location = await client.locations.create(`pj-${suffix()}`, 'PteroJS lab');
      const node = await client.nodes.create({
        name: `pterojs ${suffix()}`,
        description: undefined,
        location: '',
        locationId: location.id,
        public: true,
        fqdn: `pj-${suffix()}.example.test`,
        scheme: 'https',
        behindProxy: false,
        memory: 2048,
        disk: 20480,
        sftp: { port: 2022, listener: 8080 },
        daemonBase: '/var/lib/pterodactyl/volumes',
        daemonSftp: 2022,
        daemonListen: 8080,
        maintenanceMode: false,
      });
      expect(node).toMatchObject({ locationId: location.id, memory: 2048, disk: 20480, daemon: { listening: 8080, sftp: 2022 } });
      const config = (await client.nodes.getConfig(node.id)) as unknown as Record<string, unknown>;
      expect(config).toMatchObject({ uuid: node.uuid, tokenId: expect.any(String), token: expect.any(String), remote: 'http://panel.test' });
      await client.allocations.create(node.id, '10.1.0.1', ['25565', '25566-25567']);
      const allocations = await client.allocations.fetch(node.id, { force: true });
      expect([...allocations.values()].map((a) => a.port).sort()).toEqual([25565, 25566, 25567]);
      await client.allocations.delete(node.id, [...allocations.keys()][0]);
      expect((await client.allocations.fetch(node.id, { force: true })).size).toBe(2);
      const deployable = await client.nodes.fetchDeployable({ memory: 1024, disk: 1024, locationIds: [location.id] });
      expect([...deployable.keys()]).toContain(node.id);
      const fetched = await client.nodes.fetch(node.id, { force: true });
      expect(fetched.name).toBe(node.name);
      await client.nodes.delete(node.id);
      await expect(client.nodes.fetch(node.id, { force: true })).rejects.toMatchObject({ codes: ['NotFoundHttpException'] });
    });
  });

  describe('nodeactyl', () => {
    const app = () => new NodeactylApplication(panelUrl, key);

    it('should create a server, read it, suspend and unsuspend it, and delete it', async () => {
      const created = await app().createRawServer({
        name: 'nodeactyl server',
        user: Number(p.owner.id),
        egg: eggId,
        docker_image: 'ghcr.io/pterodactyl/yolks:java_21',
        startup: 'java -jar {{SERVER_JARFILE}}',
        environment: { SERVER_JARFILE: 'server.jar', BUILD_NUMBER: 'latest', VANILLA_VERSION: 'latest' },
        limits: { memory: 512, swap: 0, disk: 1024, io: 500, cpu: 100 },
        feature_limits: { databases: 0, allocations: 0, backups: 0 },
        allocation: { default: await freeAllocation(), additional: [] },
        start_on_completion: false,
      });
      const id = created.attributes.id;
      await p.installed(String(id));
      expect(await app().getServerDetails(id)).toMatchObject({ id, name: 'nodeactyl server', egg: eggId, suspended: false });
      expect(await app().suspendServer(id)).toBe(true);
      expect(await serverNow(id)).toMatchObject({ suspended: true });
      await waitFor(() => p.sim.servers.get(created.attributes.uuid)?.config.suspended === true);
      expect(await app().unsuspendServer(id)).toBe(true);
      expect(await serverNow(id)).toMatchObject({ suspended: false });
      expect(await app().deleteServer(id)).toBe(true);
      await t.http().get(`/api/application/servers/${id}`).set('Authorization', `Bearer ${key}`).expect(404);
    });

    it('should list, create, read, find by e-mail, update and delete users', async () => {
      const s = suffix();
      const created = await app().createUser(`na-${s}@example.test`, `na-${s}`, 'Noda', 'Ctyl', 'a long enough password');
      const id = created.attributes.id;
      expect((await app().getUserDetails(id)).attributes).toMatchObject({ id, username: `na-${s}`, first_name: 'Noda', last_name: 'Ctyl' });
      expect((await app().getUserByEmail(`na-${s}@example.test`))?.attributes).toMatchObject({ id });
      const list = await app().getAllUsers();
      expect(list.object).toBe('list');
      expect(list.data.some((u) => u.attributes.id === id)).toBe(true);
      expect(await app().updateUserDetails(id, `na-${s}@example.test`, `na-${s}`, 'Nora', 'Ctyl', 'en', 'another long password')).toBe(true);
      await t.http().post('/api/auth/sign-in/email').send({ email: `na-${s}@example.test`, password: 'another long password' }).expect(200);
      expect(await app().deleteUser(id)).toBe(true);
      const rows: unknown[] = await t.app.get(DataSource).query('SELECT id FROM "user" WHERE id = $1', [id]);
      expect(rows).toEqual([]);
    });

    it('should manage a location, a node and its allocations', async () => {
      const location = await app().createLocation(`na-${suffix()}`, 'Nodeactyl lab');
      expect(await app().getLocationDetails(location.attributes.id)).toMatchObject({ id: location.attributes.id, long: 'Nodeactyl lab' });
      const node = await app().createNode(`nodeactyl-${suffix()}`, location.attributes.id, `na-${suffix()}.example.test`, 4096, 40960);
      const id = node.attributes.id;
      expect(await app().getNodeDetails(id)).toMatchObject({ id, memory: 4096, disk: 40960, location_id: location.attributes.id });
      expect((await app().getAllNodes()).data.some((n) => n.attributes.id === id)).toBe(true);
      expect(await app().getNodeConfig(id)).toMatchObject({ token_id: expect.any(String), api: expect.objectContaining({ port: 8080 }) });
      const updated = await app().updateNodeDetails(id, 'renamed-by-nodeactyl', 'racked', location.attributes.id, 'renamed.example.test', 'https', false, false, 8192, 0, 40960, 0, 100, 2022, 8080);
      expect(updated.attributes).toMatchObject({ name: 'renamed-by-nodeactyl', description: 'racked', memory: 8192, fqdn: 'renamed.example.test' });
      expect(await app().createNodeAllocations(id, '10.2.0.1', ['27015', '27016'])).toBe(true);
      const allocations = (await app().getNodeAllocations(id)).data;
      expect(allocations.map((a) => a.attributes.port)).toEqual([27015, 27016]);
      expect(await app().deleteNodeAllocation(id, allocations[0].attributes.id)).toBe(true);
      expect(await app().deleteNode(id)).toBe(true);
      expect(await app().deleteLocation(location.attributes.id)).toBe(true);
    });
  });
});
