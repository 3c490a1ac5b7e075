import { eggFixtureFiles } from 'test/utils/fixtures';
import { SimPanel, startSimPanel } from 'test/utils/sim-panel';
import { dbKinds } from 'test/utils/test-db';

const hasPaper = eggFixtureFiles().includes('egg-paper.json');

interface Allocation {
  id: string;
  ip: string;
  alias: string | null;
  port: number;
  notes: string | null;
  isDefault: boolean;
}

(hasPaper ? describe : describe.skip).each(dbKinds(['postgres']))('the network tab: allocation notes and the primary allocation (%s)', (db) => {
  let p: SimPanel;
  let server: { id: string; uuid: string };
  let other: { id: string; uuid: string };
  let base: string;
  /** The node's allocations by port. */
  const byPort = new Map<number, string>();

  const allocations = async (): Promise<Allocation[]> => (await p.asOwner('get', `${base}/network/allocations`).expect(200)).body.data;
  const activity = async () => (await p.asOwner('get', `${base}/activity`).expect(200)).body.data as { event: string; metadata: unknown }[];

  beforeAll(async () => {
    p = await startSimPanel(db);
    for (const a of (await p.admin('get', `/api/admin/nodes/${p.nodeId}/allocations`).expect(200)).body.data as { id: string; port: number }[]) {
      byPort.set(a.port, a.id);
    }
    server = await p.createServer({ name: 'Network', allocation_id: byPort.get(25565), additional_allocation_ids: [byPort.get(25566), byPort.get(25567)] });
    other = await p.createServer({ name: 'Other', allocation_id: byPort.get(25570) });
    base = `/api/client/servers/${server.uuid}`;
    await p.installed(server.id);
    await p.installed(other.id);
  });

  afterAll(async () => {
    await p?.close();
  });

  it("should list the server's allocations in address order with the primary marked", async () => {
    expect(await allocations()).toEqual([25565, 25566, 25567].map((port) => ({ id: byPort.get(port), ip: '0.0.0.0', alias: null, port, notes: null, isDefault: port === 25565 })));
  });

  it('should set notes (trimmed), log old and new, and clear them with null or blanks', async () => {
    const id = byPort.get(25566)!;
    const res = await p.asOwner('post', `${base}/network/allocations/${id}`).send({ notes: '  Voice chat  ' }).expect(200);
    expect(res.body).toEqual({ data: { id, ip: '0.0.0.0', alias: null, port: 25566, notes: 'Voice chat', isDefault: false } });
    expect((await allocations()).find((a) => a.id === id)?.notes).toBe('Voice chat');
    expect((await activity())[0]).toMatchObject({ event: 'server.allocation.notes', metadata: { allocation: '0.0.0.0:25566', old: null, new: 'Voice chat' } });

    await p.asOwner('post', `${base}/network/allocations/${id}`).send({ notes: 'Voice chat' }).expect(200);
    expect((await activity())[0]).toMatchObject({ metadata: { new: 'Voice chat', old: null } });

    expect((await p.asOwner('post', `${base}/network/allocations/${id}`).send({ notes: '   ' }).expect(200)).body.data.notes).toBeNull();
    await p.asOwner('post', `${base}/network/allocations/${id}`).send({ notes: 'Map' }).expect(200);
    expect((await p.asOwner('post', `${base}/network/allocations/${id}`).send({ notes: null }).expect(200)).body.data.notes).toBeNull();
    expect((await activity())[0]).toMatchObject({ event: 'server.allocation.notes', metadata: { old: 'Map', new: null } });
  });

  it('should refuse notes longer than 191 characters or not text', async () => {
    const id = byPort.get(25566)!;
    const long = await p.asOwner('post', `${base}/network/allocations/${id}`).send({ notes: 'x'.repeat(192) }).expect(400);
    expect(long.body).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ field: 'notes' }] });
    await p.asOwner('post', `${base}/network/allocations/${id}`).send({ notes: 'x'.repeat(191) }).expect(200);
    expect((await p.asOwner('post', `${base}/network/allocations/${id}`).send({ notes: 5 }).expect(400)).body.code).toBe('VALIDATION_FAILED');
  });

  it('should make another allocation primary: the details, the daemon configuration and the log follow', async () => {
    const id = byPort.get(25567)!;
    const syncs = p.sim.requestsTo(`/api/servers/${server.uuid}/sync`, 'POST').length;
    const res = await p.asOwner('post', `${base}/network/allocations/${id}/primary`).expect(200);
    expect(res.body.data).toMatchObject({ id, port: 25567, isDefault: true });
    expect((await allocations()).filter((a) => a.isDefault).map((a) => a.port)).toEqual([25567]);
    expect((await p.asOwner('get', base).expect(200)).body.data.allocations.primary).toMatchObject({ port: 25567 });
    expect(p.sim.requestsTo(`/api/servers/${server.uuid}/sync`, 'POST')).toHaveLength(syncs + 1);
    expect(p.sim.servers.get(server.uuid)?.config.allocations.default.port).toBe(25567);
    expect((await activity())[0]).toMatchObject({ event: 'server.allocation.primary', metadata: { allocation: '0.0.0.0:25567' } });

    // Again on the primary one: nothing changes, nothing is logged, the daemon is not called.
    const entries = (await activity()).length;
    await p.asOwner('post', `${base}/network/allocations/${id}/primary`).expect(200);
    expect(p.sim.requestsTo(`/api/servers/${server.uuid}/sync`, 'POST')).toHaveLength(syncs + 1);
    expect(await activity()).toHaveLength(entries);
  });

  it('should keep the change when the daemon is down: Wings reads it before the next start', async () => {
    const syncs = p.sim.requestsTo(`/api/servers/${server.uuid}/sync`, 'POST').length;
    p.sim.faults.down = true;
    try {
      await p.asOwner('post', `${base}/network/allocations/${byPort.get(25565)}/primary`).expect(200);
    } finally {
      p.sim.resetFaults();
    }
    expect(p.sim.requestsTo(`/api/servers/${server.uuid}/sync`, 'POST')).toHaveLength(syncs);
    expect((await allocations()).find((a) => a.isDefault)?.port).toBe(25565);
  });

  it("should answer 404 for another server's allocation, a free one, an unknown id and a malformed one, and change nothing", async () => {
    const before = await allocations();
    for (const id of [byPort.get(25570), byPort.get(25571), '999999', 'abc', '0']) {
      expect((await p.asOwner('post', `${base}/network/allocations/${id}`).send({ notes: 'mine' }).expect(404)).body.code).toBe('ALLOCATION_NOT_FOUND');
      expect((await p.asOwner('post', `${base}/network/allocations/${id}/primary`).expect(404)).body.code).toBe('ALLOCATION_NOT_FOUND');
    }
    expect(await allocations()).toEqual(before);
    const others = (await p.asOwner('get', `/api/client/servers/${other.uuid}/network/allocations`).expect(200)).body.data as Allocation[];
    expect(others).toEqual([expect.objectContaining({ port: 25570, notes: null, isDefault: true })]);
  });

  it('should let a subuser with allocation.update change them, and refuse one with only allocation.read', async () => {
    const reader = await p.newUser();
    const editor = await p.newUser();
    await p.asOwner('post', `${base}/users`).send({ email: reader.user.email, permissions: ['server.allocation.read'] }).expect(201);
    await p.asOwner('post', `${base}/users`).send({ email: editor.user.email, permissions: ['server.allocation.read', 'server.allocation.update'] }).expect(201);
    const id = byPort.get(25566)!;
    expect((await reader.as('get', `${base}/network/allocations`).expect(200)).body.data).toHaveLength(3);
    expect((await reader.as('post', `${base}/network/allocations/${id}`).send({ notes: 'no' }).expect(403)).body.code).toBe('SERVER_PERMISSION_DENIED');
    expect((await reader.as('post', `${base}/network/allocations/${id}/primary`).expect(403)).body.code).toBe('SERVER_PERMISSION_DENIED');
    await editor.as('post', `${base}/network/allocations/${id}`).send({ notes: 'By the editor' }).expect(200);
    await editor.as('post', `${base}/network/allocations/${id}/primary`).expect(200);
    expect((await allocations()).find((a) => a.isDefault)).toMatchObject({ id, notes: 'By the editor' });
    expect((await activity())[0]).toMatchObject({ event: 'server.allocation.primary' });
  });

  describe('adding and removing allocations', () => {
    let small: { id: string; uuid: string };
    let smallBase: string;
    const smallAllocations = async (): Promise<Allocation[]> => (await p.asOwner('get', `${smallBase}/network/allocations`).expect(200)).body.data;

    beforeAll(async () => {
      small = await p.createServer({ name: 'Small', allocation_id: byPort.get(25572), allocation_limit: 2 });
      smallBase = `/api/client/servers/${small.uuid}`;
      await p.installed(small.id);
    });

    it('should add the lowest free allocation on the primary IP up to the limit, tell the daemon, and log it', async () => {
      const syncs = p.sim.requestsTo(`/api/servers/${small.uuid}/sync`, 'POST').length;
      const res = await p.asOwner('post', `${smallBase}/network/allocations`).expect(201);
      // 25565-25567 are the first server's, 25570 the other's: the lowest free one is 25568.
      expect(res.body).toEqual({ data: { id: byPort.get(25568), ip: '0.0.0.0', alias: null, port: 25568, notes: null, isDefault: false } });
      expect((await smallAllocations()).map((a) => a.port)).toEqual([25568, 25572]);
      expect(p.sim.requestsTo(`/api/servers/${small.uuid}/sync`, 'POST')).toHaveLength(syncs + 1);
      expect((await p.asOwner('get', `${smallBase}/activity`).expect(200)).body.data[0]).toMatchObject({ event: 'server.allocation.create', metadata: { allocation: '0.0.0.0:25568' } });

      const full = await p.asOwner('post', `${smallBase}/network/allocations`).expect(409);
      expect(full.body).toMatchObject({ code: 'ALLOCATION_LIMIT_REACHED', message: 'This server has reached its allocation limit (2)' });
      expect(await smallAllocations()).toHaveLength(2);
    });

    it('should remove an allocation back to the node (notes cleared), but never the primary one', async () => {
      const id = byPort.get(25568)!;
      await p.asOwner('post', `${smallBase}/network/allocations/${id}`).send({ notes: 'temporary' }).expect(200);
      const primary = await p.asOwner('delete', `${smallBase}/network/allocations/${byPort.get(25572)}`).expect(409);
      expect(primary.body.code).toBe('ALLOCATION_IS_PRIMARY');
      await p.asOwner('delete', `${smallBase}/network/allocations/${id}`).expect(204);
      expect((await smallAllocations()).map((a) => a.port)).toEqual([25572]);
      const onNode = ((await p.admin('get', `/api/admin/nodes/${p.nodeId}/allocations`).expect(200)).body.data as { id: string; serverId: string | null; notes: string | null }[]).find((a) => a.id === id);
      expect(onNode).toMatchObject({ serverId: null, notes: null });
      expect((await p.asOwner('get', `${smallBase}/activity`).expect(200)).body.data[0]).toMatchObject({ event: 'server.allocation.delete', metadata: { allocation: '0.0.0.0:25568' } });
      // Another server's allocation is not this one's to remove.
      expect((await p.asOwner('delete', `${smallBase}/network/allocations/${byPort.get(25565)}`).expect(404)).body.code).toBe('ALLOCATION_NOT_FOUND');
    });

    it('should leave the allocations to administrators at a limit of 0', async () => {
      // The first server was made without a limit (0).
      expect((await p.asOwner('post', `${base}/network/allocations`).expect(409)).body.code).toBe('ALLOCATIONS_ADMIN_ONLY');
      expect((await p.asOwner('delete', `${base}/network/allocations/${byPort.get(25566)}`).expect(409)).body.code).toBe('ALLOCATIONS_ADMIN_ONLY');
      expect(await allocations()).toHaveLength(3);
    });

    it('should say so when the node has no free allocation left', async () => {
      await p.admin('patch', `/api/admin/servers/${small.id}/build`).send({ allocation_limit: 20 }).expect(200);
      const taken: string[] = [];
      try {
        for (;;) {
          const res = await p.asOwner('post', `${smallBase}/network/allocations`);
          if (res.status !== 201) {
            expect(res.status).toBe(409);
            expect(res.body.code).toBe('NO_FREE_ALLOCATION');
            break;
          }
          taken.push(res.body.data.id);
        }
        expect(taken.length).toBeGreaterThan(0);
      } finally {
        for (const id of taken) {
          await p.asOwner('delete', `${smallBase}/network/allocations/${id}`).expect(204);
        }
      }
    });

    it('should need allocation.create and allocation.delete', async () => {
      const updater = await p.newUser();
      await p.asOwner('post', `${smallBase}/users`).send({ email: updater.user.email, permissions: ['server.allocation.read', 'server.allocation.update'] }).expect(201);
      expect((await updater.as('post', `${smallBase}/network/allocations`).expect(403)).body.code).toBe('SERVER_PERMISSION_DENIED');
      const added = (await p.asOwner('post', `${smallBase}/network/allocations`).expect(201)).body.data.id as string;
      expect((await updater.as('delete', `${smallBase}/network/allocations/${added}`).expect(403)).body.code).toBe('SERVER_PERMISSION_DENIED');
      await p.asOwner('delete', `${smallBase}/network/allocations/${added}`).expect(204);
    });
  });
});
