import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { EGG_FIXTURES_DIR, eggFixtureFiles } from 'test/utils/fixtures';
import { SimPanel, startSimPanel, waitFor } from 'test/utils/sim-panel';
import { dbKinds } from 'test/utils/test-db';

const hasPaper = eggFixtureFiles().includes('egg-paper.json');

(hasPaper ? describe : describe.skip).each(dbKinds(['postgres']))('administering servers, against the Wings simulator (%s)', (db) => {
  let p: SimPanel;

  beforeAll(async () => {
    p = await startSimPanel(db);
  });

  afterAll(async () => {
    await p?.close();
  });

  const installed = async (id: string): Promise<void> => {
    await p.installed(id);
  };

  it('should refuse an environment that breaks the egg rules, and create nothing', async () => {
    const before = (await p.admin('get', '/api/admin/servers').expect(200)).body.meta.pagination.total;
    const res = await p.admin('post', '/api/admin/servers')
      .send({ name: 'Bad', node_id: p.nodeId, egg_id: p.eggId, memory: 1024, disk: 1024, cpu: 100, environment: { SERVER_JARFILE: 'no spaces allowed.jar', NOPE: '1' } })
      .expect(400);
    expect(res.body).toMatchObject({ statusCode: 400, code: 'VALIDATION_FAILED' });
    expect(res.body.details.map((d: { field: string }) => d.field).sort()).toEqual(['environment.NOPE', 'environment.SERVER_JARFILE']);
    expect((await p.admin('get', '/api/admin/servers').expect(200)).body.meta.pagination.total).toBe(before);
  });

  it('should keep the server as install_failed with the daemon error when the daemon refuses it, naming that server and the daemon address', async () => {
    p.sim.faults.status500 = true;
    let res;
    try {
      res = await p.admin('post', '/api/admin/servers')
        .send({ name: 'Refused', node_id: p.nodeId, egg_id: p.eggId, memory: 1024, disk: 1024, cpu: 100, environment: { SERVER_JARFILE: 'paper.jar' } })
        .expect(500);
    } finally {
      p.sim.faults.status500 = false;
    }
    const list = (await p.admin('get', '/api/admin/servers?perPage=100').expect(200)).body.data;
    const left = list.find((s: { name: string }) => s.name === 'Refused');
    expect(left).toMatchObject({ installStatus: 'install_failed' });
    expect(res.body).toEqual({
      statusCode: 500,
      code: 'DAEMON_HTTP_ERROR',
      message: expect.any(String),
      details: { nodeId: p.nodeId, status: 500, daemonRequestId: expect.any(String), serverId: left.id, serverUuid: left.uuid, serverStatus: 'install_failed', daemonUrl: p.sim.url },
      requestId: expect.any(String),
    });
  });

  it('should keep the id a billing system gives a server, find the server by it, and refuse it twice with 409', async () => {
    const externalId = `billing-${Date.now()}`;
    const { id } = await p.createServer({ name: 'Billed', external_id: externalId });
    const found = await p.admin('get', `/api/admin/servers/external/${externalId}`).expect(200);
    expect(found.body.data).toMatchObject({ id, name: 'Billed', externalId });
    const taken = await p.admin('post', '/api/admin/servers')
      .send({ name: 'Twice', external_id: externalId, node_id: p.nodeId, egg_id: p.eggId, memory: 1024, disk: 1024, cpu: 100, environment: { SERVER_JARFILE: 'paper.jar' } })
      .expect(409);
    expect(taken.body).toMatchObject({ code: 'SERVER_EXTERNAL_ID_TAKEN', message: 'A server with this external id already exists' });
    const renamed = await p.admin('patch', `/api/admin/servers/${id}`).send({ external_id: `${externalId}-2` }).expect(200);
    expect(renamed.body.data.externalId).toBe(`${externalId}-2`);
    await p.admin('get', `/api/admin/servers/external/${externalId}`).expect(404);
  });

  it('should change the build and allocations, and sync the daemon', async () => {
    const { id, uuid } = await p.createServer({ name: 'Build' });
    await installed(id);
    const allocations = (await p.admin('get', `/api/admin/nodes/${p.nodeId}/allocations?perPage=100`).expect(200)).body.data;
    const free = allocations.filter((a: { assigned: boolean }) => !a.assigned).map((a: { id: string }) => a.id);
    const res = await p.admin('patch', `/api/admin/servers/${id}/build`).send({ memory: 4096, cpu: 150, add_allocations: [free[0]] }).expect(200);
    expect(res.body.meta).toEqual({ daemonSynced: true });
    expect(res.body.data).toMatchObject({ limits: { memory: 4096, cpu: 150 } });
    expect(res.body.data.allocations.additional).toHaveLength(1);
    await waitFor(() => p.sim.servers.get(uuid)?.config.build.memory_limit === 4096);
    const mappings = p.sim.servers.get(uuid)?.config.allocations.mappings ?? {};
    expect(Object.values(mappings).flat()).toHaveLength(2);

    // free[0] is now this server's (adding it again changes nothing); 999999 does not exist.
    const taken = await p.admin('patch', `/api/admin/servers/${id}/build`).send({ add_allocations: [free[0], '999999'] }).expect(409);
    expect(taken.body).toMatchObject({ code: 'ALLOCATION_UNAVAILABLE', details: { allocationIds: ['999999'] } });
  });

  it('should suspend (the owner can no longer start it) and unsuspend, syncing the daemon each time', async () => {
    const { id, uuid } = await p.createServer({ name: 'Suspend' });
    await installed(id);
    const suspended = await p.admin('post', `/api/admin/servers/${id}/suspend`).expect(200);
    expect(suspended.body).toMatchObject({ data: { suspended: true }, meta: { daemonSynced: true } });
    await waitFor(() => p.sim.servers.get(uuid)?.config.suspended === true);
    const refused = await p.asOwner('post', `/api/client/servers/${uuid}/power`).send({ action: 'start' }).expect(409);
    expect(refused.body).toMatchObject({ statusCode: 409, code: 'SERVER_SUSPENDED', message: 'The server is suspended' });
    await p.admin('post', `/api/admin/servers/${id}/unsuspend`).expect(200);
    await waitFor(() => p.sim.servers.get(uuid)?.config.suspended === false);
    await p.asOwner('post', `/api/client/servers/${uuid}/power`).send({ action: 'start' }).expect(200);
  });

  it('should save a change and say so when the daemon cannot be synced', async () => {
    const { id } = await p.createServer({ name: 'Offline sync' });
    await installed(id);
    p.sim.faults.down = true;
    try {
      const res = await p.admin('patch', `/api/admin/servers/${id}`).send({ name: 'Renamed' }).expect(200);
      expect(res.body.data.name).toBe('Renamed');
      expect(res.body.meta).toEqual({ daemonSynced: false, syncError: expect.stringMatching(/^daemon unavailable/) });
    } finally {
      p.sim.faults.down = false;
    }
  });

  it('should update startup variables with the egg rules, and reinstall', async () => {
    const { id, uuid } = await p.createServer({ name: 'Startup' });
    await installed(id);
    const bad = await p.admin('patch', `/api/admin/servers/${id}/startup`).send({ environment: { SERVER_JARFILE: 'bad name' } }).expect(400);
    expect(bad.body.details[0].field).toBe('environment.SERVER_JARFILE');
    await p.admin('patch', `/api/admin/servers/${id}/startup`).send({ environment: { SERVER_JARFILE: 'other.jar' } }).expect(200);
    await waitFor(() => p.sim.servers.get(uuid)?.config.environment.SERVER_JARFILE === 'other.jar');

    const installsBefore = p.sim.panel.calls.filter((c) => c.path === `/servers/${uuid}/install` && c.method === 'POST').length;
    const re = await p.admin('post', `/api/admin/servers/${id}/reinstall`).expect(202);
    expect(re.body.data.installStatus).toBe('installing');
    await waitFor(() => p.sim.panel.calls.filter((c) => c.path === `/servers/${uuid}/install` && c.method === 'POST').length > installsBefore);
    await installed(id);
  });

  it("should change a server's egg through its startup: the new egg's variables, its startup command, and the node told; a value the new egg refuses changes nothing", async () => {
    const { id, uuid } = await p.createServer({ name: 'Egg change' });
    await installed(id);
    const paper = (await p.admin('get', `/api/admin/eggs/${p.eggId}`).expect(200)).body.data;
    const vanilla = (await p.admin('post', `/api/admin/eggs/import?nestId=${paper.nestId}`).send(JSON.parse(readFileSync(join(EGG_FIXTURES_DIR, 'egg-vanilla-minecraft.json'), 'utf8'))).expect(201)).body.data;
    const before = (await p.admin('get', `/api/admin/servers/${id}/startup`).expect(200)).body.data;

    const refused = await p.admin('patch', `/api/admin/servers/${id}/startup`).send({ egg_id: vanilla.id, environment: { VANILLA_VERSION: 'x' } }).expect(400);
    expect(refused.body.details.map((d: { field: string }) => d.field)).toEqual(['environment.VANILLA_VERSION']);
    expect((await p.admin('get', `/api/admin/servers/${id}/startup`).expect(200)).body.data).toEqual(before);
    expect((await p.admin('get', `/api/admin/servers/${id}`).expect(200)).body.data.eggId).toBe(p.eggId);

    const changed = await p.admin('patch', `/api/admin/servers/${id}/startup`).send({ egg_id: vanilla.id, environment: { VANILLA_VERSION: '1.20.4' } }).expect(200);
    expect(changed.body.data).toMatchObject({ eggId: vanilla.id, startup: vanilla.startup, image: before.image });
    const after = (await p.admin('get', `/api/admin/servers/${id}/startup`).expect(200)).body.data;
    expect(after.variables.map((v: { envVariable: string; serverValue: string }) => [v.envVariable, v.serverValue])).toEqual([
      ['SERVER_JARFILE', 'server.jar'],
      ['VANILLA_VERSION', '1.20.4'],
    ]);
    // Wings gets the new environment; Paper's variables are gone. The server is not reinstalled.
    await waitFor(() => p.sim.servers.get(uuid)?.config.environment.VANILLA_VERSION === '1.20.4');
    expect(p.sim.servers.get(uuid)?.config.environment.MINECRAFT_VERSION).toBeUndefined();
    expect((await p.admin('get', `/api/admin/servers/${id}`).expect(200)).body.data.installStatus).toBeNull();
    const audit = (await p.admin('get', `/api/admin/audit-logs?targetId=${id}`).expect(200)).body.data;
    expect(audit.find((e: { action: string }) => e.action === 'server.startup.updated').changes).toMatchObject({ before: { eggId: p.eggId }, after: { eggId: vanilla.id } });
    await p.admin('patch', `/api/admin/servers/${id}/startup`).send({ egg_id: '00000000-0000-4000-8000-000000000000' }).expect(404);
  });

  it('should delete on the daemon then here, freeing the allocations; with the daemon down only with force', async () => {
    const { id, uuid } = await p.createServer({ name: 'Doomed' });
    await installed(id);
    p.sim.faults.down = true;
    try {
      const refused = await p.admin('delete', `/api/admin/servers/${id}`).expect(503);
      expect(refused.body.code).toBe('DAEMON_UNAVAILABLE');
      await p.admin('get', `/api/admin/servers/${id}`).expect(200);
      await p.admin('delete', `/api/admin/servers/${id}?force=true`).expect(204);
    } finally {
      p.sim.faults.down = false;
    }
    await p.admin('get', `/api/admin/servers/${id}`).expect(404);
    const rows = await p.t.app.get(DataSource).query('SELECT count(*)::int AS n FROM allocation WHERE server_id = $1', [id]);
    expect(rows[0].n).toBe(0);

    const second = await p.createServer({ name: 'Doomed 2' });
    await installed(second.id);
    await p.admin('delete', `/api/admin/servers/${second.id}`).expect(204);
    expect(p.sim.servers.has(second.uuid)).toBe(false);
    expect(p.sim.servers.has(uuid)).toBe(true); // the forced delete never reached the daemon
  });

  it('should refuse an environment value longer than 4,096 characters, as the client route does, and create nothing', async () => {
    const before = (await p.admin('get', '/api/admin/servers').expect(200)).body.meta.pagination.total;
    // DL_PATH's own rules (nullable|string) set no length limit.
    const res = await p.admin('post', '/api/admin/servers')
      .send({ name: 'Long', node_id: p.nodeId, egg_id: p.eggId, memory: 1024, disk: 1024, cpu: 100, environment: { DL_PATH: 'x'.repeat(4097) } });
    expect([res.status, res.body]).toEqual([
      400,
      {
        statusCode: 400,
        code: 'VALIDATION_FAILED',
        message: 'Validation failed',
        details: [{ field: 'environment.DL_PATH', message: 'DL_PATH must be shorter than or equal to 4096 characters' }],
        requestId: expect.any(String),
      },
    ]);
    expect((await p.admin('get', '/api/admin/servers').expect(200)).body.meta.pagination.total).toBe(before);
  });
});
