import { randomBytes } from 'node:crypto';
import type { Connection } from 'mysql2/promise';
import { DataSource } from 'typeorm';
import { DATABASE_GRANTS } from 'src/modules/databases/mysql-host.client';
import { EggEntity } from 'src/modules/eggs/egg.entity';
import { NodeEntity } from 'src/modules/nodes/node.entity';
import { ServerEntity } from 'src/modules/servers/server.entity';
import { UserEntity } from 'src/modules/users/user.entity';
import { createEgg, createNest } from 'test/factories/egg.factory';
import { createNodeRow } from 'test/factories/node.factory';
import { createServerRow } from 'test/factories/server.factory';
import { createUser } from 'test/factories/user.factory';
import { testMySqlAccount } from 'test/setup/mariadb-env';
import { signIn } from 'test/utils/auth';
import { createTestApp, TEST_ORIGIN, TestApp } from 'test/utils/create-test-app';
import { LogCapture } from 'test/utils/log-capture';
import { MariaDb, mariadbAvailable, reserveServerIds, testHostBody } from 'test/utils/mariadb';
import { closedPort, DECIMAL_ID, denial, expectError, expectValidation, FakeDaemon, ISO, Json, Method, UNAUTHENTICATED } from 'test/utils/nodes';
import { waitFor } from 'test/utils/sim-panel';
import { dbKinds } from 'test/utils/test-db';

const PASSWORD = /^[A-Za-z0-9_-]{32}$/;
const ACCESS_DENIED = /^ER_ACCESS_DENIED/;
const NO_HOST = ['NO_DATABASE_HOST', 'No database host can take a database for this server; ask an administrator to add one'] as const;
const DATABASE_NOT_FOUND = ['DATABASE_NOT_FOUND', 'Database not found'] as const;

(mariadbAvailable() ? describe.each(dbKinds(['postgres'])) : describe.skip.each(['postgres' as const]))('server databases on a real MariaDB (%s)', (db) => {
  const logs = new LogCapture();
  /** Every password the API handed out; none may ever reach a log line or a list. */
  const passwords: string[] = [];
  const { host: mysqlHost, port: mysqlPort } = testMySqlAccount();
  let t: TestApp;
  let mariadb: MariaDb;
  let firstServerId: number;
  let daemon: FakeDaemon;
  let node: NodeEntity;
  let egg: EggEntity;
  let owner: UserEntity;
  let ownerCookie: string;
  let adminCookie: string;

  const as = (method: Method, path: string, c = ownerCookie) => t.http()[method](path).set('Cookie', c).set('Origin', TEST_ORIGIN);
  const ds = () => t.app.get(DataSource);
  const dbs = (server: ServerEntity) => `/api/client/servers/${server.uuid}/databases`;
  const newServer = async (overrides: Partial<ServerEntity> = {}, on: NodeEntity = node): Promise<ServerEntity> =>
    createServerRow(t.app, { node: on, egg, owner, overrides });
  /** Another node; only the first one's daemon (servers deleted through the API live there) answers. */
  const newNode = async (): Promise<NodeEntity> => (await createNodeRow(t.app)).node;
  const createHost = async (overrides: Json = {}): Promise<Json> => (await as('post', '/api/admin/database-hosts', adminCookie).send(testHostBody(overrides)).expect(201)).body.data;
  const patchHost = async (id: string, body: Json) => as('patch', `/api/admin/database-hosts/${id}`, adminCookie).send(body).expect(200);
  const createDb = async (server: ServerEntity, name: string, remote = '%'): Promise<{ id: string; name: string; username: string; password: string }> => {
    const res = await as('post', dbs(server)).send({ name, remote });
    expect([res.status, res.body.code]).toEqual([201, undefined]);
    passwords.push(res.body.meta.password);
    return { ...res.body.data, password: res.body.meta.password };
  };
  const listOf = async (server: ServerEntity): Promise<Json> => (await as('get', dbs(server)).expect(200)).body;
  const rows = async (): Promise<number> => (await ds().query<{ n: number }[]>('SELECT count(*)::int AS n FROM server_database'))[0].n;
  const hostIdOf = async (id: string): Promise<string> => (await ds().query<{ h: string }[]>('SELECT host_id::text AS h FROM server_database WHERE id = $1', [id]))[0].h;
  const activity = async (server: ServerEntity, event: string): Promise<Json[]> =>
    (await as('get', `/api/client/servers/${server.uuid}/activity?perPage=100`).expect(200)).body.data.filter((a: Json) => a.event === event);
  /** The database-level grant of a user, as its privilege list, and every other grant line. */
  const grantsOf = async (user: string, host: string): Promise<{ on: string; privileges: string[] }[]> =>
    (await mariadb.grantsOf(user, host))
      .filter((g) => !g.startsWith('GRANT USAGE ON *.*'))
      .map((g) => {
        const [, privileges, on] = /^GRANT (.+) ON (\S+) TO /.exec(g)!;
        return { on, privileges: privileges.split(', ').sort() };
      });

  beforeAll(async () => {
    t = await createTestApp({ db, logStream: logs });
    mariadb = await MariaDb.connect();
    firstServerId = await reserveServerIds(t, mariadb);
    daemon = await FakeDaemon.start();
    daemon.reply = (call) => (call.method === 'DELETE' ? { status: 204 } : undefined);
    node = (await createNodeRow(t.app, { fqdn: '127.0.0.1', scheme: 'http', daemonListen: daemon.port })).node;
    egg = await createEgg(t.app, (await createNest(t.app)).id);
    owner = await createUser(t.app);
    ownerCookie = await signIn(t, owner.email);
    adminCookie = await signIn(t, (await createUser(t.app, { admin: true })).email);
  });

  afterAll(async () => {
    await mariadb?.dropLeftoversOf(Array.from({ length: 1_000 }, (_v, i) => String(firstServerId - 1 + i)));
    await mariadb?.close();
    await daemon?.stop();
    await t?.close();
  });

  it('should list nothing with hostAvailable false, and answer 409 NO_DATABASE_HOST, while no host serves the server', async () => {
    const server = await newServer();
    // A host linked to another node is not one for this server.
    await createHost({ nodeId: (await newNode()).id });
    expect(await listOf(server)).toEqual({ data: [], hostAvailable: false, meta: { pagination: { total: 0, count: 0, perPage: 50, currentPage: 1, totalPages: 1 } } });
    expectError(await as('post', dbs(server)).send({ name: 'main', remote: '%' }), 409, ...NO_HOST);
    expect(await rows()).toBe(0);
    expect(await mariadb.databaseExists(`s${server.id}_main`)).toBe(false);
  });

  describe('with a global host', () => {
    let globalHost: Json;

    beforeAll(async () => {
      globalHost = await createHost();
    });

    describe('a database from creation to deletion', () => {
      let server: ServerEntity;
      let created: { id: string; name: string; username: string; password: string };
      let current: string;

      beforeAll(async () => {
        server = await newServer();
      });

      it('should create s{id}_main and u{id}_main@% with the explicit grant list and show the password once', async () => {
        const res = await as('post', dbs(server)).send({ name: 'main', remote: '%' }).expect(201);
        expect(res.body).toEqual({
          data: { id: expect.stringMatching(DECIMAL_ID), name: `s${server.id}_main`, username: `u${server.id}_main`, host: mysqlHost, port: mysqlPort },
          meta: { password: expect.stringMatching(PASSWORD) },
        });
        created = { ...res.body.data, password: res.body.meta.password };
        current = created.password;
        passwords.push(current);
        expect(await hostIdOf(created.id)).toBe(globalHost.id);

        expect(await mariadb.databaseExists(`s${server.id}_main`)).toBe(true);
        expect(await mariadb.userHosts(`u${server.id}_main`)).toEqual(['%']);
        // Only the database itself, with `_` escaped so that it is no wildcard; no GRANT ALL, no GRANT OPTION.
        expect(await grantsOf(`u${server.id}_main`, '%')).toEqual([{ on: `\`s${server.id}\\_main\`.*`, privileges: [...DATABASE_GRANTS].sort() }]);
        expect(await activity(server, 'server.database.create')).toEqual([
          expect.objectContaining({ metadata: { database: `s${server.id}_main`, remote: '%' } }),
        ]);
      });

      it('should let the returned credentials CREATE TABLE and INSERT from the allowed remote, and nothing outside the database', async () => {
        await mariadb.as(created.username, current, created.name, async (c) => {
          await c.query('CREATE TABLE players (id INT PRIMARY KEY, name VARCHAR(32))');
          await c.query('INSERT INTO players VALUES (1, ?), (2, ?)', ['alex', 'steve']);
          const [selected] = await c.query('SELECT name FROM players ORDER BY id');
          expect(selected).toEqual([{ name: 'alex' }, { name: 'steve' }]);
          await expect(c.query('SELECT User FROM mysql.user')).rejects.toMatchObject({ code: 'ER_TABLEACCESS_DENIED_ERROR' });
          await expect(c.query('CREATE DATABASE sneaky')).rejects.toMatchObject({ code: 'ER_DBACCESS_DENIED_ERROR' });
        });
      });

      it('should list it with the 2.5 fields, status ready and hostAvailable, and never a password', async () => {
        const body = await listOf(server);
        expect(body).toEqual({
          data: [
            {
              id: created.id,
              name: `s${server.id}_main`,
              username: `u${server.id}_main`,
              remote: '%',
              status: 'ready',
              host: { hostname: mysqlHost, port: mysqlPort },
              createdAt: expect.stringMatching(ISO),
              updatedAt: expect.stringMatching(ISO),
            },
          ],
          hostAvailable: true,
          meta: { pagination: { total: 1, count: 1, perPage: 50, currentPage: 1, totalPages: 1 } },
        });
        expect(JSON.stringify(body)).not.toContain(current);
        expect(JSON.stringify(body)).not.toMatch(/password/i);
      });

      it('should rotate the password: the old one is refused at once, its open session is closed, the new one works on the same data', async () => {
        const { connection: open } = await mariadb.connectAs(created.username, current, created.name);
        const before = (await listOf(server)).data[0];
        const res = await as('post', `${dbs(server)}/${created.id}/rotate-password`).expect(200);
        expect(res.body).toEqual({ data: { ...before, updatedAt: expect.stringMatching(ISO) }, meta: { password: expect.stringMatching(PASSWORD) } });
        const old = current;
        current = res.body.meta.password;
        passwords.push(current);
        expect(current).not.toBe(old);

        expect((await mariadb.connectAs(created.username, old, created.name)).outcome).toMatch(ACCESS_DENIED);
        await expect(open!.query('SELECT 1')).rejects.toThrow();
        open!.destroy();
        await mariadb.as(created.username, current, created.name, async (c) => {
          expect((await c.query('SELECT count(*) AS n FROM players'))[0]).toEqual([{ n: 2 }]);
        });
        expect(await activity(server, 'server.database.rotate-password')).toEqual([
          expect.objectContaining({ metadata: { database: `s${server.id}_main` } }),
        ]);
        expect(JSON.stringify((await listOf(server)).data)).not.toContain(current);
      });

      it('should delete the database, its user and all data (information_schema, mysql.user), then the record', async () => {
        const res = await as('delete', `${dbs(server)}/${created.id}`).expect(204);
        expect(res.text).toBe('');
        expect(await mariadb.databaseExists(`s${server.id}_main`)).toBe(false);
        expect(await mariadb.userHosts(`u${server.id}_main`)).toEqual([]);
        expect((await mariadb.connectAs(created.username, current)).outcome).toMatch(ACCESS_DENIED);
        expect((await listOf(server)).data).toEqual([]);
        expect(await activity(server, 'server.database.delete')).toEqual([expect.objectContaining({ metadata: { database: `s${server.id}_main` } })]);
        expectError(await as('delete', `${dbs(server)}/${created.id}`), 404, ...DATABASE_NOT_FOUND);
      });
    });

    it('should accept connections only from the remote given', async () => {
      const server = await newServer();
      const far = await createDb(server, 'far', '10.9.8.7');
      expect(await mariadb.userHosts(far.username)).toEqual(['10.9.8.7']);
      expect((await mariadb.connectAs(far.username, far.password, far.name)).outcome).toMatch(/^ER_ACCESS_DENIED|^ER_HOST_NOT_PRIVILEGED/);
      const near = await createDb(server, 'near', '127.0.0.1');
      expect(await mariadb.userHosts(near.username)).toEqual(['127.0.0.1']);
      await mariadb.as(near.username, near.password, near.name, async (c) => {
        expect((await c.query('SELECT DATABASE() AS d'))[0]).toEqual([{ d: near.name }]);
      });
    });

    it('should not let `_` in a name act as a wildcard reaching a database of the same shape', async () => {
      const server = await newServer();
      const mine = await createDb(server, 'a_b');
      // `s{id}_a_b` unescaped in GRANT would also match `s{id}_aXb`.
      await mariadb.query(`CREATE DATABASE \`s${server.id}_aXb\``);
      await mariadb.query(`CREATE TABLE \`s${server.id}_aXb\`.secret (v INT)`);
      await mariadb.as(mine.username, mine.password, mine.name, async (c) => {
        await c.query('CREATE TABLE mine (v INT)');
        await expect(c.query(`SELECT * FROM \`s${server.id}_aXb\`.secret`)).rejects.toMatchObject({ code: 'ER_TABLEACCESS_DENIED_ERROR' });
      });
    });

    it('should give each user MAX_USER_CONNECTIONS when the host sets maxUserConnections', async () => {
      const capped = await newNode();
      await createHost({ nodeId: capped.id, maxUserConnections: 2 });
      const server = await newServer({}, capped);
      const made = await createDb(server, 'capped');
      expect((await mariadb.query('SELECT max_user_connections AS m FROM mysql.user WHERE User = ?', [made.username]))[0].m).toBe(2);
      const open: Connection[] = [];
      try {
        for (let i = 0; i < 2; i++) {
          open.push((await mariadb.connectAs(made.username, made.password, made.name)).connection!);
        }
        expect((await mariadb.connectAs(made.username, made.password, made.name)).outcome).toMatch(/^ER_USER_LIMIT_REACHED$|^ER_TOO_MANY_USER_CONNECTIONS$/);
      } finally {
        open.forEach((c) => c.destroy());
      }
    });

    it('should place databases on the hosts of the server node, fewest first, and on global hosts once those are full', async () => {
      const own = await newNode();
      const first = await createHost({ nodeId: own.id });
      const second = await createHost({ nodeId: own.id });
      const server = await newServer({}, own);
      const placed: string[] = [];
      for (const name of ['one', 'two', 'three', 'four']) {
        placed.push(await hostIdOf((await createDb(server, name)).id));
      }
      expect(placed).toEqual([first.id, second.id, first.id, second.id]);
      await patchHost(first.id, { maxDatabases: 2 });
      await patchHost(second.id, { maxDatabases: 2 });
      expect(await hostIdOf((await createDb(server, 'five')).id)).toBe(globalHost.id);
    });

    it('should answer 409 NO_DATABASE_HOST with hostAvailable false when every host for the server is full', async () => {
      const server = await newServer();
      await patchHost(globalHost.id, { maxDatabases: 0 });
      try {
        expect((await listOf(server)).hostAvailable).toBe(false);
        const before = await rows();
        expectError(await as('post', dbs(server)).send({ name: 'full', remote: '%' }), 409, ...NO_HOST);
        expect(await rows()).toBe(before);
        expect(await mariadb.databaseExists(`s${server.id}_full`)).toBe(false);
      } finally {
        await patchHost(globalHost.id, { maxDatabases: null });
      }
      expect((await listOf(server)).hostAvailable).toBe(true);
    });

    it('should answer 409 DATABASE_LIMIT_REACHED at the server limit, leaving the host alone, and take the next once one is deleted', async () => {
      const server = await newServer({ databaseLimit: 1 });
      const one = await createDb(server, 'one');
      const before = await rows();
      expectError(await as('post', dbs(server)).send({ name: 'two', remote: '%' }), 409, 'DATABASE_LIMIT_REACHED', 'This server has reached its database limit (1)');
      expect(await rows()).toBe(before);
      expect(await mariadb.databaseExists(`s${server.id}_two`)).toBe(false);
      expect(await mariadb.userHosts(`u${server.id}_two`)).toEqual([]);
      await as('delete', `${dbs(server)}/${one.id}`).expect(204);
      await createDb(server, 'two');
    });

    it('should treat a limit of 0 as unlimited', async () => {
      const server = await newServer({ databaseLimit: 0 });
      for (const name of ['a', 'b', 'c', 'd']) {
        await createDb(server, name);
      }
      expect((await listOf(server)).data).toHaveLength(4);
    });

    it('should answer 409 DATABASE_NAME_TAKEN for a name the server already uses, and leave that database working', async () => {
      const server = await newServer();
      const made = await createDb(server, 'dupe');
      const before = await rows();
      expectError(await as('post', dbs(server)).send({ name: 'dupe', remote: '127.0.0.1' }), 409, 'DATABASE_NAME_TAKEN', 'This server already has a database with that name');
      expect(await rows()).toBe(before);
      expect(await mariadb.userHosts(made.username)).toEqual(['%']);
      await mariadb.as(made.username, made.password, made.name, async (c) => c.query('SELECT 1'));
      // Another server may use the same name: its names carry its own id.
      await createDb(await newServer(), 'dupe');
    });

    describe('names', () => {
      let server: ServerEntity;

      beforeAll(async () => {
        server = await newServer();
      });

      it('should accept the longest name whose user still fits in 32 characters', async () => {
        const longest = 'n'.repeat(32 - `u${server.id}_`.length);
        const made = await createDb(server, longest);
        expect(made.username).toHaveLength(32);
        expect(await mariadb.databaseExists(`s${server.id}_${longest}`)).toBe(true);
      });

      it.each([
        ['a hyphen', { name: 'my-db', remote: '%' }, [{ field: 'name', message: 'name may hold only letters, digits and _' }]],
        ['an empty name', { name: '', remote: '%' }, [{ field: 'name', message: 'name may hold only letters, digits and _' }]],
        ['a backtick', { name: 'a`b', remote: '%' }, [{ field: 'name', message: 'name may hold only letters, digits and _' }]],
        ['a non-ASCII letter', { name: 'naïve', remote: '%' }, [{ field: 'name', message: 'name may hold only letters, digits and _' }]],
        ['49 characters', { name: 'x'.repeat(49), remote: '%' }, [{ field: 'name', message: 'name must be shorter than or equal to 48 characters' }]],
        ['a number', { name: 12, remote: '%' }, [{ field: 'name', message: 'name must be a string' }]],
        ['no remote', { name: 'ok' }, [{ field: 'remote', message: 'remote must be a string' }]],
        ['a quote in remote', { name: 'ok', remote: "%'; DROP USER root; --" }, [{ field: 'remote', message: 'remote must be 1 to 60 of letters, digits and . % _ : / -; % means any source' }]],
        ['an empty remote', { name: 'ok', remote: '' }, [{ field: 'remote', message: 'remote must be 1 to 60 of letters, digits and . % _ : / -; % means any source' }]],
        ['an unknown field', { name: 'ok', remote: '%', host: '1' }, [{ field: 'host', message: 'property host should not exist' }]],
      ])('should answer 400 VALIDATION_FAILED and make nothing for %s', async (_label, body, details) => {
        const before = await rows();
        expectValidation(await as('post', dbs(server)).send(body), details);
        expect(await rows()).toBe(before);
      });

      it('should answer 400 VALIDATION_FAILED for a name one character too long for this server id', async () => {
        const max = 32 - `u${server.id}_`.length;
        const before = await rows();
        expectValidation(await as('post', dbs(server)).send({ name: 'm'.repeat(max + 1), remote: '%' }), [
          { field: 'name', message: `name must be at most ${max} characters on this server (its user u${server.id}_<name> may have 32)` },
        ]);
        expect(await rows()).toBe(before);
        expect(await mariadb.databaseExists(`s${server.id}_${'m'.repeat(max + 1)}`)).toBe(false);
      });
    });

    describe('consistency with the host', () => {
      it('should leave nothing behind when CREATE USER fails (the user exists on the host), and not touch that user', async () => {
        const server = await newServer();
        const theirs = `Their-${randomBytes(9).toString('base64url')}`;
        await mariadb.query('CREATE USER ?@? IDENTIFIED BY ?', [`u${server.id}_clash`, '%', theirs]);
        const before = await rows();
        const res = await as('post', dbs(server)).send({ name: 'clash', remote: '%' });
        expect([res.status, res.body]).toEqual([
          409,
          {
            ...denial(409, 'DATABASE_HOST_CONFLICT', `The database host already has a database or user with this name: Operation CREATE USER failed for 'u${server.id}_clash'@'%'`),
            details: { hostId: globalHost.id, code: 'ER_CANNOT_USER' },
          },
        ]);
        // The database made before CREATE USER failed is gone again; the panel has no row.
        expect(await mariadb.databaseExists(`s${server.id}_clash`)).toBe(false);
        expect(await rows()).toBe(before);
        expect((await listOf(server)).data).toEqual([]);
        expect(await activity(server, 'server.database.create')).toEqual([]);
        // The user that was there stays, with its own password.
        expect(await mariadb.userHosts(`u${server.id}_clash`)).toEqual(['%']);
        const { outcome, connection } = await mariadb.connectAs(`u${server.id}_clash`, theirs);
        expect(outcome).toBe('ok');
        await connection!.end();
      });

      it('should answer 409 DATABASE_HOST_CONFLICT and keep a database of that name the panel did not make', async () => {
        const server = await newServer();
        await mariadb.query(`CREATE DATABASE \`s${server.id}_taken\``);
        await mariadb.query(`CREATE TABLE \`s${server.id}_taken\`.precious (v INT)`);
        const before = await rows();
        const res = await as('post', dbs(server)).send({ name: 'taken', remote: '%' });
        expect([res.status, res.body]).toEqual([
          409,
          {
            ...denial(409, 'DATABASE_HOST_CONFLICT', `The database host already has a database or user with this name: Can't create database 's${server.id}_taken'; database exists`),
            details: { hostId: globalHost.id, code: 'ER_DB_CREATE_EXISTS' },
          },
        ]);
        expect(await mariadb.databaseExists(`s${server.id}_taken`)).toBe(true);
        expect(await mariadb.query(`SELECT TABLE_NAME FROM information_schema.TABLES WHERE TABLE_SCHEMA = ?`, [`s${server.id}_taken`])).toEqual([{ TABLE_NAME: 'precious' }]);
        expect(await mariadb.userHosts(`u${server.id}_taken`)).toEqual([]);
        expect(await rows()).toBe(before);
      });

      it('should undo the database and the user when GRANT fails (an admin account without GRANT OPTION)', async () => {
        const limited = { user: `u${firstServerId - 1}_limited`, password: `Lim-${randomBytes(12).toString('base64url')}` };
        passwords.push(limited.password);
        await mariadb.query('CREATE USER ?@? IDENTIFIED BY ?', [limited.user, '%', limited.password]);
        await mariadb.query('GRANT CREATE, DROP, CREATE USER ON *.* TO ?@?', [limited.user, '%']);
        const own = await newNode();
        const limitedHost = await createHost({ nodeId: own.id, username: limited.user, password: limited.password });
        const server = await newServer({}, own);
        const before = await rows();
        const res = await as('post', dbs(server)).send({ name: 'granted', remote: '%' });
        expect([res.status, res.body]).toEqual([
          502,
          {
            ...denial(502, 'DATABASE_HOST_ERROR', expect.stringMatching(new RegExp(`^The database host refused the operation: Access denied for user '${limited.user}'`))),
            details: { hostId: limitedHost.id, code: 'ER_DBACCESS_DENIED_ERROR' },
          },
        ]);
        expect(await mariadb.databaseExists(`s${server.id}_granted`)).toBe(false);
        expect(await mariadb.userHosts(`u${server.id}_granted`)).toEqual([]);
        expect(await rows()).toBe(before);
        expect(JSON.stringify(res.body)).not.toContain(limited.password);
      });

      describe('with the host down', () => {
        let server: ServerEntity;
        let made: { id: string; name: string; username: string; password: string };

        beforeAll(async () => {
          server = await newServer();
          made = await createDb(server, 'kept');
          await patchHost(globalHost.id, { port: await closedPort() });
        });

        afterAll(async () => {
          await patchHost(globalHost.id, { port: mysqlPort });
        });

        it('should answer 503 DATABASE_HOST_UNAVAILABLE to create, rotate and delete, and change nothing', async () => {
          const before = await rows();
          const create = await as('post', dbs(server)).send({ name: 'nope', remote: '%' });
          expect([create.status, create.body]).toEqual([
            503,
            {
              ...denial(503, 'DATABASE_HOST_UNAVAILABLE', expect.stringMatching(/^database host unavailable: connect ECONNREFUSED 127\.0\.0\.1:\d+$/)),
              details: { hostId: globalHost.id, code: 'ECONNREFUSED' },
            },
          ]);
          expect(await rows()).toBe(before);
          expect((await as('post', `${dbs(server)}/${made.id}/rotate-password`)).body).toMatchObject({ statusCode: 503, code: 'DATABASE_HOST_UNAVAILABLE' });
          expect((await as('delete', `${dbs(server)}/${made.id}`)).body).toMatchObject({ statusCode: 503, code: 'DATABASE_HOST_UNAVAILABLE' });
          // The failed delete keeps the record, ready again, and the database on the host.
          expect((await listOf(server)).data).toEqual([expect.objectContaining({ id: made.id, status: 'ready' })]);
          expect(await mariadb.databaseExists(made.name)).toBe(true);
          await mariadb.as(made.username, made.password, made.name, async (c) => c.query('SELECT 1'));
        });

        it('should refuse to delete the server while its databases cannot be dropped, and go on with force=true', async () => {
          const res = await as('delete', `/api/admin/servers/${server.id}`, adminCookie);
          expect(res.body).toMatchObject({ statusCode: 503, code: 'DATABASE_HOST_UNAVAILABLE' });
          await as('get', `/api/admin/servers/${server.id}`, adminCookie).expect(200);
          expect((await listOf(server)).data).toHaveLength(1);
          await as('delete', `/api/admin/servers/${server.id}?force=true`, adminCookie).expect(204);
          await as('get', `/api/admin/servers/${server.id}`, adminCookie).expect(404);
          expect(await ds().query('SELECT id FROM server_database WHERE server_id = $1', [server.id])).toEqual([]);
          // Forced: what the host could not drop stays there (the log names it); afterAll removes it.
          expect(await mariadb.databaseExists(made.name)).toBe(true);
        });
      });

      it('should show status revoking while a delete waits on the host, and refuse rotation and a second delete meanwhile', async () => {
        const server = await newServer();
        const made = await createDb(server, 'busy');
        await mariadb.as(made.username, made.password, made.name, async (c) => c.query('CREATE TABLE t (v INT)'));
        // The admin session holds a lock on a table, so DROP DATABASE waits until it lets go.
        const locker = (await mariadb.connectAs(testMySqlAccount().user, testMySqlAccount().password, made.name)).connection!;
        await locker.query('LOCK TABLES t WRITE');
        const deleting = as('delete', `${dbs(server)}/${made.id}`).then((r) => r);
        try {
          await waitFor(async () => (await listOf(server)).data[0]?.status === 'revoking');
          expectError(await as('post', `${dbs(server)}/${made.id}/rotate-password`), 409, 'DATABASE_REVOKING', 'The database is being deleted');
          expectError(await as('delete', `${dbs(server)}/${made.id}`), 409, 'DATABASE_REVOKING', 'The database is being deleted');
        } finally {
          await locker.query('UNLOCK TABLES');
          await locker.end();
        }
        expect((await deleting).status).toBe(204);
        expect(await mariadb.databaseExists(made.name)).toBe(false);
        expect((await listOf(server)).data).toEqual([]);
      });
    });

    it('should drop every database of a server on its host when the server is deleted', async () => {
      const server = await newServer();
      const made = [await createDb(server, 'world'), await createDb(server, 'perms')];
      await as('delete', `/api/admin/servers/${server.id}`, adminCookie).expect(204);
      expect(daemon.calls).toContainEqual(expect.objectContaining({ method: 'DELETE', path: `/api/servers/${server.uuid}` }));
      for (const m of made) {
        expect(await mariadb.databaseExists(m.name)).toBe(false);
        expect(await mariadb.userHosts(m.username)).toEqual([]);
      }
      expect(await ds().query('SELECT id FROM server_database WHERE server_id = $1', [server.id])).toEqual([]);
      await as('get', `/api/admin/servers/${server.id}`, adminCookie).expect(404);
    });

    it('should answer 404 for another user, an unknown database or one of another server, and 401 without credentials', async () => {
      const server = await newServer();
      const other = await newServer();
      const mine = await createDb(server, 'mine');
      const theirs = await createDb(other, 'theirs');
      const strangerCookie = await signIn(t, (await createUser(t.app)).email);
      const routes: [Method, string][] = [
        ['get', dbs(server)],
        ['post', dbs(server)],
        ['post', `${dbs(server)}/${mine.id}/rotate-password`],
        ['delete', `${dbs(server)}/${mine.id}`],
      ];
      for (const [method, path] of routes) {
        const body = method === 'post' && path === dbs(server) ? { name: 'x', remote: '%' } : undefined;
        const stranger = await as(method, path, strangerCookie).send(body);
        expect([method, path, stranger.status, stranger.body]).toEqual([method, path, 404, denial(404, 'SERVER_NOT_FOUND', 'Server not found')]);
        const anonymous = await t.http()[method](path).send(body);
        expect([method, path, anonymous.status, anonymous.body]).toEqual([method, path, 401, UNAUTHENTICATED]);
      }
      for (const id of [theirs.id, '999999999', 'abc']) {
        expectError(await as('post', `${dbs(server)}/${id}/rotate-password`), 404, ...DATABASE_NOT_FOUND);
        expectError(await as('delete', `${dbs(server)}/${id}`), 404, ...DATABASE_NOT_FOUND);
      }
      expect(await mariadb.databaseExists(theirs.name)).toBe(true);
      // An admin holds every server permission.
      expect((await as('get', dbs(server), adminCookie).expect(200)).body.data).toHaveLength(1);
    });
  });

  it('should never write a password to the log or the activity log', async () => {
    expect(passwords.length).toBeGreaterThan(10);
    expect(logs.text).toContain('/databases');
    expect(logs.text).toContain('DATABASE_HOST_UNAVAILABLE');
    for (const password of passwords) {
      expect(logs.text).not.toContain(password);
    }
    const entries = await ds().query<{ metadata: unknown }[]>('SELECT metadata FROM server_activity');
    expect(entries.length).toBeGreaterThan(0);
    for (const password of passwords) {
      expect(JSON.stringify(entries)).not.toContain(password);
    }
  });
});
