import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { EGG_FIXTURES_DIR, eggFixtureFiles } from 'test/utils/fixtures';
import { createEgg, createNest } from 'test/factories/egg.factory';
import { createNodeRow } from 'test/factories/node.factory';
import { createServerRow } from 'test/factories/server.factory';
import { createUser } from 'test/factories/user.factory';
import { createApiKey, signIn } from 'test/utils/auth';
import { createTestApp, TEST_ORIGIN, TestApp } from 'test/utils/create-test-app';
import { dbKinds } from 'test/utils/test-db';
import { applicationKey, createPterodactylKey, NOT_FOUND, PTERODACTYL_ACCEPT, UNAUTHORIZED } from 'test/utils/pterodactyl';

const ATOM = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe.each(dbKinds(['postgres']))('Pterodactyl application API: users, locations, nodes, allocations (%s)', (db) => {
  let t: TestApp;
  let key: string;
  let cookie: string;
  // A web build, so the panel serves the web UI and the redirects from Pterodactyl's admin addresses.
  const webDir = mkdtempSync(join(tmpdir(), 'hatchery-web-'));
  const INDEX = '<!doctype html><html><body><div id="root"></div></body></html>';
  writeFileSync(join(webDir, 'index.html'), INDEX);

  beforeAll(async () => {
    t = await createTestApp({ db, env: { WEB_DIR: webDir } });
    ({ key, cookie } = await applicationKey(t));
  });

  afterAll(async () => {
    await t.close();
    rmSync(webDir, { recursive: true, force: true });
  });

  type Method = 'get' | 'post' | 'patch' | 'delete';
  /** A request with the headers Pterodactyl's clients send, on the real path or under /pterodactyl. */
  const api = (method: Method, path: string, as = key, prefix = '') =>
    t.http()[method](`${prefix}/api/application${path}`).set('Authorization', `Bearer ${as}`).set('Accept', PTERODACTYL_ACCEPT);

  const suffix = () => Math.random().toString(36).slice(2, 8);

  describe('users', () => {
    it('should create a user with 201, its Fractal item and the resource link', async () => {
      const s = suffix();
      const res = await api('post', '/users')
        .send({ email: `Billing-${s}@Example.test`, username: `billing-${s}`, first_name: 'Ada', last_name: 'Love Lace', password: 'a long enough password', external_id: `ext-${s}`, language: 'en' })
        .expect(201);
      expect(res.body).toEqual({
        object: 'user',
        attributes: {
          id: expect.any(Number),
          external_id: `ext-${s}`,
          uuid: expect.stringMatching(UUID),
          username: `billing-${s}`,
          email: `billing-${s}@example.test`,
          first_name: 'Ada',
          last_name: 'Love Lace',
          language: 'en',
          root_admin: false,
          '2fa': false,
          created_at: expect.stringMatching(ATOM),
          updated_at: expect.stringMatching(ATOM),
        },
        meta: { resource: `http://panel.test/api/application/users/${res.body.attributes.id}` },
      });
      const rows: { name: string; external_id: string }[] = await t.app.get(DataSource).query('SELECT name, external_id FROM "user" WHERE id = $1', [res.body.attributes.id]);
      expect(rows).toEqual([{ name: 'Ada Love Lace', external_id: `ext-${s}` }]);
      // The new account signs in with the password given.
      await t.http().post('/api/auth/sign-in/email').send({ email: `billing-${s}@example.test`, password: 'a long enough password' }).expect(200);
    });

    it('should view a user by id and by external id, on both paths, and 404 an unknown one', async () => {
      const s = suffix();
      const created = (await api('post', '/users').send({ email: `v-${s}@example.test`, username: `v-${s}`, first_name: 'V', last_name: 'W', external_id: `view-${s}` }).expect(201)).body;
      const { meta: _meta, ...item } = created;
      expect((await api('get', `/users/${created.attributes.id}`).expect(200)).body).toEqual(item);
      expect((await api('get', `/users/external/view-${s}`, key, '/pterodactyl').expect(200)).body).toEqual(item);
      expect((await api('get', '/users/external/nobody-has-this').expect(404)).body).toEqual(NOT_FOUND);
      expect((await api('get', '/users/999999999').expect(404)).body).toEqual(NOT_FOUND);
      expect((await api('get', '/users/not-a-number').expect(404)).body).toEqual(NOT_FOUND);
    });

    it('should list users with pagination meta and links, and filter them by e-mail, username, uuid and external id', async () => {
      const s = suffix();
      const made = [];
      for (let i = 0; i < 5; i++) {
        made.push((await api('post', '/users').send({ email: `list-${s}-${i}@example.test`, username: `list-${s}-${i}`, first_name: 'L', last_name: String(i), external_id: `list-${s}-${i}` }).expect(201)).body.attributes);
      }
      const total = Number((await t.app.get(DataSource).query('SELECT count(*) AS n FROM "user"'))[0].n);
      const first = await api('get', '/users?per_page=2').expect(200);
      expect(first.body.object).toBe('list');
      expect(first.body.data).toHaveLength(2);
      expect(first.body.meta).toEqual({
        pagination: {
          total,
          count: 2,
          per_page: 2,
          current_page: 1,
          total_pages: Math.ceil(total / 2),
          links: { next: 'http://panel.test/api/application/users?per_page=2&page=2' },
        },
      });
      const last = await api('get', `/users?per_page=2&page=${Math.ceil(total / 2)}`).expect(200);
      expect(last.body.meta.pagination.links).toEqual({ previous: `http://panel.test/api/application/users?per_page=2&page=${Math.ceil(total / 2) - 1}` });
      const byEmail = await api('get', `/users?filter[email]=${encodeURIComponent(`LIST-${s}-1@example.test`)}`).expect(200);
      expect(byEmail.body.data.map((u: { attributes: { id: number } }) => u.attributes.id)).toEqual([made[1].id]);
      expect(byEmail.body.meta.pagination).toMatchObject({ total: 1, count: 1, links: [] });
      const byExternal = await api('get', `/users?filter[external_id]=list-${s}-2`).expect(200);
      expect(byExternal.body.data.map((u: { attributes: { id: number } }) => u.attributes.id)).toEqual([made[2].id]);
      const byUsername = await api('get', `/users?filter[username]=list-${s}`).expect(200);
      expect(byUsername.body.data.map((u: { attributes: { id: number } }) => u.attributes.id)).toEqual(made.map((u) => u.id));
      const byUuid = await api('get', `/users?filter[uuid]=${made[0].uuid}`).expect(200);
      expect(byUuid.body.data.map((u: { attributes: { id: number } }) => u.attributes.id)).toEqual([made[0].id]);
      // LIKE wildcards in a filter are literal.
      expect((await api('get', `/users?filter[email]=${encodeURIComponent('%')}`).expect(200)).body.data).toEqual([]);
      // Every page of a filter counts all its matches: full pages, the last one, and one past it.
      for (const [page, ids] of [
        [1, made.slice(0, 2)],
        [2, made.slice(2, 4)],
        [Math.ceil(made.length / 2), made.slice(2 * (Math.ceil(made.length / 2) - 1))],
        [Math.ceil(made.length / 2) + 2, []],
      ] as const) {
        const res = await api('get', `/users?filter[username]=LIST-${s}&per_page=2&page=${page}`).expect(200);
        expect({ page, ids: res.body.data.map((u: { attributes: { id: number } }) => u.attributes.id), total: res.body.meta.pagination.total }).toEqual({
          page,
          ids: ids.map((u) => u.id),
          total: made.length,
        });
      }
    });

    it('should refuse a taken e-mail or username, and missing fields, with 422', async () => {
      const s = suffix();
      await api('post', '/users').send({ email: `dup-${s}@example.test`, username: `dup-${s}`, first_name: 'D', last_name: 'U' }).expect(201);
      const taken = await api('post', '/users').send({ email: `dup-${s}@example.test`, username: `other-${s}`, first_name: 'D', last_name: 'U' }).expect(422);
      expect(taken.body).toEqual({
        errors: [{ code: 'ValidationException', status: '422', detail: 'The email has already been taken.', meta: { source_field: 'email', rule: 'unique' } }],
      });
      const missing = await api('post', '/users').send({ username: `m-${s}` }).expect(422);
      expect(missing.body.errors.map((e: { meta: { source_field: string; rule: string } }) => e.meta)).toEqual([
        { source_field: 'email', rule: 'required' },
        { source_field: 'first_name', rule: 'required' },
        { source_field: 'last_name', rule: 'required' },
      ]);
    });

    it('should update the fields given, and delete a user with 204', async () => {
      const s = suffix();
      const { id } = (await api('post', '/users').send({ email: `u-${s}@example.test`, username: `u-${s}`, first_name: 'Old', last_name: 'Name' }).expect(201)).body.attributes;
      const updated = await api('patch', `/users/${id}`).send({ first_name: 'New', root_admin: '1', external_id: `upd-${s}` }).expect(200);
      expect(updated.body.attributes).toMatchObject({ id, first_name: 'New', last_name: 'Name', root_admin: true, external_id: `upd-${s}`, email: `u-${s}@example.test` });
      const res = await api('delete', `/users/${id}`).expect(204);
      expect(res.text).toBe('');
      await api('get', `/users/${id}`).expect(404);
    });

    it("should keep a user's language: given on create, changed on update, `en` by default, as stored (an import), and in the client API", async () => {
      const s = suffix();
      const language = async (id: number): Promise<string> => (await t.app.get(DataSource).query('SELECT language FROM "user" WHERE id = $1', [id]))[0].language;
      const created = await api('post', '/users').send({ email: `lang-${s}@example.test`, username: `lang-${s}`, first_name: 'L', last_name: 'G', language: 'pt_BR', password: 'a long enough password' }).expect(201);
      const { id } = created.body.attributes;
      expect(created.body.attributes.language).toBe('pt_BR');
      expect(await language(id)).toBe('pt_BR');
      expect((await api('get', `/users/${id}`).expect(200)).body.attributes.language).toBe('pt_BR');

      // An update without it keeps it; with it, changes it.
      expect((await api('patch', `/users/${id}`).send({ first_name: 'Lang' }).expect(200)).body.attributes.language).toBe('pt_BR');
      expect((await api('patch', `/users/${id}`).send({ language: 'zh-CN' }).expect(200)).body.attributes.language).toBe('zh-CN');
      expect(await language(id)).toBe('zh-CN');

      const plain = (await api('post', '/users').send({ email: `plain-${s}@example.test`, username: `plain-${s}`, first_name: 'P', last_name: 'L' }).expect(201)).body.attributes;
      expect(plain.language).toBe('en');
      expect(await language(plain.id)).toBe('en');

      // As an import writes it: the API shows what the row holds, in lists and in a server's `user` include too.
      await t.app.get(DataSource).query('UPDATE "user" SET language = $1 WHERE id = $2', ['de', plain.id]);
      expect((await api('get', `/users/${plain.id}`).expect(200)).body.attributes.language).toBe('de');
      const listed = await api('get', `/users?filter[email]=${encodeURIComponent(`plain-${s}@example.test`)}`).expect(200);
      expect(listed.body.data.map((u: { attributes: { language: string } }) => u.attributes.language)).toEqual(['de']);
      const egg = await createEgg(t.app, (await createNest(t.app)).id);
      const { node } = await createNodeRow(t.app);
      const server = await createServerRow(t.app, { node, egg, owner: { id: String(plain.id) } });
      const withUser = await api('get', `/servers/${server.id}?include=user`).expect(200);
      expect(withUser.body.attributes.relationships.user.attributes).toMatchObject({ id: plain.id, language: 'de' });

      // The Pterodactyl client API's account shows it to the user.
      const userCookie = await signIn(t, `lang-${s}@example.test`, 'a long enough password');
      const { key: clientKey } = await createPterodactylKey(t, userCookie, 'client');
      const account = await t.http().get('/pterodactyl/api/client/account').set('Authorization', `Bearer ${clientKey}`).set('Accept', PTERODACTYL_ACCEPT).expect(200);
      expect(account.body.attributes).toMatchObject({ id, language: 'zh-CN' });
    });

    it.each([
      ['too short', 'e'],
      ['too long', 'pt_BRA'],
      ['with a digit', 'e1'],
      ['with a space', 'e n'],
    ])('should refuse a language %s with 422, and change nothing', async (_label, language) => {
      const s = suffix();
      const res = await api('post', '/users').send({ email: `bad-${s}@example.test`, username: `bad-${s}`, first_name: 'B', last_name: 'L', language }).expect(422);
      expect(res.body).toEqual({
        errors: [{ code: 'ValidationException', status: '422', detail: 'The language format is invalid.', meta: { source_field: 'language', rule: 'regex' } }],
      });
      const { id } = (await api('post', '/users').send({ email: `ok-${s}@example.test`, username: `ok-${s}`, first_name: 'O', last_name: 'K' }).expect(201)).body.attributes;
      expect((await api('patch', `/users/${id}`).send({ language }).expect(422)).body.errors[0].meta).toEqual({ source_field: 'language', rule: 'regex' });
      expect((await api('get', `/users/${id}`).expect(200)).body.attributes.language).toBe('en');
    });

    it('should refuse a language that is not a string with 422', async () => {
      const s = suffix();
      const res = await api('post', '/users').send({ email: `n-${s}@example.test`, username: `n-${s}`, first_name: 'N', last_name: 'S', language: 12 }).expect(422);
      expect(res.body.errors.map((e: { detail: string; meta: unknown }) => [e.detail, e.meta])).toEqual([['The language must be a string.', { source_field: 'language', rule: 'string' }]]);
    });

    it('should refuse reads and writes the key has no permission for', async () => {
      const { key: readOnly } = await applicationKey(t, { users: 1 });
      await api('get', '/users', readOnly).expect(200);
      expect((await api('post', '/users', readOnly).send({}).expect(403)).body).toEqual(UNAUTHORIZED);
      expect((await api('get', '/nodes', readOnly).expect(403)).body).toEqual(UNAUTHORIZED);
    });
  });

  describe('locations, nodes and allocations', () => {
    const newLocation = async () => (await api('post', '/locations').send({ short: `loc-${suffix()}`, long: 'Frankfurt' }).expect(201)).body.attributes;
    const newNode = async (locationId: number, body: Record<string, unknown> = {}) =>
      (
        await api('post', '/nodes')
          .send({ name: `node ${suffix()}`, location_id: locationId, fqdn: `n-${suffix()}.example.test`, scheme: 'https', memory: 4096, disk: 10240, memory_overallocate: 0, disk_overallocate: 0, upload_size: 100, daemon_sftp: 2022, daemon_listen: 8080, ...body })
          .expect(201)
      ).body;

    it('should filter and sort users, nodes and locations as Pterodactyl allows, and refuse a filter or sort it does not', async () => {
      const ids = (res: { body: { data: { attributes: { id: number } }[] } }) => res.body.data.map((x) => x.attributes.id);
      const s = suffix();
      const fra = (await api('post', '/locations').send({ short: `fra-${s}`, long: `Frankfurt ${s}` }).expect(201)).body.attributes;
      const ber = (await api('post', '/locations').send({ short: `ber-${s}`, long: `Berlin ${s}` }).expect(201)).body.attributes;
      expect(ids(await api('get', `/locations?filter[short]=FRA-${s}`).expect(200))).toEqual([fra.id]);
      expect(ids(await api('get', `/locations?filter[long]=${s}`).expect(200))).toEqual([fra.id, ber.id]);
      expect(ids(await api('get', `/locations?filter[long]=${s}&sort=-id`).expect(200))).toEqual([ber.id, fra.id]);

      const small = (await newNode(fra.id, { name: `small ${s}`, memory: 1024 })).attributes;
      const big = (await newNode(ber.id, { name: `big ${s}`, memory: 8192 })).attributes;
      expect(ids(await api('get', `/nodes?filter[name]=${s}&sort=memory`).expect(200))).toEqual([small.id, big.id]);
      expect(ids(await api('get', `/nodes?filter[name]=${s}&sort=-memory`).expect(200))).toEqual([big.id, small.id]);
      expect(ids(await api('get', `/nodes?filter[fqdn]=${encodeURIComponent(big.fqdn)}`).expect(200))).toEqual([big.id]);
      expect(ids(await api('get', `/nodes?filter[uuid]=${small.uuid}`).expect(200))).toEqual([small.id]);
      // The token's identifier is not shown (Pterodactyl hides it too), but it can be filtered on.
      const [{ token_identifier: tokenId }] = await t.app.get(DataSource).query('SELECT token_identifier FROM node WHERE id = $1', [small.id]);
      expect(ids(await api('get', `/nodes?filter[daemon_token_id]=${tokenId}`).expect(200))).toEqual([small.id]);

      const users = [];
      for (let i = 0; i < 2; i++) {
        users.push((await api('post', '/users').send({ email: `sort-${s}-${i}@example.test`, username: `sort-${s}-${i}`, first_name: 'S', last_name: String(i) }).expect(201)).body.attributes);
      }
      expect(ids(await api('get', `/users?filter[username]=sort-${s}&sort=-id`).expect(200))).toEqual([users[1].id, users[0].id]);

      const badFilter = await api('get', '/users?filter[password]=x').expect(400);
      expect(badFilter.body.errors).toEqual([{ code: 'InvalidFilterQuery', status: '400', detail: 'Requested filter(s) `password` are not allowed. Allowed filter(s) are `email, uuid, username, external_id`.' }]);
      const badSort = await api('get', '/nodes?sort=name').expect(400);
      expect(badSort.body.errors).toEqual([{ code: 'InvalidSortQuery', status: '400', detail: 'Requested sort(s) `name` is not allowed. Allowed sort(s) are `id, uuid, memory, disk`.' }]);
      await api('get', '/locations?sort=-short').expect(400);
    });

    it('should create, view, update, list and delete a location', async () => {
      const location = await newLocation();
      expect(location).toEqual({ id: expect.any(Number), short: expect.stringMatching(/^loc-/), long: 'Frankfurt', updated_at: expect.stringMatching(ATOM), created_at: expect.stringMatching(ATOM) });
      expect((await api('get', `/locations/${location.id}`).expect(200)).body).toEqual({ object: 'location', attributes: location });
      expect((await api('patch', `/locations/${location.id}`).send({ long: 'Berlin' }).expect(200)).body.attributes).toMatchObject({ id: location.id, long: 'Berlin' });
      const list = await api('get', '/locations').expect(200);
      expect(list.body.data.map((l: { attributes: { id: number } }) => l.attributes.id)).toContain(location.id);
      const taken = await api('post', '/locations').send({ short: location.short }).expect(422);
      expect(taken.body.errors[0].meta).toEqual({ source_field: 'short', rule: 'unique' });
      await api('delete', `/locations/${location.id}`).expect(204);
      await api('get', `/locations/${location.id}`).expect(404);
    });

    it('should create a node with 201 and show it as Pterodactyl does, without its daemon token', async () => {
      const location = await newLocation();
      const created = await newNode(location.id, { description: 'rack 4' });
      expect(created).toEqual({
        object: 'node',
        attributes: {
          id: expect.any(Number),
          uuid: expect.stringMatching(UUID),
          public: true,
          name: expect.stringMatching(/^node /),
          description: 'rack 4',
          location_id: location.id,
          fqdn: expect.stringMatching(/\.example\.test$/),
          scheme: 'https',
          behind_proxy: false,
          maintenance_mode: false,
          memory: 4096,
          memory_overallocate: 0,
          disk: 10240,
          disk_overallocate: 0,
          upload_size: 100,
          daemon_listen: 8080,
          daemon_sftp: 2022,
          daemon_base: '/var/lib/pterodactyl/volumes',
          created_at: expect.stringMatching(ATOM),
          updated_at: expect.stringMatching(ATOM),
          allocated_resources: { memory: 0, disk: 0 },
        },
        meta: { resource: `http://panel.test/api/application/nodes/${created.attributes.id}` },
      });
      const { meta: _meta, ...item } = created;
      expect((await api('get', `/nodes/${created.attributes.id}`).expect(200)).body).toEqual(item);
      const updated = await api('patch', `/nodes/${created.attributes.id}`).send({ name: 'renamed node', memory: 8192 }).expect(200);
      expect(updated.body.attributes).toMatchObject({ name: 'renamed node', memory: 8192, fqdn: created.attributes.fqdn });
      const unknownLocation = await api('post', '/nodes').send({ name: 'x', location_id: 999999999, fqdn: 'x.example.test', scheme: 'https', memory: 1, disk: 1 }).expect(422);
      expect(unknownLocation.body.errors[0].meta).toEqual({ source_field: 'location_id', rule: 'exists' });
      await api('delete', `/nodes/${created.attributes.id}`).expect(204);
      expect((await api('get', `/nodes/${created.attributes.id}`).expect(404)).body).toEqual(NOT_FOUND);
    });

    it('should give the bare configuration Wings writes as config.yml, the same as Hatchery’s own endpoint', async () => {
      const node = (await newNode((await newLocation()).id)).attributes;
      const res = await api('get', `/nodes/${node.id}/configuration`).expect(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.body).toMatchObject({
        uuid: node.uuid,
        token_id: expect.stringMatching(/^[A-Za-z0-9]{16}$/),
        token: expect.stringMatching(/^[A-Za-z0-9]{64}$/),
        api: expect.objectContaining({ port: 8080 }),
        system: expect.objectContaining({ data: '/var/lib/pterodactyl/volumes', sftp: expect.objectContaining({ bind_port: 2022 }) }),
        remote: 'http://panel.test',
      });
      expect(res.body).not.toHaveProperty('object');
      const hatcheryKey = await createApiKey(t, cookie);
      const own = await t.http().get(`/api/admin/daemon/nodes/${node.id}/configuration`).set('Authorization', `Bearer ${hatcheryKey}`).expect(200);
      expect(res.body).toEqual(own.body.data);
      // Reading the configuration needs nodes read permission.
      const { key: usersOnly } = await applicationKey(t, { users: 3 });
      await api('get', `/nodes/${node.id}/configuration`, usersOnly).expect(403);
    });

    it('should add allocations with 204, list them, and delete a free one', async () => {
      const node = (await newNode((await newLocation()).id)).attributes;
      const created = await api('post', `/nodes/${node.id}/allocations`).send({ ip: '10.0.0.5', alias: 'play.example.test', ports: ['25565', '25570-25572'] }).expect(204);
      expect(created.text).toBe('');
      const list = await api('get', `/nodes/${node.id}/allocations`).expect(200);
      expect(list.body.data.map((a: { attributes: unknown }) => a.attributes)).toEqual(
        [25565, 25570, 25571, 25572].map((port) => ({ id: expect.any(Number), ip: '10.0.0.5', alias: 'play.example.test', port, notes: null, assigned: false })),
      );
      expect(list.body.data[0].object).toBe('allocation');
      const again = await api('post', `/nodes/${node.id}/allocations`).send({ ip: '10.0.0.5', ports: ['25565'] }).expect(422);
      expect(again.body.errors[0].meta).toEqual({ source_field: 'ports', rule: 'unique' });
      await api('delete', `/nodes/${node.id}/allocations/${list.body.data[0].attributes.id}`).expect(204);
      expect((await api('get', `/nodes/${node.id}/allocations`).expect(200)).body.meta.pagination.total).toBe(3);
      await api('get', '/nodes/999999999/allocations').expect(404);
    });

    it('should filter a node\'s allocations as Pterodactyl does: exact ip and port, alias containing, server_id', async () => {
      const node = (await newNode((await newLocation()).id)).attributes;
      await api('post', `/nodes/${node.id}/allocations`).send({ ip: '10.1.0.5', alias: 'Play.Example.test', ports: ['25565-25567'] }).expect(204);
      await api('post', `/nodes/${node.id}/allocations`).send({ ip: '2001:DB8::5', ports: ['25565'] }).expect(204);
      const ports = async (query: string) =>
        (await api('get', `/nodes/${node.id}/allocations?${query}`).expect(200)).body.data.map((a: { attributes: { ip: string; port: number } }) => `${a.attributes.ip}:${a.attributes.port}`);
      expect(await ports('filter[ip]=10.1.0.5')).toEqual(['10.1.0.5:25565', '10.1.0.5:25566', '10.1.0.5:25567']);
      // Exact, not contained; an IPv6 address in any spelling.
      expect(await ports('filter[ip]=10.1.0')).toEqual([]);
      expect(await ports(`filter[ip]=${encodeURIComponent('2001:db8:0::5')}`)).toEqual(['2001:db8::5:25565']);
      expect(await ports('filter[port]=25565')).toEqual(['10.1.0.5:25565', '2001:db8::5:25565']);
      expect(await ports('filter[port]=25565&filter[ip]=10.1.0.5')).toEqual(['10.1.0.5:25565']);
      expect(await ports('filter[port]=abc')).toEqual([]);
      expect(await ports('filter[ip_alias]=example')).toHaveLength(3);
      expect(await ports(`filter[ip_alias]=${encodeURIComponent('%')}`)).toEqual([]);
      // None is assigned: 0 (or any value that is no number) asks for the free ones, an id for its server's.
      expect(await ports('filter[server_id]=0')).toHaveLength(4);
      expect(await ports('filter[server_id]=none')).toHaveLength(4);
      expect(await ports('filter[server_id]=1')).toEqual([]);
      expect(await ports('filter[server_id]=99999999999999999999999')).toEqual([]);
      const refused = await api('get', `/nodes/${node.id}/allocations?filter[notes]=x`).expect(400);
      expect(refused.body.errors[0]).toMatchObject({ code: 'InvalidFilterQuery', status: '400' });
    });

    it('should list the deployable nodes: public ones in the locations asked for, with room for the memory and disk', async () => {
      const here = await newLocation();
      const there = await newLocation();
      const big = (await newNode(here.id, { memory: 8192, disk: 50000 })).attributes;
      const small = (await newNode(here.id, { memory: 512, disk: 50000 })).attributes;
      const elastic = (await newNode(here.id, { memory: 512, disk: 50000, memory_overallocate: -1 })).attributes;
      const elsewhere = (await newNode(there.id, { memory: 8192, disk: 50000 })).attributes;
      const ids = async (query: string) => (await api('get', `/nodes/deployable?${query}`).expect(200)).body.data.map((n: { attributes: { id: number } }) => n.attributes.id);
      expect(await ids(`memory=1024&disk=1024&location_ids[]=${here.id}`)).toEqual([big.id, elastic.id]);
      expect(await ids(`memory=256&disk=1024&location_ids[]=${here.id}&location_ids[]=${there.id}`)).toEqual([big.id, small.id, elastic.id, elsewhere.id]);
      expect(await ids(`memory=1024&disk=60000&location_ids[]=${here.id}`)).toEqual([]);
      // What a node's servers are given counts against its room: 7,680 MiB on the big node leaves 512.
      const egg = await createEgg(t.app, (await createNest(t.app)).id);
      await createServerRow(t.app, { node: { id: String(big.id) }, egg, owner: await createUser(t.app), overrides: { memory: 7680 } });
      expect(await ids(`memory=1024&disk=1024&location_ids[]=${here.id}`)).toEqual([elastic.id]);
      expect(await ids(`memory=512&disk=1024&location_ids[]=${here.id}`)).toEqual([big.id, small.id, elastic.id]);
      const bad = await api('get', '/nodes/deployable?disk=x').expect(422);
      expect(bad.body.errors.map((e: { meta: unknown }) => e.meta)).toEqual([
        { source_field: 'memory', rule: 'required' },
        { source_field: 'disk', rule: 'integer' },
      ]);
    });
  });

  (eggFixtureFiles().includes('egg-paper.json') ? describe : describe.skip)('nests and eggs', () => {
    let nest: { id: string };
    let egg: { id: string };

    beforeAll(async () => {
      const admin = (method: Method, path: string) => t.http()[method](path).set('Cookie', cookie).set('Origin', TEST_ORIGIN);
      nest = (await admin('post', '/api/admin/nests').send({ name: `Minecraft ${suffix()}`, author: 'ops@example.test' }).expect(201)).body.data;
      const paper = JSON.parse(readFileSync(join(EGG_FIXTURES_DIR, 'egg-paper.json'), 'utf8'));
      egg = (await admin('post', `/api/admin/eggs/import?nestId=${nest.id}`).send(paper).expect(201)).body.data;
    });

    const intIdOf = async (table: 'nest' | 'egg', uuid: string): Promise<number> =>
      (await t.app.get(DataSource).query(`SELECT int_id FROM "${table}" WHERE id = $1`, [uuid]))[0].int_id;

    it('should show nests by integer id, with their eggs included', async () => {
      const nestId = await intIdOf('nest', nest.id);
      const eggId = await intIdOf('egg', egg.id);
      const res = await api('get', `/nests/${nestId}?include=eggs`).expect(200);
      expect(res.body).toEqual({
        object: 'nest',
        attributes: {
          id: nestId,
          uuid: nest.id,
          author: 'ops@example.test',
          name: expect.stringMatching(/^Minecraft /),
          description: null,
          created_at: expect.stringMatching(ATOM),
          updated_at: expect.stringMatching(ATOM),
          relationships: { eggs: { object: 'list', data: [expect.objectContaining({ object: 'egg', attributes: expect.objectContaining({ id: eggId }) })] } },
        },
      });
      const all = await api('get', '/nests').expect(200);
      expect(all.body.data.map((n: { attributes: { id: number } }) => n.attributes.id)).toContain(nestId);
      expect((await api('get', '/nests/999999').expect(404)).body).toEqual(NOT_FOUND);
      expect((await api('get', `/nests/${nest.id}`).expect(404)).body).toEqual(NOT_FOUND);
    });

    it('should show an egg as Pterodactyl does, with its variables and nest included', async () => {
      const nestId = await intIdOf('nest', nest.id);
      const eggId = await intIdOf('egg', egg.id);
      const res = await api('get', `/nests/${nestId}/eggs/${eggId}?include=variables,nest`).expect(200);
      const a = res.body.attributes;
      expect(res.body.object).toBe('egg');
      expect(a).toMatchObject({
        id: eggId,
        uuid: egg.id,
        name: 'Paper',
        nest: nestId,
        docker_image: expect.stringMatching(/^ghcr\.io\/pterodactyl\/yolks:java_/),
        docker_images: expect.objectContaining({ 'Java 21': 'ghcr.io/pterodactyl/yolks:java_21' }),
        config: { files: expect.objectContaining({ 'server.properties': expect.any(Object) }), startup: { done: expect.any(String) }, stop: 'stop', logs: {}, file_denylist: [], extends: null },
        startup: expect.stringContaining('java'),
        script: { privileged: true, install: expect.stringContaining('PROJECT=paper'), entry: 'ash', container: expect.any(String), extends: null },
      });
      expect(a.relationships.nest).toEqual({ object: 'nest', attributes: expect.objectContaining({ id: nestId }) });
      const variables = a.relationships.variables;
      expect(variables.object).toBe('list');
      expect(variables.data.map((v: { attributes: { env_variable: string } }) => v.attributes.env_variable)).toContain('SERVER_JARFILE');
      expect(variables.data[0]).toEqual({
        object: 'egg_variable',
        attributes: {
          id: expect.any(Number),
          egg_id: eggId,
          name: expect.any(String),
          description: expect.any(String),
          env_variable: expect.any(String),
          default_value: expect.any(String),
          user_viewable: expect.any(Boolean),
          user_editable: expect.any(Boolean),
          rules: expect.any(String),
          created_at: expect.stringMatching(ATOM),
          updated_at: expect.stringMatching(ATOM),
        },
      });
      const listed = await api('get', `/nests/${nestId}/eggs`).expect(200);
      expect(listed.body).toEqual({ object: 'list', data: [expect.objectContaining({ object: 'egg', attributes: expect.objectContaining({ id: eggId }) })] });
      expect(listed.body.data[0].attributes).not.toHaveProperty('relationships');
      await api('get', `/nests/${nestId + 1000}/eggs/${eggId}`).expect(404);
    });

    it('should give a null resource for an include the key may not read', async () => {
      const { key: eggsOnly } = await applicationKey(t, { eggs: 1 });
      const nestId = await intIdOf('nest', nest.id);
      const eggId = await intIdOf('egg', egg.id);
      await api('get', `/nests/${nestId}`, eggsOnly).expect(403);
      const res = await api('get', `/nests/${nestId}/eggs/${eggId}?include=nest`, eggsOnly).expect(200);
      expect(res.body.attributes.relationships).toEqual({ nest: { object: 'null_resource', attributes: null } });
    });
  });

  it('should include a node\'s allocations and location', async () => {
    const location = (await api('post', '/locations').send({ short: `inc-${suffix()}` }).expect(201)).body.attributes;
    const node = (
      await api('post', '/nodes').send({ name: 'with includes', location_id: location.id, fqdn: `inc-${suffix()}.example.test`, scheme: 'https', memory: 1024, disk: 1024 }).expect(201)
    ).body.attributes;
    await api('post', `/nodes/${node.id}/allocations`).send({ ip: '10.9.0.1', ports: ['30000-30001'] }).expect(204);
    const res = await api('get', `/nodes/${node.id}?include=allocations,location,servers`).expect(200);
    expect(res.body.attributes.relationships).toEqual({
      allocations: { object: 'list', data: [30000, 30001].map((port) => ({ object: 'allocation', attributes: expect.objectContaining({ port, ip: '10.9.0.1' }) })) },
      location: { object: 'location', attributes: location },
    });
    const listed = await api('get', '/nodes?include=location').expect(200);
    expect(listed.body.data.find((n: { attributes: { id: number } }) => n.attributes.id === node.id).attributes.relationships).toEqual({
      location: { object: 'location', attributes: location },
    });
  });

  it("should send Pterodactyl's admin addresses (billing modules link to them) to the web UI's pages for the same ids", async () => {
    /** Follows one redirect: its Location, and what the panel answers there. */
    const land = async (path: string) => {
      const first = await t.http().get(path).expect(302);
      const location = first.headers.location;
      const page = await t.http().get(location).expect(200);
      expect(page.text).toBe(INDEX);
      return location;
    };
    const user = (await api('post', '/users').send({ email: `linked-${suffix()}@example.test`, username: `linked-${suffix()}`, first_name: 'Li', last_name: 'Nk' }).expect(201)).body.attributes;
    expect(await land(`/admin/users/view/${user.id}`)).toBe(`/admin/users/${user.id}`);
    // The page at that address reads the same account by that id.
    expect((await t.http().get(`/api/admin/users/${user.id}`).set('Cookie', cookie).expect(200)).body.data).toMatchObject({ id: String(user.id), email: user.email });

    const location = (await api('post', '/locations').send({ short: `lnk-${suffix()}` }).expect(201)).body.attributes;
    const node = (await api('post', '/nodes').send({ name: 'linked', location_id: location.id, fqdn: `lnk-${suffix()}.example.test`, scheme: 'https', memory: 1024, disk: 1024 }).expect(201)).body.attributes;
    expect(await land(`/admin/nodes/view/${node.id}`)).toBe(`/admin/nodes/${node.id}`);
    expect(await land(`/admin/nodes/view/${node.id}/allocation`)).toBe(`/admin/nodes/${node.id}?tab=allocations`);
    expect((await t.http().get(`/api/admin/nodes/${node.id}`).set('Cookie', cookie).expect(200)).body.data).toMatchObject({ id: String(node.id), name: 'linked' });

    // WHMCS's "Go to Service"; the server's sub-pages open the matching tab.
    expect(await land('/admin/servers/view/41')).toBe('/admin/servers/41');
    expect(await land('/admin/servers/view/41/build')).toBe('/admin/servers/41?tab=build');
    expect(await land('/admin/servers/view/41/delete?x=1')).toBe('/admin/servers/41?tab=manage');
    // No such server: the page it lands on says so, from the API's 404.
    expect((await t.http().get('/api/admin/servers/41').set('Cookie', cookie).expect(404)).body.code).toBe('SERVER_NOT_FOUND');

    // Pages whose ids are not ours, or that have no page here: the list they belong to.
    expect(await land(`/admin/locations/view/${location.id}`)).toBe('/admin/locations');
    expect(await land('/admin/nests/view/1')).toBe('/admin/nests');
    expect(await land('/admin/nests/egg/3/variables')).toBe('/admin/nests');
    expect(await land('/admin/databases')).toBe('/admin/database-hosts');
    expect(await land('/admin/api')).toBe('/admin/application-keys');
    expect(await land('/admin/settings/mail')).toBe('/admin/settings');

    // Our own addresses (the lists share Pterodactyl's), and ids or sub-pages that cannot be: the web UI, whose router shows them or its "not found".
    for (const path of ['/admin/servers', '/admin/users', '/admin/nodes', '/admin/locations', '/admin/nests', '/admin/servers/new', '/admin/settings', '/admin/servers/view/abc', '/admin/servers/view/0', '/admin/servers/view/1/constructor', `/admin/servers/view/${'9'.repeat(30)}`, '/admin/users/view/5/x']) {
      const res = await t.http().get(path).expect(200);
      expect([path, res.text]).toEqual([path, INDEX]);
    }
  });

  it('should keep the Hatchery session and origin rules out of the way of keys (no Origin needed for writes)', async () => {
    const admin = await createUser(t.app, { admin: true });
    const session = await signIn(t, admin.email);
    // A session does not open the layer, even with a trusted origin.
    await t.http().post('/api/application/locations').set('Cookie', session).set('Origin', TEST_ORIGIN).send({ short: 'nope' }).expect(401);
  });
});
