import { DataSource } from 'typeorm';
import { AllocationEntity } from 'src/modules/nodes/allocation.entity';
import { UserEntity } from 'src/modules/users/user.entity';
import { createEgg, createNest, createServerUsing } from 'test/factories/egg.factory';
import { createUser } from 'test/factories/user.factory';
import { createApiKey, signIn } from 'test/utils/auth';
import { createTestApp, TEST_ORIGIN, TestApp } from 'test/utils/create-test-app';
import { ADMIN_REQUIRED, DECIMAL_ID, expectError, expectValidation, Json, loadNode, LOOPBACK, Method, missingScope } from 'test/utils/nodes';
import { dbKinds } from 'test/utils/test-db';

const NODES = '/api/admin/nodes';
const AUDIT = '/api/admin/audit-logs';
const ALLOCATION_NOT_FOUND = ['ALLOCATION_NOT_FOUND', 'Allocation not found'] as const;
const PORT_BOUNDS = 'ports must be between 1024 and 65535';

let seq = 0;

describe.each(dbKinds(['postgres']))('admin node allocations (%s)', (db) => {
  let t: TestApp;
  let admin: UserEntity;
  let cookie: string;

  const as = (method: Method, path: string, c = cookie) => t.http()[method](path).set('Cookie', c).set('Origin', TEST_ORIGIN);
  const ds = () => t.app.get(DataSource);
  const allocationsPath = (nodeId: string) => `${NODES}/${nodeId}/allocations`;
  const rowsOf = (nodeId: string) => ds().getRepository(AllocationEntity).find({ where: { nodeId }, order: { ip: 'ASC', port: 'ASC' } });
  const countRows = async (table: 'allocation' | 'audit_log' | 'node'): Promise<number> =>
    (await ds().query<{ n: number }[]>(`SELECT count(*)::int AS n FROM ${table}`))[0].n;
  const state = async () => ({ allocations: await countRows('allocation'), audit: await countRows('audit_log'), nodes: await countRows('node') });
  const auditOf = async (targetType: string, targetId: string): Promise<Json[]> =>
    (await as('get', `${AUDIT}?targetType=${targetType}&targetId=${targetId}`).expect(200)).body.data;
  const auditEntry = (action: string, target: { type: string; id: string }, changes: Json): Json => ({
    id: expect.stringMatching(DECIMAL_ID),
    actor: { id: admin.id, username: admin.username, via: 'session' },
    action,
    // The current name of the target, or the one the entry recorded; an egg variable's egg as its parent.
    target: { name: expect.any(String), parentId: ['egg_variable', 'allocation'].includes(target.type) ? expect.any(String) : null, ...target },
    changes,
    ip: expect.stringMatching(LOOPBACK),
    createdAt: t.clock.now().toISOString(),
  });

  /** The response body of an allocation, from its stored row. */
  const allocationBody = (a: AllocationEntity): Json => ({
    id: a.id,
    ip: a.ip,
    port: a.port,
    alias: a.alias,
    notes: a.notes,
    serverId: a.serverId,
    assigned: a.serverId !== null,
    reservedByTransferId: a.reservedByTransferId,
  });

  const createNode = async (): Promise<Json> =>
    (await as('post', NODES).send({ name: 'alloc node', fqdn: `alloc${++seq}-${process.pid}.example.test`, memory: 1024, disk: 1024 }).expect(201)).body.data;
  const allocate = async (nodeId: string, ip: string, ports: string[]): Promise<Json[]> =>
    (await as('post', allocationsPath(nodeId)).send({ ip, ports }).expect(201)).body.data;
  /** Puts a server of the node on the allocation (its primary one), as server creation will. */
  const assignToServer = async (nodeId: string, allocationId: string): Promise<string> => {
    const owner = await createUser(t.app);
    const egg = await createEgg(t.app, (await createNest(t.app)).id);
    const server = await createServerUsing(t.app, egg.id, owner.id);
    await ds().query('UPDATE server SET node_id = $1, allocation_id = $2 WHERE id = $3', [nodeId, allocationId, server.id]);
    await ds().query('UPDATE allocation SET server_id = $1 WHERE id = $2', [server.id, allocationId]);
    return server.id;
  };

  beforeAll(async () => {
    t = await createTestApp({ db });
    admin = await createUser(t.app, { admin: true });
    cookie = await signIn(t, admin.email);
  });

  afterAll(async () => {
    await t.close();
  });

  describe('create', () => {
    it('should expand single ports and ranges into one row each, sorted by port, and record allocation.created', async () => {
      const node = await createNode();
      const before = await state();
      const res = await as('post', allocationsPath(node.id)).send({ ip: '10.0.0.5', ports: ['25570-25572', '25565'], alias: 'mc.example.test' }).expect(201);
      const row = (port: number) => ({ id: expect.stringMatching(DECIMAL_ID), ip: '10.0.0.5', port, alias: 'mc.example.test', notes: null, serverId: null, assigned: false, reservedByTransferId: null });
      expect(res.body).toEqual({ data: [row(25565), row(25570), row(25571), row(25572)] });
      const stored = await rowsOf(node.id);
      expect(res.body.data).toEqual(stored.map(allocationBody));
      expect(new Set(stored.map((a) => a.id)).size).toBe(4);
      expect(await state()).toEqual({ ...before, allocations: before.allocations + 4, audit: before.audit + 1 });
      expect((await auditOf('node', node.id))[0]).toEqual(
        auditEntry('allocation.created', { type: 'node', id: node.id }, { after: { ip: '10.0.0.5', ports: ['25570-25572', '25565'], count: 4 } }),
      );
    });

    it('should create a port named twice once, and store alias null when none is given', async () => {
      const node = await createNode();
      const res = await as('post', allocationsPath(node.id)).send({ ip: '10.0.0.6', ports: ['25565', '25565-25566', '25566'] }).expect(201);
      expect(res.body.data.map((a: Json) => [a.port, a.alias])).toEqual([
        [25565, null],
        [25566, null],
      ]);
      expect(await rowsOf(node.id)).toHaveLength(2);
    });

    it('should accept the bounds: ports 1024 and 65535, a range of exactly 1000 ports, and an IPv6 address', async () => {
      const node = await createNode();
      expect((await allocate(node.id, '10.0.0.7', ['1024', '65535'])).map((a) => a.port)).toEqual([1024, 65535]);
      const range = await allocate(node.id, '10.0.0.7', ['30000-30999']);
      expect(range).toHaveLength(1000);
      expect([range[0].port, range[999].port]).toEqual([30000, 30999]);
      expect((await allocate(node.id, '2001:db8::1', ['25565']))[0]).toMatchObject({ ip: '2001:db8::1', port: 25565 });
      expect(await rowsOf(node.id)).toHaveLength(1003);
    });

    it('should store one spelling of an IPv6 address, so another spelling cannot take the same port', async () => {
      const node = await createNode();
      expect((await allocate(node.id, '2001:DB8:0:0::1', ['25565']))[0]).toMatchObject({ ip: '2001:db8::1', port: 25565 });
      const res = await as('post', `/api/admin/nodes/${node.id}/allocations`).send({ ip: '2001:db8::1', ports: ['25565'] }).expect(409);
      expect(res.body).toMatchObject({ code: 'ALLOCATION_EXISTS', details: { ip: '2001:db8::1', ports: [25565] } });
    });

    it('should answer 409 ALLOCATION_EXISTS naming the taken ports and insert none of the request (all or nothing)', async () => {
      const node = await createNode();
      await allocate(node.id, '10.0.0.8', ['25565', '25568']);
      const stored = await rowsOf(node.id);
      const before = await state();
      const res = await as('post', allocationsPath(node.id)).send({ ip: '10.0.0.8', ports: ['25560-25570'] });
      expect([res.status, res.body]).toEqual([
        409,
        {
          statusCode: 409,
          code: 'ALLOCATION_EXISTS',
          message: 'Some of these ports are already allocated on this IP',
          details: { ip: '10.0.0.8', ports: [25565, 25568] },
          requestId: expect.any(String),
        },
      ]);
      expect(await rowsOf(node.id)).toEqual(stored);
      expect(await state()).toEqual(before);
    });

    it('should allow the same port on another IP of the node and on another node', async () => {
      const node = await createNode();
      const other = await createNode();
      await allocate(node.id, '10.0.0.9', ['25565']);
      await allocate(node.id, '10.0.0.10', ['25565']);
      await allocate(other.id, '10.0.0.9', ['25565']);
      expect((await rowsOf(node.id)).map((a) => `${a.ip}:${a.port}`)).toEqual(['10.0.0.10:25565', '10.0.0.9:25565']);
      expect(await rowsOf(other.id)).toHaveLength(1);
    });

    it.each([
      ['port 80', { ports: ['80'] }, [{ field: 'ports', message: `80: ${PORT_BOUNDS}` }]],
      ['port 1023', { ports: ['25565', '1023'] }, [{ field: 'ports', message: `1023: ${PORT_BOUNDS}` }]],
      ['port 65536', { ports: ['65536'] }, [{ field: 'ports', message: `65536: ${PORT_BOUNDS}` }]],
      ['a range reaching below 1024', { ports: ['1000-1100'] }, [{ field: 'ports', message: `1000-1100: ${PORT_BOUNDS}` }]],
      ['a range reaching above 65535', { ports: ['65500-65600'] }, [{ field: 'ports', message: `65500-65600: ${PORT_BOUNDS}` }]],
      ['a range of 1001 ports', { ports: ['25000-26000'] }, [{ field: 'ports', message: '25000-26000: a range may hold at most 1000 ports' }]],
      ['a reversed range', { ports: ['25580-25570'] }, [{ field: 'ports', message: '25580-25570: a range must go from the lower to the higher port' }]],
      ['a port that is not a number', { ports: ['minecraft'] }, [{ field: 'ports', message: 'each port must be a number or a range such as 25570-25580' }]],
      ['an open range', { ports: ['25565-'] }, [{ field: 'ports', message: 'each port must be a number or a range such as 25570-25580' }]],
      ['a port as a number', { ports: [25565] }, [{ field: 'ports', message: 'each port must be a number or a range such as 25570-25580' }]],
      ['ports as a string', { ports: '25565' }, [{ field: 'ports', message: 'ports must be an array' }]],
      ['no ports', { ports: [] }, [{ field: 'ports', message: 'ports must contain at least 1 elements' }]],
      ['a bad ip', { ip: 'not-an-ip' }, [{ field: 'ip', message: 'ip must be an ip address' }]],
      ['an ip out of range', { ip: '10.0.0.256' }, [{ field: 'ip', message: 'ip must be an ip address' }]],
      ['a host name as ip', { ip: 'node.example.test' }, [{ field: 'ip', message: 'ip must be an ip address' }]],
      ['no ip', { ip: undefined }, [{ field: 'ip', message: 'ip must be an ip address' }]],
      ['an alias of 192 characters', { alias: 'a'.repeat(192) }, [{ field: 'alias', message: 'alias must be shorter than or equal to 191 characters' }]],
      ['an unknown field', { serverId: '1' }, [{ field: 'serverId', message: 'property serverId should not exist' }]],
    ])('should answer 400 VALIDATION_FAILED and insert nothing when the body has %s', async (_label, override, details) => {
      const node = await createNode();
      const before = await state();
      const body = Object.fromEntries(Object.entries({ ip: '10.0.0.11', ports: ['25565'], ...override }).filter(([, v]) => v !== undefined));
      expectValidation(await as('post', allocationsPath(node.id)).send(body), details);
      expect(await state()).toEqual(before);
    });
  });

  describe('list', () => {
    it('should list the allocations of one node only, ordered by ip then port, paginated', async () => {
      const node = await createNode();
      const other = await createNode();
      await allocate(node.id, '10.0.1.2', ['25567', '25565']);
      await allocate(node.id, '10.0.1.1', ['25566']);
      await allocate(other.id, '10.0.1.1', ['25565']);
      const stored = (await rowsOf(node.id)).map(allocationBody);
      expect(stored.map((a) => `${a.ip}:${a.port}`)).toEqual(['10.0.1.1:25566', '10.0.1.2:25565', '10.0.1.2:25567']);
      expect((await as('get', allocationsPath(node.id)).expect(200)).body).toEqual({
        data: stored,
        meta: { pagination: { total: 3, count: 3, perPage: 50, currentPage: 1, totalPages: 1 } },
      });
      expect((await as('get', `${allocationsPath(node.id)}?perPage=2&page=2`).expect(200)).body).toEqual({
        data: [stored[2]],
        meta: { pagination: { total: 3, count: 1, perPage: 2, currentPage: 2, totalPages: 2 } },
      });
      expect((await as('get', `${allocationsPath(node.id)}?perPage=2&page=3`).expect(200)).body).toEqual({
        data: [],
        meta: { pagination: { total: 3, count: 0, perPage: 2, currentPage: 3, totalPages: 2 } },
      });
    });

    it('should show an allocation that belongs to a server as assigned, with its serverId', async () => {
      const node = await createNode();
      const [allocation] = await allocate(node.id, '10.0.1.3', ['25565']);
      const serverId = await assignToServer(node.id, allocation.id);
      const res = await as('get', allocationsPath(node.id)).expect(200);
      expect(res.body.data).toEqual([{ ...allocation, serverId, assigned: true }]);
    });
  });

  describe('delete', () => {
    it('should answer 204, remove the allocation and record allocation.deleted', async () => {
      const node = await createNode();
      const [keep, drop] = await allocate(node.id, '10.0.2.1', ['25565', '25566']);
      const before = await state();
      const res = await as('delete', `${allocationsPath(node.id)}/${drop.id}`).expect(204);
      expect(res.text).toBe('');
      expect((await rowsOf(node.id)).map(allocationBody)).toEqual([keep]);
      expect(await state()).toEqual({ ...before, allocations: before.allocations - 1, audit: before.audit + 1 });
      expect(await auditOf('allocation', drop.id)).toEqual([
        auditEntry('allocation.deleted', { type: 'allocation', id: drop.id }, { before: { nodeId: node.id, ip: '10.0.2.1', port: 25566 } }),
      ]);
      expectError(await as('delete', `${allocationsPath(node.id)}/${drop.id}`), 404, ...ALLOCATION_NOT_FOUND);
    });

    it('should answer 404 ALLOCATION_NOT_FOUND for an unknown id, a malformed id, and an allocation of another node', async () => {
      const node = await createNode();
      const other = await createNode();
      const [foreign] = await allocate(other.id, '10.0.2.2', ['25565']);
      const before = await state();
      for (const id of ['999999999', 'abc', '0', foreign.id]) {
        const res = await as('delete', `${allocationsPath(node.id)}/${id}`);
        expect([id, res.status]).toEqual([id, 404]);
        expectError(res, 404, ...ALLOCATION_NOT_FOUND);
      }
      expect(await state()).toEqual(before);
      expect(await rowsOf(other.id)).toHaveLength(1);
    });

    it('should answer 409 ALLOCATION_ASSIGNED and keep an allocation that belongs to a server', async () => {
      const node = await createNode();
      const [allocation] = await allocate(node.id, '10.0.2.3', ['25565']);
      await assignToServer(node.id, allocation.id);
      const before = await state();
      expectError(
        await as('delete', `${allocationsPath(node.id)}/${allocation.id}`),
        409,
        'ALLOCATION_ASSIGNED',
        'The allocation belongs to a server; remove it from the server first',
      );
      expect(await rowsOf(node.id)).toHaveLength(1);
      expect(await state()).toEqual(before);
    });
  });

  describe('node deletion', () => {
    it('should answer 204 and delete the allocations with the node when it has no servers', async () => {
      const node = await createNode();
      await allocate(node.id, '10.0.3.1', ['25565-25569']);
      expect(await rowsOf(node.id)).toHaveLength(5);
      await as('delete', `${NODES}/${node.id}`).expect(204);
      expect(await loadNode(t, node.id)).toBeNull();
      expect(await rowsOf(node.id)).toEqual([]);
    });

    it('should answer 409 NODE_HAS_SERVERS and keep the node and its allocations while a server is on it', async () => {
      const node = await createNode();
      const [allocation] = await allocate(node.id, '10.0.3.2', ['25565', '25566']);
      await assignToServer(node.id, allocation.id);
      const before = await state();
      expectError(await as('delete', `${NODES}/${node.id}`), 409, 'NODE_HAS_SERVERS', 'The node still has servers and cannot be deleted');
      expect(await loadNode(t, node.id)).not.toBeNull();
      expect(await rowsOf(node.id)).toHaveLength(2);
      expect(await state()).toEqual(before);
    });
  });

  describe('authorization', () => {
    it('should let a nodes.read key list but answer 403 MISSING_SCOPE nodes.write on create and delete', async () => {
      const node = await createNode();
      const [allocation] = await allocate(node.id, '10.0.4.1', ['25565']);
      const key = await createApiKey(t, cookie, { permissions: ['nodes.read'] });
      const list = await t.http().get(allocationsPath(node.id)).set('x-api-key', key).expect(200);
      expect(list.body.data).toEqual([allocation]);
      const before = await state();
      const create = await t.http().post(allocationsPath(node.id)).set('x-api-key', key).send({ ip: '10.0.4.1', ports: ['25566'] });
      expect([create.status, create.body]).toEqual([403, missingScope('nodes.write')]);
      const remove = await t.http().delete(`${allocationsPath(node.id)}/${allocation.id}`).set('x-api-key', key);
      expect([remove.status, remove.body]).toEqual([403, missingScope('nodes.write')]);
      expect(await state()).toEqual(before);
      const writeKey = await createApiKey(t, cookie, { permissions: ['nodes.write'] });
      await t.http().post(allocationsPath(node.id)).set('x-api-key', writeKey).send({ ip: '10.0.4.1', ports: ['25566'] }).expect(201);
    });

    it('should answer 403 ADMIN_REQUIRED to a non-admin on list, create and delete', async () => {
      const node = await createNode();
      const [allocation] = await allocate(node.id, '10.0.4.2', ['25565']);
      const userCookie = await signIn(t, (await createUser(t.app)).email);
      const before = await state();
      for (const [method, path, body] of [
        ['get', allocationsPath(node.id), undefined],
        ['post', allocationsPath(node.id), { ip: '10.0.4.2', ports: ['25566'] }],
        ['delete', `${allocationsPath(node.id)}/${allocation.id}`, undefined],
      ] as [Method, string, Json | undefined][]) {
        const res = await as(method, path, userCookie).send(body);
        expect([method, res.status, res.body]).toEqual([method, 403, ADMIN_REQUIRED]);
      }
      expect(await state()).toEqual(before);
    });
  });
});
