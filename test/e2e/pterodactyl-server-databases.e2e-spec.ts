import { eggFixtureFiles } from 'test/utils/fixtures';
import { MariaDb, mariadbAvailable, reserveServerIds, testHostBody } from 'test/utils/mariadb';
import { SimPanel, startSimPanel } from 'test/utils/sim-panel';
import { dbKinds } from 'test/utils/test-db';
import { ALL_APPLICATION_PERMISSIONS, NOT_FOUND, PTERODACTYL_ACCEPT } from 'test/utils/pterodactyl';

const hasPaper = eggFixtureFiles().includes('egg-paper.json');
const ATOM = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$/;
const ACCESS_DENIED = /^ER_ACCESS_DENIED/;

(hasPaper && mariadbAvailable() ? describe : describe.skip).each(dbKinds(['postgres']))(
  "Pterodactyl application API: a server's databases on a real MariaDB (%s)",
  (db) => {
    let p: SimPanel;
    let mariadb: MariaDb;
    let key: string;
    let hostId: number;
    let server: { id: string; uuid: string };
    const made: string[] = [];

    type Method = 'get' | 'post' | 'delete';
    const api = (method: Method, path: string, bearer = key) =>
      p.t.http()[method](`/api/application${path}`).set('Authorization', `Bearer ${bearer}`).set('Accept', PTERODACTYL_ACCEPT);

    beforeAll(async () => {
      p = await startSimPanel(db);
      mariadb = await MariaDb.connect();
      await reserveServerIds(p.t, mariadb);
      key = (await p.admin('post', '/api/admin/pterodactyl-keys').send({ description: 'billing', permissions: ALL_APPLICATION_PERMISSIONS }).expect(201)).body.data.key;
      hostId = Number((await p.admin('post', '/api/admin/database-hosts').send(testHostBody()).expect(201)).body.data.id);
      server = await p.createServer({ name: 'With databases', database_limit: 2 });
      made.push(server.id);
    });

    afterAll(async () => {
      await mariadb?.dropLeftoversOf(made);
      await mariadb?.close();
      await p?.close();
    });

    it('should create a database on the host, with the password only on that answer, then reset it and delete it', async () => {
      const created = await api('post', `/servers/${server.id}/databases?include=password,host`).send({ database: 'shop', remote: '%', host: hostId }).expect(201);
      const attributes = created.body.attributes;
      expect(created.body.object).toBe('server_database');
      expect(attributes).toMatchObject({
        id: expect.any(Number),
        server: Number(server.id),
        host: hostId,
        database: `s${server.id}_shop`,
        username: `u${server.id}_shop`,
        remote: '%',
        max_connections: expect.any(Number),
        created_at: expect.stringMatching(ATOM),
        updated_at: expect.stringMatching(ATOM),
      });
      expect(attributes.relationships.host).toMatchObject({ object: 'database_host', attributes: { id: hostId, port: expect.any(Number), node: null } });
      expect(JSON.stringify(attributes.relationships.host)).not.toContain('password');
      const password = attributes.relationships.password.attributes.password as string;
      expect(await mariadb.as(attributes.username, password, attributes.database, async (c) => (await c.query('SELECT 1 AS one'))[0])).toEqual([{ one: 1 }]);

      // Listed and viewed; the password cannot be shown again (the panel keeps none).
      const listed = await api('get', `/servers/${server.id}/databases?include=password`).expect(200);
      expect(listed.body.object).toBe('list');
      expect(listed.body.data).toHaveLength(1);
      expect(listed.body.data[0].attributes.relationships.password).toEqual({ object: 'null_resource', attributes: null });
      const viewed = await api('get', `/servers/${server.id}/databases/${attributes.id}`).expect(200);
      expect(viewed.body.attributes).toMatchObject({ id: attributes.id, database: attributes.database });
      // The server's own view includes them too (ServerTransformer's `databases`), only with read on them.
      const included = await api('get', `/servers/${server.id}?include=databases`).expect(200);
      expect(included.body.attributes.relationships.databases).toEqual({ object: 'list', data: [{ object: 'server_database', attributes: viewed.body.attributes }] });
      const listedServer = (await api('get', '/servers?include=databases&per_page=100').expect(200)).body.data.find((s: { attributes: { id: number } }) => s.attributes.id === Number(server.id));
      expect(listedServer.attributes.relationships.databases.data.map((d: { attributes: { id: number } }) => d.attributes.id)).toEqual([attributes.id]);
      const noDatabases = (await p.admin('post', '/api/admin/pterodactyl-keys').send({ description: 'no databases', permissions: { ...ALL_APPLICATION_PERMISSIONS, server_databases: 0 } }).expect(201)).body.data.key;
      const withheld = await api('get', `/servers/${server.id}?include=databases`, noDatabases).expect(200);
      expect(withheld.body.attributes.relationships.databases).toEqual({ object: 'null_resource', attributes: null });

      // A new password: the old one no longer opens the database.
      await api('post', `/servers/${server.id}/databases/${attributes.id}/reset-password`).expect(204);
      expect((await mariadb.connectAs(attributes.username, password, attributes.database)).outcome).toMatch(ACCESS_DENIED);

      await api('delete', `/servers/${server.id}/databases/${attributes.id}`).expect(204);
      expect(await mariadb.leftoversOf([server.id])).toEqual({ databases: [], users: [] });
      await api('get', `/servers/${server.id}/databases/${attributes.id}`).expect(404);
    });

    it("should refuse what the key may not do, another server's database, bad bodies, and the server's limit", async () => {
      const readOnly = (await p.admin('post', '/api/admin/pterodactyl-keys').send({ description: 'read', permissions: { ...ALL_APPLICATION_PERMISSIONS, server_databases: 1, database_hosts: 0 } }).expect(201)).body.data.key;
      const none = (await p.admin('post', '/api/admin/pterodactyl-keys').send({ description: 'none', permissions: { ...ALL_APPLICATION_PERMISSIONS, server_databases: 0 } }).expect(201)).body.data.key;
      await api('get', `/servers/${server.id}/databases`, none).expect(403);
      await api('post', `/servers/${server.id}/databases`, readOnly).send({ database: 'ro', remote: '%', host: hostId }).expect(403);

      const first = (await api('post', `/servers/${server.id}/databases`).send({ database: 'one', remote: '%', host: hostId }).expect(201)).body.attributes;
      // Without read on database hosts, the host include is left out.
      const hidden = await api('get', `/servers/${server.id}/databases/${first.id}?include=host`, readOnly).expect(200);
      expect(hidden.body.attributes.relationships.host).toEqual({ object: 'null_resource', attributes: null });

      const other = await p.createServer({ name: 'Other', database_limit: 1 });
      made.push(other.id);
      expect((await api('get', `/servers/${other.id}/databases/${first.id}`).expect(404)).body).toEqual(NOT_FOUND);
      await api('delete', `/servers/${other.id}/databases/${first.id}`).expect(404);
      await api('get', '/servers/999999999/databases').expect(404);
      await api('get', `/servers/${server.id}/databases/nope`).expect(404);

      const badName = await api('post', `/servers/${server.id}/databases`).send({ database: 'bad name!', remote: '%', host: hostId }).expect(422);
      expect(badName.body.errors[0].meta.source_field).toBe('database');
      const noHost = await api('post', `/servers/${server.id}/databases`).send({ database: 'two', remote: '%' }).expect(422);
      expect(noHost.body.errors[0].meta.source_field).toBe('host');
      const unknownHost = await api('post', `/servers/${server.id}/databases`).send({ database: 'two', remote: '%', host: 999999 }).expect(422);
      expect(unknownHost.body.errors[0].meta.source_field).toBe('host');
      const taken = await api('post', `/servers/${server.id}/databases`).send({ database: 'one', remote: '%', host: hostId }).expect(409);
      expect(taken.body.errors[0].code).toBe('ConflictHttpException');

      await api('post', `/servers/${server.id}/databases`).send({ database: 'two', remote: '%', host: hostId }).expect(201);
      const over = await api('post', `/servers/${server.id}/databases`).send({ database: 'three', remote: '%', host: hostId });
      expect(over.status).toBe(409);
      expect(over.body.errors[0].detail).toContain('database limit');
      // Nothing was made for the refused ones.
      expect((await mariadb.leftoversOf([server.id])).databases.sort()).toEqual([`s${server.id}_one`, `s${server.id}_two`]);
      expect((await api('get', `/servers/${server.id}/databases`).expect(200)).body.data).toHaveLength(2);
    });
  },
);
