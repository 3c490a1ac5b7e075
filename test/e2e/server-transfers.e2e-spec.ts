import { randomBytes } from 'node:crypto';
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import { TransfersCron } from 'src/modules/servers/transfers/transfers.cron';
import { PanelRequestError } from 'test/wings-sim/panel-client';
import { addSimNode, SimNode, startSimPanel, waitFor } from 'test/utils/sim-panel';
import { createPterodactylKey, PTERODACTYL_ACCEPT } from 'test/utils/pterodactyl';
import { dbKinds, DbKind } from 'test/utils/test-db';

// Untyped response bodies, read field by field.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

const transferPath = (serverId: string): string => `/api/admin/servers/${serverId}/transfer`;

/** What every transfer test shares: a panel, the source node (sp.sim) and a target node. */
const setUp = async (db: DbKind) => {
  const sp = await startSimPanel(db);
  const target = await addSimNode(sp, 'sim-target', '25600-25619', 65536, 1_000_000);
  const source: SimNode = { nodeId: sp.nodeId, sim: sp.sim };

  const allocations = async (nodeId: string): Promise<Json[]> => (await sp.admin('get', `/api/admin/nodes/${nodeId}/allocations?perPage=100`).expect(200)).body.data;
  const freeOn = async (nodeId: string): Promise<string[]> => (await allocations(nodeId)).filter((a) => a.serverId === null && a.reservedByTransferId === null).map((a) => a.id);

  /** The ids of the allocations a server holds, on either node. */
  const allocationIdsOf = async (serverId: string): Promise<string[]> =>
    [...(await allocations(source.nodeId)), ...(await allocations(target.nodeId))].filter((a) => a.serverId === serverId).map((a) => a.id);

  /** An installed server with a file in it, on the source node. */
  const newServer = async (): Promise<{ id: string; uuid: string }> => {
    const server = await sp.createServer();
    await sp.installed(server.id);
    const simServer = source.sim.servers.get(server.uuid);
    if (!simServer) {
      throw new Error('the source simulator has no such server');
    }
    await fsp.writeFile(path.join(simServer.fs.root, 'world.txt'), `world of ${server.uuid}`);
    return server;
  };

  const transfer = async (serverId: string): Promise<Json> => (await sp.admin('get', transferPath(serverId)).expect(200)).body.data;
  const reaches = (serverId: string, states: string[]): Promise<Json> =>
    waitFor(async () => {
      const t = await transfer(serverId);
      return states.includes(t.state) ? t : undefined;
    });

  /**
   * The server lives on exactly one node, `on`, with exactly `allocationIds`; nothing is reserved
   * anywhere; it is no longer "transferring"; and a power action reaches that node's simulator.
   */
  const expectWhole = async (server: { id: string; uuid: string }, on: SimNode, allocationIds: string[]): Promise<void> => {
    const other = on === target ? source : target;
    const view = (await sp.admin('get', `/api/admin/servers/${server.id}`).expect(200)).body.data;
    expect(view.nodeId).toBe(on.nodeId);
    expect(view.transferring).toBe(false);
    expect((await allocationIdsOf(server.id)).sort()).toEqual([...allocationIds].sort());
    expect(allocationIds).toContain(view.allocationId);
    for (const nodeId of [source.nodeId, target.nodeId]) {
      expect((await allocations(nodeId)).filter((a) => a.reservedByTransferId !== null)).toEqual([]);
    }
    expect([on.sim.servers.has(server.uuid), other.sim.servers.has(server.uuid)]).toEqual([true, false]);
    const before = [on.sim.requestsTo(`/api/servers/${server.uuid}/power`, 'POST').length, other.sim.requestsTo(`/api/servers/${server.uuid}/power`, 'POST').length];
    const client = (await sp.asOwner('get', `/api/client/servers/${server.uuid}`).expect(200)).body.data;
    expect(client.transferring).toBe(false);
    await sp.asOwner('post', `/api/client/servers/${server.uuid}/power`).send({ action: 'start' }).expect(200);
    expect([on.sim.requestsTo(`/api/servers/${server.uuid}/power`, 'POST').length, other.sim.requestsTo(`/api/servers/${server.uuid}/power`, 'POST').length]).toEqual([
      before[0] + 1,
      before[1],
    ]);
    await sp.asOwner('post', `/api/client/servers/${server.uuid}/power`).send({ action: 'kill' }).expect(200);
  };


  const close = async (): Promise<void> => {
    await target.sim.stop();
    await sp.close();
  };

  return { sp, source, target, freeOn, newServer, transfer, reaches, expectWhole, allocationIdsOf, close };
};

type Setup = Awaited<ReturnType<typeof setUp>>;

/** The transfer's states in order, without the times. */
const statesOf = (t: Json): string[] => t.history.map((s: Json) => s.state);

describe.each(dbKinds(['pglite']))('server transfers (%s)', (db) => {
  let s: Setup;

  beforeAll(async () => {
    s = await setUp(db);
  });

  afterEach(() => {
    s.source.sim.resetFaults();
    s.target.sim.resetFaults();
  });

  afterAll(async () => {
    await s?.close();
  });

  it('should move a server to the target with its new allocations, and tell the old node to delete it', async () => {
    const server = await s.newServer();
    const [primary, extra] = await s.freeOn(s.target.nodeId);
    const started = await s.sp.admin('post', transferPath(server.id)).send({ nodeId: Number(s.target.nodeId), allocationId: primary, additionalAllocationIds: [extra] }).expect(202);
    expect(started.body.data).toMatchObject({ serverId: server.id, oldNodeId: s.source.nodeId, newNodeId: s.target.nodeId, newAllocationId: primary, newAdditionalAllocationIds: [extra], active: expect.any(Boolean) });
    const done = await s.reaches(server.id, ['completed', 'failed']);
    expect(done.state).toBe('completed');
    expect(statesOf(done)[0]).toBe('pending');
    expect(statesOf(done)).toEqual(expect.arrayContaining(['pending', 'restoring', 'completed']));
    expect(statesOf(done).at(-1)).toBe('completed');
    // The archive came across: the file is on the target, and the old node deleted its copy.
    const moved = s.target.sim.servers.get(server.uuid);
    expect(await fsp.readFile(path.join(moved?.fs.root ?? '/nonexistent', 'world.txt'), 'utf8')).toBe(`world of ${server.uuid}`);
    expect(s.source.sim.requestsTo(`/api/servers/${server.uuid}`, 'DELETE')).toHaveLength(1);
    await s.expectWhole(server, s.target, [primary, extra]);
    const activity = (await s.sp.asOwner('get', `/api/client/servers/${server.uuid}/activity`).expect(200)).body.data.map((e: Json) => e.event);
    expect(activity).toEqual(expect.arrayContaining(['server.transfer.started', 'server.transfer.completed']));
    // Moving it back works the same way.
    const [back] = await s.freeOn(s.source.nodeId);
    await s.sp.admin('post', transferPath(server.id)).send({ nodeId: s.source.nodeId, allocationId: back }).expect(202);
    expect((await s.reaches(server.id, ['completed', 'failed'])).state).toBe('completed');
    await s.expectWhole(server, s.source, [back]);
  });

  it('should leave the server whole on its source when the target reports a failure', async () => {
    const server = await s.newServer();
    const before = await s.allocationIdsOf(server.id);
    const [primary] = await s.freeOn(s.target.nodeId);
    s.target.sim.faults.transferTargetFails = true;
    await s.sp.admin('post', transferPath(server.id)).send({ nodeId: s.target.nodeId, allocationId: primary }).expect(202);
    const done = await s.reaches(server.id, ['completed', 'failed']);
    expect([done.state, done.reason, done.active]).toEqual(['failed', 'The target node reported that the transfer failed', false]);
    await s.expectWhole(server, s.source, before);
  });

  it('should fail the transfer when the source goes down mid-stream, and the server works on the source once it is back', async () => {
    const server = await s.newServer();
    const before = await s.allocationIdsOf(server.id);
    const [primary] = await s.freeOn(s.target.nodeId);
    // Enough data that half of it is on the wire when the source dies.
    await fsp.writeFile(path.join(s.source.sim.servers.get(server.uuid)?.fs.root ?? '/nonexistent', 'region.mca'), randomBytes(256 * 1024));
    s.source.sim.faults.transferSourceDiesMidStream = true;
    await s.sp.admin('post', transferPath(server.id)).send({ nodeId: s.target.nodeId, allocationId: primary }).expect(202);
    const done = await s.reaches(server.id, ['completed', 'failed']);
    expect([done.state, done.reason]).toEqual(['failed', 'The target node reported that the transfer failed']);
    // Down, the source cannot be used; back up, it can.
    expect(s.source.sim.faults.down).toBe(true);
    s.source.sim.resetFaults();
    await s.expectWhole(server, s.source, before);
  });

  it('should answer 409 to users while it runs, then fail it once it has been silent past TRANSFER_TIMEOUT_S', async () => {
    const server = await s.newServer();
    const before = await s.allocationIdsOf(server.id);
    const [primary] = await s.freeOn(s.target.nodeId);
    s.target.sim.faults.transferTargetSilent = true;
    await s.sp.admin('post', transferPath(server.id)).send({ nodeId: s.target.nodeId, allocationId: primary }).expect(202);
    await s.reaches(server.id, ['restoring']);
    await waitFor(() => s.target.sim.requestsTo('/api/transfers', 'POST').length > 0 && s.target.sim.servers.get(server.uuid)?.transferring === false);

    // Owners see it and cannot use it; the allocation is held for it.
    const client = (await s.sp.asOwner('get', `/api/client/servers/${server.uuid}`).expect(200)).body.data;
    expect(client.transferring).toBe(true);
    const listed = (await s.sp.asOwner('get', '/api/client/servers').expect(200)).body.data.find((x: Json) => x.uuid === server.uuid);
    expect(listed.transferring).toBe(true);
    const clientKey = (await createPterodactylKey(s.sp.t, s.sp.ownerCookie, 'client')).key;
    const pterodactyl = (await s.sp.t.http().get(`/pterodactyl/api/client/servers/${server.uuid.slice(0, 8)}`).set('Authorization', `Bearer ${clientKey}`).set('Accept', PTERODACTYL_ACCEPT).expect(200)).body;
    expect(pterodactyl.attributes.is_transferring).toBe(true);
    const power = await s.sp.asOwner('post', `/api/client/servers/${server.uuid}/power`).send({ action: 'start' }).expect(409);
    expect(power.body.code).toBe('SERVER_TRANSFERRING');
    await s.sp.asOwner('post', `/api/client/servers/${server.uuid}/settings/reinstall`).expect(409);
    expect((await s.sp.admin('post', transferPath(server.id)).send({ nodeId: s.target.nodeId, allocationId: primary }).expect(409)).body.code).toBe('TRANSFER_ALREADY_ACTIVE');
    const other = await s.newServer();
    expect((await s.sp.admin('post', transferPath(other.id)).send({ nodeId: s.target.nodeId, allocationId: primary }).expect(409)).body.code).toBe('ALLOCATION_UNAVAILABLE');
    expect((await s.sp.admin('delete', `/api/admin/nodes/${s.target.nodeId}/allocations/${primary}`).expect(409)).body.code).toBe('ALLOCATION_RESERVED');
    expect((await s.sp.admin('delete', `/api/admin/servers/${server.id}`).expect(409)).body.code).toBe('SERVER_TRANSFERRING');
    expect((await s.sp.admin('post', `/api/admin/servers/${server.id}/reinstall`).expect(409)).body.code).toBe('SERVER_TRANSFERRING');
    const admin = (await s.sp.admin('get', `/api/admin/servers/${server.id}`).expect(200)).body.data;
    expect(admin.transferring).toBe(true);

    // An hour short of the timeout nothing happens; past it, the sweeper fails it and undoes it.
    const cron = s.sp.t.app.get(TransfersCron);
    const clock = s.sp.t.clock;
    clock.advance(5 * 3600 * 1000);
    await cron.tick();
    expect((await s.transfer(server.id)).state).toBe('restoring');
    clock.advance(3600 * 1000 + 1000);
    await cron.tick();
    const done = await s.transfer(server.id);
    expect([done.state, done.reason]).toEqual(['failed', 'Timed out: no report from the nodes for 21600 s']);
    await s.expectWhole(server, s.source, before);
    // A report that comes after the timeout changes nothing, and the reporting node is told to drop its copy.
    const deletes = s.target.sim.requestsTo(`/api/servers/${server.uuid}`, 'DELETE').length;
    const late = await s.target.sim.panel.request('POST', `/servers/${server.uuid}/transfer/success`).catch((e: unknown) => e);
    expect(late).toBeInstanceOf(PanelRequestError);
    expect((late as PanelRequestError).status).toBe(409);
    await waitFor(() => s.target.sim.requestsTo(`/api/servers/${server.uuid}`, 'DELETE').length === deletes + 1);
    await s.expectWhole(server, s.source, before);
  });

  it('should cancel a transfer: the target deletes its copy and the server stays on its source', async () => {
    const server = await s.newServer();
    const before = await s.allocationIdsOf(server.id);
    const [primary, extra] = await s.freeOn(s.target.nodeId);
    s.target.sim.faults.transferTargetSilent = true;
    await s.sp.admin('post', transferPath(server.id)).send({ nodeId: s.target.nodeId, allocationId: primary, additionalAllocationIds: [extra] }).expect(202);
    await s.reaches(server.id, ['restoring']);
    const cancelled = (await s.sp.admin('delete', transferPath(server.id)).expect(202)).body.data;
    expect([cancelled.state, cancelled.active, statesOf(cancelled).at(-1)]).toEqual(['cancelled', false, 'cancelled']);
    expect(cancelled.reason).toMatch(/^Cancelled by /);
    expect(s.target.sim.requestsTo(`/api/servers/${server.uuid}`, 'DELETE').length).toBeGreaterThan(0);
    await s.expectWhole(server, s.source, before);
    expect((await s.sp.admin('delete', transferPath(server.id)).expect(409)).body.code).toBe('TRANSFER_NOT_ACTIVE');
  });

  it('should refuse a transfer it cannot do, with 4xx and nothing reserved', async () => {
    const server = await s.newServer();
    const before = await s.allocationIdsOf(server.id);
    expect((await s.sp.admin('get', transferPath(server.id)).expect(404)).body.code).toBe('TRANSFER_NOT_FOUND');
    const [free] = await s.freeOn(s.target.nodeId);
    const [sourceFree] = await s.freeOn(s.source.nodeId);
    const post = (body: Json) => s.sp.admin('post', transferPath(server.id)).send(body);
    expect((await post({ nodeId: s.source.nodeId, allocationId: sourceFree }).expect(422)).body.code).toBe('TRANSFER_SAME_NODE');
    expect((await post({ nodeId: '999999', allocationId: free }).expect(422)).body.code).toBe('TRANSFER_TARGET_NODE_NOT_FOUND');
    expect((await post({ nodeId: s.target.nodeId, allocationId: sourceFree }).expect(409)).body).toMatchObject({ code: 'ALLOCATION_UNAVAILABLE', details: { allocationIds: [sourceFree] } });
    expect((await post({ nodeId: s.target.nodeId, allocationId: before[0] }).expect(409)).body.code).toBe('ALLOCATION_UNAVAILABLE');
    expect((await post({ nodeId: s.target.nodeId }).expect(400)).body.code).toBe('VALIDATION_FAILED');
    expect((await post({ nodeId: s.target.nodeId, allocationId: free, additionalAllocationIds: ['x'] }).expect(400)).body.code).toBe('VALIDATION_FAILED');
    // A node without room: 1 GiB of memory for a 2 GiB server.
    const tiny = (await s.sp.admin('post', '/api/admin/nodes').send({ name: 'tiny', fqdn: '127.0.0.2', scheme: 'http', daemonListen: 8080, memory: 1024, disk: 100000, locationId: (await s.sp.admin('get', '/api/admin/locations').expect(200)).body.data[0].id }).expect(201)).body.data;
    const tinyAllocation = (await s.sp.admin('post', `/api/admin/nodes/${tiny.id}/allocations`).send({ ip: '0.0.0.0', ports: ['30000'] }).expect(201)).body.data[0];
    expect((await post({ nodeId: tiny.id, allocationId: tinyAllocation.id }).expect(409)).body.code).toBe('TRANSFER_NO_ROOM');
    // The source refusing (unreachable) fails the transfer at once and answers its error.
    s.source.sim.faults.status500 = true;
    const refused = await post({ nodeId: s.target.nodeId, allocationId: free });
    expect([refused.status >= 500, refused.body.details.transferId]).toEqual([true, expect.any(String)]);
    s.source.sim.resetFaults();
    const failed = await s.transfer(server.id);
    expect([failed.state, failed.reason]).toEqual(['failed', expect.stringMatching(/^The source node refused the transfer/)]);
    await s.expectWhole(server, s.source, before);
  });

  it('should drain a node one server at a time until every server is on the target', async () => {
    const servers = [await s.newServer(), await s.newServer(), await s.newServer()];
    const onSource = (await s.sp.admin('get', `/api/admin/servers?nodeId=${s.source.nodeId}&perPage=100`).expect(200)).body.data.length;
    const started = (await s.sp.admin('post', `/api/admin/nodes/${s.source.nodeId}/drain`).send({ targetNodeIds: [Number(s.target.nodeId)], concurrency: 1 }).expect(202)).body.data;
    expect(started).toMatchObject({ state: 'running', concurrency: 1, total: onSource });
    expect(started.running).toBeLessThanOrEqual(1);
    expect((await s.sp.admin('post', `/api/admin/nodes/${s.source.nodeId}/drain`).send({}).expect(409)).body.code).toBe('DRAIN_ALREADY_RUNNING');
    const done = await waitFor(async () => {
      const d = (await s.sp.admin('get', `/api/admin/nodes/${s.source.nodeId}/drain`).expect(200)).body.data;
      expect(d.running).toBeLessThanOrEqual(1);
      return d.state === 'finished' ? d : undefined;
    }, 30_000);
    expect(done.servers.filter((x: Json) => x.state !== 'completed')).toEqual([]);
    expect(done).toMatchObject({ total: onSource, completed: onSource, failed: 0, queued: 0, unplaced: 0, running: 0 });
    for (const server of servers) {
      expect((await s.sp.admin('get', `/api/admin/servers/${server.id}`).expect(200)).body.data.nodeId).toBe(s.target.nodeId);
      expect(s.target.sim.servers.has(server.uuid)).toBe(true);
    }
    expect((await s.sp.admin('get', `/api/admin/servers?nodeId=${s.source.nodeId}`).expect(200)).body.data).toEqual([]);
    expect((await s.sp.admin('delete', `/api/admin/nodes/${s.source.nodeId}/drain`).expect(409)).body.code).toBe('DRAIN_NOT_RUNNING');
    expect((await s.sp.admin('post', `/api/admin/nodes/${s.source.nodeId}/drain`).send({ targetNodeIds: [s.source.nodeId] }).expect(422)).body.code).toBe('DRAIN_TARGETS_INVALID');
    // Servers no node can take are reported, not skipped: the tiny node has room for none of them.
    const locationId = (await s.sp.admin('get', '/api/admin/locations').expect(200)).body.data[0].id;
    const tiny = (await s.sp.admin('post', '/api/admin/nodes').send({ name: 'tiny-drain', fqdn: '127.0.0.3', scheme: 'http', daemonListen: 8080, memory: 1024, disk: 100000, locationId }).expect(201)).body.data;
    await s.sp.admin('post', `/api/admin/nodes/${tiny.id}/allocations`).send({ ip: '0.0.0.0', ports: ['30000-30010'] }).expect(201);
    const stuck = (await s.sp.admin('post', `/api/admin/nodes/${s.target.nodeId}/drain`).send({ targetNodeIds: [tiny.id], concurrency: 3 }).expect(202)).body.data;
    expect(stuck).toMatchObject({ state: 'finished', total: onSource, unplaced: onSource, completed: 0, running: 0 });
    expect(stuck.servers[0]).toMatchObject({ state: 'unplaced', reason: 'No node has room for it (memory and disk within overallocation) and a free allocation' });
  });
});

describe.each(dbKinds(['postgres']))('server transfers (%s)', (db) => {
  let s: Setup;

  beforeAll(async () => {
    s = await setUp(db);
  });

  afterAll(async () => {
    await s?.close();
  });

  it('should move a server to the target node and swap its allocations', async () => {
    const server = await s.newServer();
    const [primary] = await s.freeOn(s.target.nodeId);
    await s.sp.admin('post', transferPath(server.id)).send({ nodeId: s.target.nodeId, allocationId: primary }).expect(202);
    expect((await s.reaches(server.id, ['completed', 'failed'])).state).toBe('completed');
    await s.expectWhole(server, s.target, [primary]);
  });
});
