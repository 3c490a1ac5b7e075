import { DataSource } from 'typeorm';
import { ChangeFeed } from 'src/common/hot-cache/change-feed';
import { HotCaches } from 'src/common/hot-cache/hot-caches';
import { eggFixtureFiles } from 'test/utils/fixtures';
import type { Json } from 'test/utils/nodes';
import { countQueries } from 'test/utils/query-counter';
import { addSimNode, SimPanel, startSimPanel, waitFor } from 'test/utils/sim-panel';
import { dbKinds } from 'test/utils/test-db';

const hasPaper = eggFixtureFiles().includes('egg-paper.json');

/** A warm boot page: the calling node comes from the daemon-token cache (DaemonNodes), so only the page's ids and total are read; no configuration is built. */
const WARM_PAGE = [expect.stringMatching(/^SELECT s\.id::text AS id, \(SELECT .* FROM server_totals c WHERE c\.node_id = \$1\) AS total FROM server s WHERE s\.node_id = \$1/)];

/**
 * Servers' Wings configurations are cached (ServerConfigService.configurationsOf): a node's boot page
 * reads them from memory once warm. Each thing a configuration is built from, changed through the
 * API, shows in the next boot page; GET /api/remote/servers/{uuid} builds afresh and is the reference.
 */
(hasPaper ? describe : describe.skip).each(dbKinds(['pglite', 'postgres']))('Wings configuration cache (%s)', (db) => {
  let p: SimPanel;
  let server: { id: string; uuid: string };
  let doomed: { id: string; uuid: string };
  let mover: { id: string; uuid: string };
  let nodeAuth: string;

  /** What the node reads about `uuid` in its boot list (page 1 of 50), after every change is heard. */
  const bootEntry = async (uuid = server.uuid): Promise<Json> => {
    await p.t.app.get(ChangeFeed).caughtUp();
    const res = await p.t.http().get('/api/remote/servers?page=0&per_page=50').set('Authorization', nodeAuth).expect(200);
    const entry = (res.body.data as Json[]).find((s) => s.uuid === uuid);
    if (entry === undefined) {
      throw new Error(`${uuid} is not in the boot page`);
    }
    return entry;
  };
  /** The configuration built afresh (GET /api/remote/servers/{uuid} does not read the cache). */
  const fresh = async (uuid = server.uuid): Promise<Json> =>
    (await p.t.http().get(`/api/remote/servers/${uuid}`).set('Authorization', nodeAuth).expect(200)).body;
  /** ...as the boot list shows it. */
  const freshEntry = async (uuid = server.uuid): Promise<Json> => ({ uuid, ...(await fresh(uuid)) });
  /** Reads the boot page, so that the server's configuration is cached when the test changes what it is built from. */
  const warm = async (): Promise<void> => {
    await bootEntry();
    expect(p.t.app.get(HotCaches).configs.get(server.id)).toEqual(await fresh());
  };

  beforeAll(async () => {
    p = await startSimPanel(db);
    nodeAuth = `Bearer ${p.sim.configuration.tokenId}.${p.sim.configuration.token}`;
    server = await p.createServer({ name: 'Cached' });
    doomed = await p.createServer({ name: 'Doomed' });
    mover = await p.createServer({ name: 'Mover' });
    for (const { id } of [server, doomed, mover]) {
      await p.installed(id);
    }
  });

  afterAll(async () => {
    await p?.close();
  });

  it('should answer a warm boot page without building a configuration, each entry exactly what a fresh build gives', async () => {
    const page = async () => {
      await p.t.app.get(ChangeFeed).caughtUp();
      return p.t.http().get('/api/remote/servers?page=0&per_page=50').set('Authorization', nodeAuth).expect(200);
    };
    p.t.app.get(HotCaches).clear();
    const cold = await page();
    const { result: hot, queries } = await countQueries(page);
    if (db === 'postgres') {
      // (The query counter sees node-postgres only.)
      expect(queries).toEqual(WARM_PAGE);
    }
    expect(hot.body).toEqual(cold.body);
    expect(hot.body.meta).toEqual({ current_page: 1, from: 1, last_page: 1, per_page: 50, to: 3, total: 3 });
    for (const entry of hot.body.data as Json[]) {
      expect(entry).toEqual(await freshEntry(entry.uuid));
    }
    // A page past the last one still says how many there are.
    const past = await p.t.http().get('/api/remote/servers?page=3&per_page=50').set('Authorization', nodeAuth).expect(200);
    expect(past.body.data).toEqual([]);
    expect(past.body.meta).toMatchObject({ current_page: 3, last_page: 1, total: 3 });
  });

  it('should show an administrator’s build and startup changes (the server)', async () => {
    await warm();
    await p.admin('patch', `/api/admin/servers/${server.id}/build`).send({ memory: 3072, cpu: 150 }).expect(200);
    expect((await bootEntry()).settings.build).toMatchObject({ memory_limit: 3072, cpu_limit: 150 });
    await warm();
    await p.admin('patch', `/api/admin/servers/${server.id}/startup`).send({ environment: { SERVER_JARFILE: 'admin.jar' } }).expect(200);
    expect((await bootEntry()).settings.environment.SERVER_JARFILE).toBe('admin.jar');
    expect(await bootEntry()).toEqual(await freshEntry());
  });

  it('should show a startup variable the owner changes (the server’s variable values)', async () => {
    await warm();
    await p.asOwner('put', `/api/client/servers/${server.uuid}/startup/variable`).send({ key: 'SERVER_JARFILE', value: 'owner.jar' }).expect(200);
    const entry = await bootEntry();
    expect(entry.settings.environment.SERVER_JARFILE).toBe('owner.jar');
    expect(entry.process_configuration).toEqual((await fresh()).process_configuration);
  });

  it('should show changes to the egg and to its variables', async () => {
    await warm();
    await p.admin('patch', `/api/admin/eggs/${p.eggId}`).send({ configStop: 'halt', fileDenylist: ['secret.txt'] }).expect(200);
    const entry = await bootEntry();
    expect(entry.settings.egg.file_denylist).toEqual(['secret.txt']);
    expect(entry.process_configuration.stop).toEqual({ type: 'command', value: 'halt' });

    await warm();
    const variables = (await p.admin('get', `/api/admin/eggs/${p.eggId}/variables`).expect(200)).body.data as Json[];
    const version = variables.find((v) => v.envVariable === 'MINECRAFT_VERSION');
    await p.admin('patch', `/api/admin/eggs/${p.eggId}/variables/${version?.id}`).send({ envVariable: 'GAME_VERSION' }).expect(200);
    const env = (await bootEntry()).settings.environment;
    expect(env.GAME_VERSION).toBe('latest');
    expect(env.MINECRAFT_VERSION).toBeUndefined();
    expect(await bootEntry()).toEqual(await freshEntry());
  });

  it('should show the node’s location and a change to that location', async () => {
    await warm();
    const location = (await p.admin('post', '/api/admin/locations').send({ short: 'cache-a' }).expect(201)).body.data;
    await p.admin('patch', `/api/admin/nodes/${p.nodeId}`).send({ locationId: location.id }).expect(200);
    expect((await bootEntry()).settings.environment.P_SERVER_LOCATION).toBe('cache-a');
    await warm();
    await p.admin('patch', `/api/admin/locations/${location.id}`).send({ short: 'cache-b' }).expect(200);
    expect((await bootEntry()).settings.environment.P_SERVER_LOCATION).toBe('cache-b');
  });

  it('should show allocations added, and a port the owner adds and removes', async () => {
    await warm();
    const allocations = (await p.admin('get', `/api/admin/nodes/${p.nodeId}/allocations?perPage=100`).expect(200)).body.data as Json[];
    const free = allocations.filter((a) => !a.assigned);
    await p.admin('patch', `/api/admin/servers/${server.id}/build`).send({ add_allocations: [free[0].id], allocation_limit: 5 }).expect(200);
    const ports = (entry: Json): number[] => Object.values(entry.settings.allocations.mappings as Record<string, number[]>).flat();
    expect(ports(await bootEntry())).toContain(free[0].port);

    await warm();
    await p.admin('patch', `/api/admin/servers/${server.id}/build`).send({ remove_allocations: [free[0].id] }).expect(200);
    expect(ports(await bootEntry())).not.toContain(free[0].port);
    expect(await bootEntry()).toEqual(await freshEntry());
  });

  it('should show a mount attached to the server, and drop it once its node is unlinked', async () => {
    await warm();
    const mount = (await p.admin('post', '/api/admin/mounts').send({ name: 'Maps', source: '/srv/cache-maps', target: '/mnt/maps' }).expect(201)).body.data;
    await p.admin('post', `/api/admin/mounts/${mount.id}/eggs`).send({ eggIds: [p.eggId] }).expect(200);
    await p.admin('post', `/api/admin/mounts/${mount.id}/nodes`).send({ nodeIds: [p.nodeId] }).expect(200);
    await warm();
    await p.admin('put', `/api/admin/servers/${server.id}/mounts/${mount.id}`).expect(200);
    expect((await bootEntry()).settings.mounts).toEqual([{ source: '/srv/cache-maps', target: '/mnt/maps', read_only: false }]);
    await warm();
    await p.admin('delete', `/api/admin/mounts/${mount.id}/nodes/${p.nodeId}`).expect(200);
    expect((await bootEntry()).settings.mounts).toEqual([]);
    await warm();
    await p.admin('post', `/api/admin/mounts/${mount.id}/nodes`).send({ nodeIds: [p.nodeId] }).expect(200);
    await p.admin('patch', `/api/admin/mounts/${mount.id}`).send({ readOnly: true }).expect(200);
    expect((await bootEntry()).settings.mounts).toEqual([{ source: '/srv/cache-maps', target: '/mnt/maps', read_only: true }]);
  });

  it('should leave a deleted server out of the next page', async () => {
    await bootEntry(doomed.uuid);
    expect(p.t.app.get(HotCaches).configs.get(doomed.id)).toBeDefined();
    await p.admin('delete', `/api/admin/servers/${doomed.id}`).expect(204);
    await p.t.app.get(ChangeFeed).caughtUp();
    const res = await p.t.http().get('/api/remote/servers?page=0&per_page=50').set('Authorization', nodeAuth).expect(200);
    expect((res.body.data as Json[]).map((s) => s.uuid)).not.toContain(doomed.uuid);
  });

  if (db === 'postgres') {
    // Another panel process, or the importer, writes where this process's subscriber cannot see:
    // the triggers' notifications drop what it changes.
    it('should hear writes made outside this process, to the server and to its variable values', async () => {
      const sql = p.t.app.get(DataSource);
      await warm();
      await sql.query(`UPDATE server SET memory = 5120 WHERE id = $1`, [server.id]);
      expect((await bootEntry()).settings.build.memory_limit).toBe(5120);
      await warm();
      await sql.query(
        `UPDATE server_variable SET value = 'elsewhere.jar' WHERE server_id = $1 AND variable_id = (SELECT id FROM egg_variable WHERE egg_id = $2 AND env_variable = 'SERVER_JARFILE')`,
        [server.id, p.eggId],
      );
      expect((await bootEntry()).settings.environment.SERVER_JARFILE).toBe('elsewhere.jar');
      await warm();
      await sql.query(`UPDATE location SET short = 'cache-c' WHERE id = (SELECT location_id FROM node WHERE id = $1)`, [p.nodeId]);
      expect((await bootEntry()).settings.environment.P_SERVER_LOCATION).toBe('cache-c');
      expect(await bootEntry()).toEqual(await freshEntry());
    });
  }

  it('should move a transferred server from its old node’s boot list to its new node’s, with the new allocations', async () => {
    const target = await addSimNode(p, 'cache-target', '25700-25709');
    try {
      const targetAuth = `Bearer ${target.sim.configuration.tokenId}.${target.sim.configuration.token}`;
      await bootEntry(mover.uuid);
      expect(p.t.app.get(HotCaches).configs.get(mover.id)).toBeDefined();

      const free = ((await p.admin('get', `/api/admin/nodes/${target.nodeId}/allocations?perPage=100`).expect(200)).body.data as Json[]).filter((a) => !a.assigned);
      await p.admin('post', `/api/admin/servers/${mover.id}/transfer`).send({ nodeId: Number(target.nodeId), allocationId: free[0].id }).expect(202);
      await waitFor(async () => ['completed', 'failed'].includes((await p.admin('get', `/api/admin/servers/${mover.id}/transfer`).expect(200)).body.data.state));
      expect((await p.admin('get', `/api/admin/servers/${mover.id}/transfer`).expect(200)).body.data.state).toBe('completed');

      await p.t.app.get(ChangeFeed).caughtUp();
      const source = await p.t.http().get('/api/remote/servers?page=0&per_page=50').set('Authorization', nodeAuth).expect(200);
      expect((source.body.data as Json[]).map((x) => x.uuid)).not.toContain(mover.uuid);
      const moved = await p.t.http().get('/api/remote/servers?page=0&per_page=50').set('Authorization', targetAuth).expect(200);
      const entry = (moved.body.data as Json[]).find((x) => x.uuid === mover.uuid);
      expect(entry?.settings.allocations.default).toEqual({ ip: '0.0.0.0', port: free[0].port });
      const fromTarget = await p.t.http().get(`/api/remote/servers/${mover.uuid}`).set('Authorization', targetAuth).expect(200);
      expect(entry).toEqual({ uuid: mover.uuid, ...fromTarget.body });
    } finally {
      await target.sim.stop();
    }
  });
});
