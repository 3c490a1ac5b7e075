import { DataSource } from 'typeorm';
import { parse as parseYaml } from 'yaml';
import { SecretBox } from 'src/common/crypto/secret-box';
import { LocationEntity } from 'src/modules/nodes/location.entity';
import { NodeEntity } from 'src/modules/nodes/node.entity';
import { UserEntity } from 'src/modules/users/user.entity';
import { createUser } from 'test/factories/user.factory';
import { createApiKey, signIn } from 'test/utils/auth';
import { createTestApp, TEST_ORIGIN, TestApp } from 'test/utils/create-test-app';
import {
  ADMIN_REQUIRED,
  CONFIG_KEY_PATHS,
  DECIMAL_ID,
  denial,
  expectError,
  expectValidation,
  ISO,
  Json,
  keyPaths,
  loadNode,
  LOOPBACK,
  Method,
  missingScope,
  nodeBody,
  nodeSnapshot,
  sealedTokenOf,
  UNAUTHENTICATED,
  UUID_V4,
} from 'test/utils/nodes';
import { dbKinds } from 'test/utils/test-db';

const LOCATIONS = '/api/admin/locations';
const NODES = '/api/admin/nodes';
const AUDIT = '/api/admin/audit-logs';
const configPath = (id: string) => `/api/admin/daemon/nodes/${id}/configuration`;
const MISSING_ID = '999999999';
const LOCATION_NOT_FOUND = ['LOCATION_NOT_FOUND', 'Location not found'] as const;
const NODE_NOT_FOUND = ['NODE_NOT_FOUND', 'Node not found'] as const;
const API_KEY_REQUIRED = denial(401, 'API_KEY_REQUIRED', 'This endpoint requires an API key, given by the Authorization: Bearer header or the x-api-key header');
const SEALED = /^v1:[A-Za-z0-9_-]+:[A-Za-z0-9_-]+:[A-Za-z0-9_-]+$/;

let seq = 0;
/** A host name no other node of the run uses, so every node gets its own baseUrl. */
const uniqueFqdn = (): string => `node${++seq}-${process.pid}.example.test`;

describe.each(dbKinds(['postgres']))('admin locations and nodes (%s)', (db) => {
  let t: TestApp;
  let admin: UserEntity;
  let cookie: string;
  /** An admin API key holding nodes.read only: the one way to read a node's configuration. */
  let readKey: string;

  const as = (method: Method, path: string, c = cookie) => t.http()[method](path).set('Cookie', c).set('Origin', TEST_ORIGIN);
  const withKey = (method: Method, path: string, key: string) => t.http()[method](path).set('x-api-key', key);
  const ds = () => t.app.get(DataSource);
  const countRows = async (table: 'location' | 'node' | 'audit_log'): Promise<number> =>
    (await ds().query<{ n: number }[]>(`SELECT count(*)::int AS n FROM ${table}`))[0].n;
  const state = async () => ({ locations: await countRows('location'), nodes: await countRows('node'), audit: await countRows('audit_log') });
  const loadLocation = (id: string) => ds().getRepository(LocationEntity).findOneBy({ id });

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

  const locationBody = (l: LocationEntity): Json => ({
    id: l.id,
    short: l.short,
    long: l.long,
    createdAt: l.createdAt.toISOString(),
    updatedAt: l.updatedAt.toISOString(),
  });
  const createLocation = async (short = `loc-${++seq}`, long: string | null = 'Somewhere'): Promise<Json> =>
    (await as('post', LOCATIONS).send({ short, long }).expect(201)).body.data;

  const newNodeBody = (overrides: Json = {}): Json => {
    const body: Json = { name: 'Node', fqdn: uniqueFqdn(), memory: 16384, disk: 512000, ...overrides };
    return Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined));
  };
  const createNode = async (overrides: Json = {}): Promise<Json> => (await as('post', NODES).send(newNodeBody(overrides)).expect(201)).body.data;
  const configOf = async (id: string): Promise<Json> => (await withKey('get', configPath(id), readKey).expect(200)).body.data;

  beforeAll(async () => {
    t = await createTestApp({ db });
    admin = await createUser(t.app, { admin: true });
    cookie = await signIn(t, admin.email);
    readKey = await createApiKey(t, cookie, { permissions: ['nodes.read'] });
  });

  afterAll(async () => {
    await t.close();
  });

  describe('locations', () => {
    it('should answer 201 with the whole stored location and leave a location.created audit entry when an admin creates one', async () => {
      const before = await state();
      const res = await as('post', LOCATIONS).send({ short: 'fra1', long: 'Frankfurt, Germany' }).expect(201);
      expect(res.body).toEqual({
        data: { id: expect.stringMatching(DECIMAL_ID), short: 'fra1', long: 'Frankfurt, Germany', createdAt: expect.stringMatching(ISO), updatedAt: expect.stringMatching(ISO) },
      });
      const stored = (await loadLocation(res.body.data.id))!;
      expect(res.body.data).toEqual(locationBody(stored));
      expect(await state()).toEqual({ ...before, locations: before.locations + 1, audit: before.audit + 1 });
      expect(await auditOf('location', stored.id)).toEqual([
        auditEntry('location.created', { type: 'location', id: stored.id }, { after: { short: 'fra1', long: 'Frankfurt, Germany' } }),
      ]);
    });

    it('should store long as null when only short is given', async () => {
      const res = await as('post', LOCATIONS).send({ short: 'ams1' }).expect(201);
      expect(res.body.data).toMatchObject({ short: 'ams1', long: null });
      expect((await loadLocation(res.body.data.id))!.long).toBeNull();
    });

    it('should answer 409 LOCATION_SHORT_TAKEN and add nothing when the short code is taken', async () => {
      await createLocation('dup1');
      const before = await state();
      expectError(await as('post', LOCATIONS).send({ short: 'dup1', long: 'Again' }), 409, 'LOCATION_SHORT_TAKEN', 'A location with this short code exists');
      expect(await state()).toEqual(before);
    });

    it.each([
      ['no short', { long: 'x' }, [{ field: 'short', message: 'short must be a string' }]],
      ['an empty short', { short: '' }, [{ field: 'short', message: 'short must be 1 to 60 letters, digits, _, . or -' }]],
      ['a short with a space', { short: 'fra 1' }, [{ field: 'short', message: 'short must be 1 to 60 letters, digits, _, . or -' }]],
      ['a short of 61 characters', { short: 's'.repeat(61) }, [{ field: 'short', message: 'short must be 1 to 60 letters, digits, _, . or -' }]],
      ['a numeric short', { short: 12 }, [{ field: 'short', message: 'short must be a string' }]],
      ['a long of 192 characters', { short: 'ok1', long: 'l'.repeat(192) }, [{ field: 'long', message: 'long must be shorter than or equal to 191 characters' }]],
      ['an unknown field', { short: 'ok2', country: 'DE' }, [{ field: 'country', message: 'property country should not exist' }]],
    ])('should answer 400 VALIDATION_FAILED and add nothing when the body has %s', async (_label, body, details) => {
      const before = await state();
      expectValidation(await as('post', LOCATIONS).send(body), details);
      expect(await state()).toEqual(before);
    });

    it('should read one location and list them paginated in id order', async () => {
      const a = await createLocation();
      const b = await createLocation();
      expect((await as('get', `${LOCATIONS}/${a.id}`).expect(200)).body).toEqual({ data: locationBody((await loadLocation(a.id))!) });
      const total = await countRows('location');
      const all = await as('get', `${LOCATIONS}?perPage=100`).expect(200);
      expect(all.body.meta).toEqual({ pagination: { total, count: total, perPage: 100, currentPage: 1, totalPages: 1 } });
      const ids = (all.body.data as Json[]).map((l) => Number(l.id));
      expect(ids).toEqual([...ids].sort((x, y) => x - y));
      expect(all.body.data.slice(-2)).toEqual([a, b]);
      const last = await as('get', `${LOCATIONS}?perPage=1&page=${total}`).expect(200);
      expect(last.body).toEqual({ data: [b], meta: { pagination: { total, count: 1, perPage: 1, currentPage: total, totalPages: total } } });
    });

    it('should change only the sent field and leave a location.updated entry with just that field when patched', async () => {
      const loc = await createLocation('lon1', 'London');
      const res = await as('patch', `${LOCATIONS}/${loc.id}`).send({ short: 'lon1', long: 'London, UK' }).expect(200);
      const stored = (await loadLocation(loc.id))!;
      expect(res.body).toEqual({ data: locationBody(stored) });
      expect(stored).toMatchObject({ short: 'lon1', long: 'London, UK' });
      expect(await auditOf('location', loc.id)).toEqual([
        auditEntry('location.updated', { type: 'location', id: loc.id }, { before: { long: 'London' }, after: { long: 'London, UK' } }),
        auditEntry('location.created', { type: 'location', id: loc.id }, { after: { short: 'lon1', long: 'London' } }),
      ]);
    });

    it('should answer 200 and add no audit entry when a patch changes nothing', async () => {
      const loc = await createLocation();
      const before = await state();
      await as('patch', `${LOCATIONS}/${loc.id}`).send({ long: loc.long }).expect(200);
      expect(await state()).toEqual(before);
    });

    it('should answer 409 LOCATION_SHORT_TAKEN and keep the location when patched to a taken short code', async () => {
      await createLocation('taken1');
      const loc = await createLocation('mine1');
      const before = await state();
      expectError(await as('patch', `${LOCATIONS}/${loc.id}`).send({ short: 'taken1' }), 409, 'LOCATION_SHORT_TAKEN', 'A location with this short code exists');
      expect((await loadLocation(loc.id))!.short).toBe('mine1');
      expect(await state()).toEqual(before);
    });

    it.each([
      ['a null short', { short: null }, [{ field: 'short', message: 'short must be a string' }]],
      ['a bad short', { short: 'a/b' }, [{ field: 'short', message: 'short must be 1 to 60 letters, digits, _, . or -' }]],
      ['an unknown field', { id: '1' }, [{ field: 'id', message: 'property id should not exist' }]],
    ])('should answer 400 VALIDATION_FAILED and change nothing when a patch has %s', async (_label, body, details) => {
      const loc = await createLocation();
      expectValidation(await as('patch', `${LOCATIONS}/${loc.id}`).send(body), details);
      expect(locationBody((await loadLocation(loc.id))!)).toEqual(loc);
    });

    it('should answer 204, remove the location and leave a location.deleted entry when a location without nodes is deleted', async () => {
      const loc = await createLocation('del1', 'Doomed');
      const before = await state();
      const res = await as('delete', `${LOCATIONS}/${loc.id}`).expect(204);
      expect(res.text).toBe('');
      expect(await loadLocation(loc.id)).toBeNull();
      expect(await state()).toEqual({ ...before, locations: before.locations - 1, audit: before.audit + 1 });
      expect((await auditOf('location', loc.id))[0]).toEqual(
        auditEntry('location.deleted', { type: 'location', id: loc.id }, { before: { short: 'del1', long: 'Doomed' } }),
      );
      expectError(await as('get', `${LOCATIONS}/${loc.id}`), 404, ...LOCATION_NOT_FOUND);
    });

    it('should answer 409 LOCATION_HAS_NODES and keep the location while a node is in it, and delete it once the node moved out', async () => {
      const loc = await createLocation();
      const node = await createNode({ locationId: loc.id });
      const before = await state();
      expectError(await as('delete', `${LOCATIONS}/${loc.id}`), 409, 'LOCATION_HAS_NODES', 'The location still has nodes and cannot be deleted');
      expect(await loadLocation(loc.id)).not.toBeNull();
      expect(await state()).toEqual(before);
      await as('patch', `${NODES}/${node.id}`).send({ locationId: null }).expect(200);
      await as('delete', `${LOCATIONS}/${loc.id}`).expect(204);
    });

    it.each([MISSING_ID, 'abc', '0', '-1'])('should answer 404 LOCATION_NOT_FOUND on get, patch and delete when the location is %s', async (id) => {
      for (const method of ['get', 'patch', 'delete'] as Method[]) {
        const res = await as(method, `${LOCATIONS}/${id}`).send(method === 'patch' ? { long: 'x' } : undefined);
        expect([method, res.status]).toEqual([method, 404]);
        expectError(res, 404, ...LOCATION_NOT_FOUND);
      }
    });

    it('should answer 403 ADMIN_REQUIRED to a non-admin and 401 without credentials, changing nothing', async () => {
      const loc = await createLocation();
      const userCookie = await signIn(t, (await createUser(t.app)).email);
      const before = await state();
      for (const [method, path] of [
        ['get', LOCATIONS],
        ['post', LOCATIONS],
        ['get', `${LOCATIONS}/${loc.id}`],
        ['patch', `${LOCATIONS}/${loc.id}`],
        ['delete', `${LOCATIONS}/${loc.id}`],
      ] as [Method, string][]) {
        const body = method === 'post' || method === 'patch' ? { short: 'nope1' } : undefined;
        const denied = await as(method, path, userCookie).send(body);
        expect([method, path, denied.status, denied.body]).toEqual([method, path, 403, ADMIN_REQUIRED]);
        const anonymous = await t.http()[method](path).send(body);
        expect([method, path, anonymous.status, anonymous.body]).toEqual([method, path, 401, UNAUTHENTICATED]);
      }
      expect(await state()).toEqual(before);
    });

    it('should let a locations.read key read but answer 403 MISSING_SCOPE locations.write on writes, and locations.read to a key without it', async () => {
      const loc = await createLocation();
      const locationsRead = await createApiKey(t, cookie, { permissions: ['locations.read'] });
      await withKey('get', LOCATIONS, locationsRead).expect(200);
      await withKey('get', `${LOCATIONS}/${loc.id}`, locationsRead).expect(200);
      const before = await state();
      for (const [method, path] of [
        ['post', LOCATIONS],
        ['patch', `${LOCATIONS}/${loc.id}`],
        ['delete', `${LOCATIONS}/${loc.id}`],
      ] as [Method, string][]) {
        const res = await withKey(method, path, locationsRead).send(method === 'delete' ? undefined : { short: 'scoped1' });
        expect([method, res.status, res.body]).toEqual([method, 403, missingScope('locations.write')]);
      }
      expect(await state()).toEqual(before);
      // Locations have scopes of their own: the nodes scopes no longer reach them.
      const res = await withKey('get', LOCATIONS, readKey);
      expect([res.status, res.body]).toEqual([403, missingScope('locations.read')]);
      const writeKey = await createApiKey(t, cookie, { permissions: ['locations.write'] });
      const made = await withKey('post', LOCATIONS, writeKey).send({ short: 'bykey1' }).expect(201);
      expect((await auditOf('location', made.body.data.id))[0].actor.via).toMatch(/^api-key:/);
    });
  });

  describe('nodes: create and read', () => {
    it('should answer 201 with every default, a v4 uuid and a 16-character token id when only the required fields are given', async () => {
      const before = await state();
      const fqdn = uniqueFqdn();
      const res = await as('post', NODES).send({ name: 'Node One', fqdn, memory: 16384, disk: 512000 }).expect(201);
      expect(res.body).toEqual({
        data: {
          id: expect.stringMatching(DECIMAL_ID),
          uuid: expect.stringMatching(UUID_V4),
          name: 'Node One',
          description: null,
          locationId: null,
          backupHostId: null,
          baseUrl: `https://${fqdn}:8080`,
          fqdn,
          scheme: 'https',
          public: true,
          maintenanceMode: false,
          allowInsecure: false,
          behindProxy: false,
          memory: 16384,
          memoryOverallocate: 0,
          disk: 512000,
          diskOverallocate: 0,
          uploadSize: 100,
          daemonBase: '/var/lib/pterodactyl/volumes',
          daemonListen: 8080,
          daemonSftp: 2022,
          daemonAuth: 'token',
          tokenIdentifier: expect.stringMatching(/^[A-Za-z0-9]{16}$/),
          lastSeenAt: null,
          daemonContactedAt: null,
          createdAt: expect.stringMatching(ISO),
          updatedAt: expect.stringMatching(ISO),
        },
      });
      const stored = (await loadNode(t, res.body.data.id))!;
      expect(res.body.data).toEqual(nodeBody(stored));
      expect(await state()).toEqual({ ...before, nodes: before.nodes + 1, audit: before.audit + 1 });
      expect(await auditOf('node', stored.id)).toEqual([auditEntry('node.created', { type: 'node', id: stored.id }, { after: nodeSnapshot(stored) })]);
    });

    it('should store every given field and build baseUrl as scheme://fqdn:daemonListen when all fields are given', async () => {
      const loc = await createLocation();
      const fqdn = uniqueFqdn();
      const body = {
        name: 'Full Node',
        description: 'Every field',
        locationId: loc.id,
        fqdn,
        scheme: 'http',
        public: false,
        maintenanceMode: true,
        allowInsecure: true,
        behindProxy: true,
        memory: 4096,
        memoryOverallocate: -1,
        disk: 20000,
        diskOverallocate: 25,
        uploadSize: 512,
        daemonBase: '/srv/daemon-data',
        daemonListen: 8443,
        daemonSftp: 2222,
        daemonAuth: 'combined',
      };
      const res = await as('post', NODES).send(body).expect(201);
      expect(res.body.data).toEqual({
        ...body,
        backupHostId: null,
        id: expect.stringMatching(DECIMAL_ID),
        uuid: expect.stringMatching(UUID_V4),
        baseUrl: `http://${fqdn}:8443`,
        tokenIdentifier: expect.stringMatching(/^[A-Za-z0-9]{16}$/),
        lastSeenAt: null,
        daemonContactedAt: null,
        createdAt: expect.stringMatching(ISO),
        updatedAt: expect.stringMatching(ISO),
      });
      expect(res.body.data).toEqual(nodeBody((await loadNode(t, res.body.data.id))!));
    });

    it('should never answer the daemon token: it is sealed in token_secret and only the configuration endpoint shows it', async () => {
      const res = await as('post', NODES).send(newNodeBody()).expect(201);
      const { id, uuid } = res.body.data;
      const config = await configOf(id);
      const token: string = config.token;
      expect(token).toMatch(/^[A-Za-z0-9]{64}$/);
      const sealed = await sealedTokenOf(t, id);
      expect(sealed).toMatch(SEALED);
      expect(sealed).not.toContain(token);
      expect(t.app.get(SecretBox).open(sealed, `node:${uuid}:token`)).toBe(token);
      const texts = [
        res.text,
        (await as('get', `${NODES}/${id}`).expect(200)).text,
        (await as('get', `${NODES}?perPage=100`).expect(200)).text,
        (await withKey('get', `${NODES}/${id}`, readKey).expect(200)).text,
        (await as('get', `${AUDIT}?targetType=node&targetId=${id}`).expect(200)).text,
      ];
      for (const text of texts) {
        expect(text).not.toContain(token);
        expect(text).not.toMatch(/[A-Za-z0-9]{64}/);
        expect(text).not.toContain(sealed);
        expect(text).not.toMatch(/tokenSecret|token_secret|"token":/);
      }
    });

    it('should seal each node under its own context: a sealed token moved to another node does not open', async () => {
      const a = await createNode();
      const b = await createNode();
      const sealedA = await sealedTokenOf(t, a.id);
      expect(() => t.app.get(SecretBox).open(sealedA, `node:${b.uuid}:token`)).toThrow();
      expect((await configOf(a.id)).token).not.toBe((await configOf(b.id)).token);
    });

    it('should answer 409 NODE_BASE_URL_TAKEN and add nothing when another node has the same scheme, fqdn (in any case) and port', async () => {
      const fqdn = uniqueFqdn();
      await createNode({ fqdn });
      const before = await state();
      for (const sameAddress of [fqdn, fqdn.toUpperCase()]) {
        expectError(
          await as('post', NODES).send(newNodeBody({ fqdn: sameAddress })),
          409,
          'NODE_BASE_URL_TAKEN',
          'Another node already uses this scheme, FQDN and daemon port',
        );
      }
      expect(await state()).toEqual(before);
      // Another port or scheme is another address.
      expect((await createNode({ fqdn, daemonListen: 8081 })).baseUrl).toBe(`https://${fqdn}:8081`);
      expect((await createNode({ fqdn, scheme: 'http' })).baseUrl).toBe(`http://${fqdn}:8080`);
    });

    it('should answer 404 LOCATION_NOT_FOUND and add nothing when the location does not exist', async () => {
      const before = await state();
      expectError(await as('post', NODES).send(newNodeBody({ locationId: MISSING_ID })), 404, ...LOCATION_NOT_FOUND);
      expect(await state()).toEqual(before);
    });

    it.each([
      ['no name', { name: undefined }, [{ field: 'name', message: 'name must be a string' }]],
      ['an empty name', { name: '' }, [{ field: 'name', message: 'name must be longer than or equal to 1 characters' }]],
      ['no fqdn', { fqdn: undefined }, [{ field: 'fqdn', message: 'fqdn must be a string' }]],
      ['an fqdn with a space', { fqdn: 'bad host.example.test' }, [{ field: 'fqdn', message: 'fqdn must be a host name or an IPv4 address' }]],
      ['an fqdn with a scheme', { fqdn: 'https://node.example.test' }, [{ field: 'fqdn', message: 'fqdn must be a host name or an IPv4 address' }]],
      ['an fqdn with a port', { fqdn: 'node.example.test:8080' }, [{ field: 'fqdn', message: 'fqdn must be a host name or an IPv4 address' }]],
      ['an fqdn starting with a dash', { fqdn: '-node.example.test' }, [{ field: 'fqdn', message: 'fqdn must be a host name or an IPv4 address' }]],
      ['an fqdn that is an impossible IPv4 address', { fqdn: '999.1.1.1' }, [{ field: 'fqdn', message: 'fqdn must be a host name or an IPv4 address' }]],
      ['scheme ftp', { scheme: 'ftp' }, [{ field: 'scheme', message: 'scheme must be one of the following values: http, https' }]],
      ['daemonListen 0', { daemonListen: 0 }, [{ field: 'daemonListen', message: 'daemonListen must not be less than 1' }]],
      ['daemonListen 70000', { daemonListen: 70000 }, [{ field: 'daemonListen', message: 'daemonListen must not be greater than 65535' }]],
      ['daemonListen as a string', { daemonListen: '8080' }, [{ field: 'daemonListen', message: 'daemonListen must be an integer number' }]],
      ['daemonSftp 65536', { daemonSftp: 65536 }, [{ field: 'daemonSftp', message: 'daemonSftp must not be greater than 65535' }]],
      ['no memory', { memory: undefined }, [{ field: 'memory', message: 'memory must be an integer number' }]],
      ['a fractional memory', { memory: 1.5 }, [{ field: 'memory', message: 'memory must be an integer number' }]],
      ['a negative disk', { disk: -1 }, [{ field: 'disk', message: 'disk must not be less than 0' }]],
      ['no disk', { disk: undefined }, [{ field: 'disk', message: 'disk must be an integer number' }]],
      ['memoryOverallocate -2', { memoryOverallocate: -2 }, [{ field: 'memoryOverallocate', message: 'memoryOverallocate must not be less than -1' }]],
      ['uploadSize 0', { uploadSize: 0 }, [{ field: 'uploadSize', message: 'uploadSize must not be less than 1' }]],
      ['a relative daemonBase', { daemonBase: 'srv/data' }, [{ field: 'daemonBase', message: 'daemonBase must be an absolute path' }]],
      ['public as a string', { public: 'yes' }, [{ field: 'public', message: 'public must be a boolean value' }]],
      ['daemonAuth basic', { daemonAuth: 'basic' }, [{ field: 'daemonAuth', message: 'daemonAuth must be one of the following values: token, combined' }]],
      ['a locationId that is not an id', { locationId: 'abc' }, [{ field: 'locationId', message: 'locationId must be a location id' }]],
      ['a tokenIdentifier', { tokenIdentifier: 'abcdefghijklmnop' }, [{ field: 'tokenIdentifier', message: 'property tokenIdentifier should not exist' }]],
      ['a baseUrl', { baseUrl: 'https://x.example.test:8080' }, [{ field: 'baseUrl', message: 'property baseUrl should not exist' }]],
      ['a uuid', { uuid: '2f1d0c7e-7a4b-4c5e-9f00-000000000000' }, [{ field: 'uuid', message: 'property uuid should not exist' }]],
    ])('should answer 400 VALIDATION_FAILED and add nothing when the body has %s', async (_label, override, details) => {
      const before = await state();
      expectValidation(await as('post', NODES).send(newNodeBody(override)), details);
      expect(await state()).toEqual(before);
    });

    it('should read one node and list them paginated in id order, without any token', async () => {
      const a = await createNode();
      const b = await createNode();
      expect((await as('get', `${NODES}/${a.id}`).expect(200)).body).toEqual({ data: nodeBody((await loadNode(t, a.id))!) });
      const total = await countRows('node');
      const all = await as('get', `${NODES}?perPage=100`).expect(200);
      expect(all.body.meta).toEqual({ pagination: { total, count: total, perPage: 100, currentPage: 1, totalPages: 1 } });
      const ids = (all.body.data as Json[]).map((n) => Number(n.id));
      expect(ids).toEqual([...ids].sort((x, y) => x - y));
      expect(all.body.data.slice(-2)).toEqual([a, b]);
      const page = await as('get', `${NODES}?perPage=1&page=${total}`).expect(200);
      expect(page.body).toEqual({ data: [b], meta: { pagination: { total, count: 1, perPage: 1, currentPage: total, totalPages: total } } });
      expectValidation(await as('get', `${NODES}?perPage=101`), [{ field: 'perPage', message: expect.any(String) }]);
    });

    it.each([MISSING_ID, 'abc', '0', '1.5'])('should answer 404 NODE_NOT_FOUND on every node route when the node is %s', async (id) => {
      for (const [method, path] of [
        ['get', `${NODES}/${id}`],
        ['patch', `${NODES}/${id}`],
        ['delete', `${NODES}/${id}`],
        ['post', `${NODES}/${id}/reset-token`],
        ['get', `${NODES}/${id}/system`],
        ['get', `${NODES}/${id}/allocations`],
        ['post', `${NODES}/${id}/allocations`],
      ] as [Method, string][]) {
        const body = method === 'patch' ? { name: 'x' } : path.endsWith('allocations') && method === 'post' ? { ip: '10.0.0.1', ports: ['25565'] } : undefined;
        const res = await as(method, path).send(body);
        expect([method, path, res.status]).toEqual([method, path, 404]);
        expectError(res, 404, ...NODE_NOT_FOUND);
      }
      expectError(await withKey('get', configPath(id), readKey), 404, ...NODE_NOT_FOUND);
    });

    it('should answer 403 ADMIN_REQUIRED to a non-admin and 401 without credentials on every node route, changing nothing', async () => {
      const node = await createNode();
      const userCookie = await signIn(t, (await createUser(t.app)).email);
      const before = await state();
      for (const [method, path] of [
        ['get', NODES],
        ['post', NODES],
        ['get', `${NODES}/${node.id}`],
        ['patch', `${NODES}/${node.id}`],
        ['delete', `${NODES}/${node.id}`],
        ['post', `${NODES}/${node.id}/reset-token`],
        ['get', `${NODES}/${node.id}/system`],
      ] as [Method, string][]) {
        const body = method === 'post' && path === NODES ? newNodeBody() : method === 'patch' ? { name: 'taken over' } : undefined;
        const denied = await as(method, path, userCookie).send(body);
        expect([method, path, denied.status, denied.body]).toEqual([method, path, 403, ADMIN_REQUIRED]);
        const anonymous = await t.http()[method](path).send(body);
        expect([method, path, anonymous.status, anonymous.body]).toEqual([method, path, 401, UNAUTHENTICATED]);
      }
      expect(await state()).toEqual(before);
      expect(nodeBody((await loadNode(t, node.id))!)).toEqual(node);
    });

    it('should let a nodes.read key read nodes but answer 403 MISSING_SCOPE nodes.write on every write', async () => {
      const node = await createNode();
      expect((await withKey('get', `${NODES}/${node.id}`, readKey).expect(200)).body).toEqual({ data: node });
      await withKey('get', NODES, readKey).expect(200);
      const before = await state();
      for (const [method, path] of [
        ['post', NODES],
        ['patch', `${NODES}/${node.id}`],
        ['delete', `${NODES}/${node.id}`],
        ['post', `${NODES}/${node.id}/reset-token`],
      ] as [Method, string][]) {
        const body = method === 'post' && path === NODES ? newNodeBody() : method === 'patch' ? { name: 'by key' } : undefined;
        const res = await withKey(method, path, readKey).send(body);
        expect([method, path, res.status, res.body]).toEqual([method, path, 403, missingScope('nodes.write')]);
      }
      expect(await state()).toEqual(before);
      expect(nodeBody((await loadNode(t, node.id))!)).toEqual(node);
    });
  });

  describe('nodes: delete', () => {
    it('should answer 204, remove the node and leave a node.deleted entry when a node without servers is deleted', async () => {
      const node = await createNode();
      const stored = (await loadNode(t, node.id))!;
      const before = await state();
      const res = await as('delete', `${NODES}/${node.id}`).expect(204);
      expect(res.text).toBe('');
      expect(await loadNode(t, node.id)).toBeNull();
      expect(await state()).toEqual({ ...before, nodes: before.nodes - 1, audit: before.audit + 1 });
      expect((await auditOf('node', node.id))[0]).toEqual(auditEntry('node.deleted', { type: 'node', id: node.id }, { before: nodeSnapshot(stored) }));
      expectError(await as('get', `${NODES}/${node.id}`), 404, ...NODE_NOT_FOUND);
      expectError(await withKey('get', configPath(node.id), readKey), 404, ...NODE_NOT_FOUND);
    });
  });

  describe('daemon configuration (API key only)', () => {
    it('should answer 401 API_KEY_REQUIRED to an admin session and to a request without credentials', async () => {
      const node = await createNode();
      const res = await as('get', configPath(node.id));
      expect([res.status, res.body]).toEqual([401, API_KEY_REQUIRED]);
      expect(res.text).not.toMatch(/[A-Za-z0-9]{64}/);
      const anonymous = await t.http().get(configPath(node.id));
      expect([anonymous.status, anonymous.body]).toEqual([401, API_KEY_REQUIRED]);
      const badKey = await withKey('get', configPath(node.id), 'x'.repeat(32));
      expect(badKey.status).toBe(401);
    });

    it('should answer 403 to a key without nodes.read, and to a key of a non-admin', async () => {
      const node = await createNode();
      for (const permissions of [['users.read'], ['nodes.write'], ['servers.read', 'servers.write', 'users.read', 'users.write', 'eggs.read', 'eggs.write']]) {
        const key = await createApiKey(t, cookie, { permissions });
        const res = await withKey('get', configPath(node.id), key);
        expect([permissions, res.status, res.body]).toEqual([permissions, 403, missingScope('nodes.read')]);
      }
      const userKey = await createApiKey(t, await signIn(t, (await createUser(t.app)).email));
      const res = await withKey('get', configPath(node.id), userKey);
      expect([res.status, res.body]).toEqual([403, ADMIN_REQUIRED]);
    });

    it('should answer {data: config} with exactly the keys of config.yml, TLS on, and no-store, for an https node not behind a proxy', async () => {
      const fqdn = `Wings-${++seq}.Example.TEST`;
      const node = await createNode({ fqdn, scheme: 'https', uploadSize: 250, daemonBase: '/srv/daemon-data', daemonListen: 8443, daemonSftp: 2222 });
      const res = await withKey('get', configPath(node.id), readKey).expect(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.headers['cache-control']).toBe('no-store');
      const host = fqdn.toLowerCase();
      expect(res.body).toEqual({
        data: {
          debug: false,
          uuid: node.uuid,
          token_id: node.tokenIdentifier,
          token: expect.stringMatching(/^[A-Za-z0-9]{64}$/),
          api: {
            host: '0.0.0.0',
            port: 8443,
            ssl: { enabled: true, cert: `/etc/letsencrypt/live/${host}/fullchain.pem`, key: `/etc/letsencrypt/live/${host}/privkey.pem` },
            upload_limit: 250,
          },
          system: { data: '/srv/daemon-data', sftp: { bind_port: 2222 } },
          allowed_mounts: [],
          remote: 'http://panel.test',
        },
      });
      expect(new Set(keyPaths(res.body.data))).toEqual(new Set(CONFIG_KEY_PATHS));
      const stored = (await loadNode(t, node.id))!;
      expect(t.app.get(SecretBox).open(stored.tokenSecret, `node:${stored.uuid}:token`)).toBe(res.body.data.token);
      // The Bearer header works as well as x-api-key.
      const bearer = await t.http().get(configPath(node.id)).set('Authorization', `Bearer ${readKey}`).expect(200);
      expect(bearer.body).toEqual(res.body);
    });

    it.each([
      ['https behind a proxy', false, { scheme: 'https', behindProxy: true }],
      ['plain http', false, { scheme: 'http' }],
      ['plain http behind a proxy', false, { scheme: 'http', behindProxy: true }],
      ['https not behind a proxy', true, { scheme: 'https', behindProxy: false }],
    ])('should set api.ssl.enabled for a node on %s to %s (scheme https && !behindProxy)', async (_label, enabled, fields) => {
      const node = await createNode(fields);
      const config = await configOf(node.id);
      expect(config.api.ssl).toEqual({
        enabled,
        cert: `/etc/letsencrypt/live/${node.fqdn}/fullchain.pem`,
        key: `/etc/letsencrypt/live/${node.fqdn}/privkey.pem`,
      });
      expect(config.api.port).toBe(8080);
      expect(config.api.upload_limit).toBe(100);
      expect(config.system).toEqual({ data: '/var/lib/pterodactyl/volumes', sftp: { bind_port: 2022 } });
    });

    it('should answer ?format=yaml as text/yaml that parses to the same configuration, with exactly the expected key paths', async () => {
      const node = await createNode({ uploadSize: 300, behindProxy: true });
      const json = await configOf(node.id);
      const res = await withKey('get', `${configPath(node.id)}?format=yaml`, readKey).expect(200);
      expect(res.headers['content-type']).toMatch(/^text\/yaml(;|$)/);
      expect(res.headers['cache-control']).toBe('no-store');
      const parsed = parseYaml(res.text) as Json;
      expect(parsed).toEqual(json);
      expect(keyPaths(parsed).sort()).toEqual([...CONFIG_KEY_PATHS].sort());
      expect(typeof parsed.token).toBe('string');
      expect(typeof parsed.token_id).toBe('string');
      expect(res.text).not.toMatch(/^\s*\{/);
      // ?format=json is the default form.
      expect((await withKey('get', `${configPath(node.id)}?format=json`, readKey).expect(200)).body).toEqual({ data: json });
    });

    it.each(['xml', 'YAML', ''])('should answer 400 VALIDATION_FAILED for ?format=%s', async (format) => {
      const node = await createNode();
      expectValidation(await withKey('get', `${configPath(node.id)}?format=${format}`, readKey), [{ field: 'format', message: 'format must be json or yaml' }]);
    });
  });
});

describe.each(dbKinds(['postgres']))('daemon configuration with an APP_URL ending in a slash (%s)', (db) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ db, env: { APP_URL: 'http://panel.test/' } });
  });

  afterAll(async () => {
    await t.close();
  });

  it('should give remote without the trailing slash, since Wings compares it byte for byte with browser origins', async () => {
    const admin = await createUser(t.app, { admin: true });
    const cookie = await signIn(t, admin.email);
    const key = await createApiKey(t, cookie, { permissions: ['nodes.read'] });
    const node = await t
      .http()
      .post(NODES)
      .set('Cookie', cookie)
      .set('Origin', TEST_ORIGIN)
      .send({ name: 'n', fqdn: 'slash.example.test', memory: 1, disk: 1 })
      .expect(201);
    const res = await t.http().get(configPath(node.body.data.id)).set('x-api-key', key).expect(200);
    expect(res.body.data.remote).toBe('http://panel.test');
    expect(await t.app.get(DataSource).getRepository(NodeEntity).count()).toBe(1);
  });
});
