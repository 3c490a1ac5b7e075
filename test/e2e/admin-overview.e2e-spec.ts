import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { LocationEntity } from 'src/modules/nodes/location.entity';
import { NodeEntity } from 'src/modules/nodes/node.entity';
import { createEgg, createNest } from 'test/factories/egg.factory';
import { createNodeRow } from 'test/factories/node.factory';
import { createServerRow } from 'test/factories/server.factory';
import { createUser } from 'test/factories/user.factory';
import { signIn } from 'test/utils/auth';
import { createTestApp, TEST_ORIGIN, TestApp } from 'test/utils/create-test-app';
import { ADMIN_REQUIRED, closedPort, FakeDaemon, Json, UNAUTHENTICATED } from 'test/utils/nodes';
import { SmtpSink } from 'test/utils/smtp-sink';
import { dbKinds } from 'test/utils/test-db';

const OVERVIEW = '/api/admin/overview';
const VERSION = (JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as { version: string }).version;
const steps = (done: Record<string, boolean>): Json[] => ['location', 'node', 'wings', 'egg', 'user', 'server'].map((key) => ({ key, done: done[key] ?? false }));

describe.each(dbKinds(['postgres', 'pglite']))('admin overview (%s)', (db) => {
  let t: TestApp;
  let cookie: string;
  let smtp: SmtpSink;
  const daemons: FakeDaemon[] = [];
  const get = (c = cookie) => t.http().get(OVERVIEW).set('Cookie', c).set('Origin', TEST_ORIGIN);

  beforeAll(async () => {
    smtp = await SmtpSink.start();
    t = await createTestApp({ db, env: { SMTP_URL: smtp.url } });
    const admin = await createUser(t.app, { admin: true });
    cookie = await signIn(t, admin.email);
  });

  afterAll(async () => {
    await t?.close();
    await smtp?.close();
    await Promise.all(daemons.map((d) => d.stop()));
  });

  it('should show every setup step to do, zero counts, the version and mail answering on an empty panel', async () => {
    expect((await get().expect(200)).body).toEqual({
      data: {
        version: VERSION,
        counts: { users: 1, nodes: 0, locations: 0, servers: 0, eggs: 0, nests: 0 },
        setup: steps({}),
        health: {
          database: { configured: true, status: 'up' },
          mail: { configured: true, status: 'up' },
          redis: { configured: false, status: 'not-configured' },
          nodes: [],
        },
      },
    });
  });

  it('should tick every step once set up, and tell a reachable node from one waiting for Wings and one gone quiet, without waiting long on a hung one', async () => {
    const ds = t.app.get(DataSource);
    const location = await ds.getRepository(LocationEntity).save({ short: 'eu', long: null });
    const up = await FakeDaemon.start();
    const hung = await FakeDaemon.start();
    hung.reply = () => 'hang';
    daemons.push(up, hung);
    const on = (port: number) => ({ scheme: 'http' as const, fqdn: '127.0.0.1', daemonListen: port, locationId: location.id });
    const reachable = (await createNodeRow(t.app, { ...on(up.port), name: 'alpha' })).node;
    const waiting = (await createNodeRow(t.app, { ...on(await closedPort()), name: 'beta' })).node;
    const seen = new Date('2026-01-02T03:04:05.000Z');
    const quiet = (await createNodeRow(t.app, { ...on(hung.port), name: 'gamma', lastSeenAt: seen, daemonContactedAt: seen })).node;
    const nest = await createNest(t.app);
    const egg = await createEgg(t.app, nest.id);
    const owner = await createUser(t.app);
    await createServerRow(t.app, { node: reachable, egg, owner });

    const started = Date.now();
    const res = await get().expect(200);
    // Each probe has 2 s; the hung daemon must not hold the page longer.
    expect(Date.now() - started).toBeLessThan(4_000);
    expect(res.body.data).toEqual({
      version: VERSION,
      counts: { users: 2, nodes: 3, locations: 1, servers: 1, eggs: 1, nests: 1 },
      setup: steps({ location: true, node: true, wings: true, egg: true, user: true, server: true }),
      health: {
        database: { configured: true, status: 'up' },
        mail: { configured: true, status: 'up' },
        redis: { configured: false, status: 'not-configured' },
        nodes: [
          { id: reachable.id, name: 'alpha', status: 'reachable', lastSeenAt: null },
          { id: waiting.id, name: 'beta', status: 'waiting', lastSeenAt: null },
          { id: quiet.id, name: 'gamma', status: 'unreachable', lastSeenAt: seen.toISOString() },
        ],
      },
    });
    expect(up.calls.map((c) => c.path)).toEqual(['/api/system']);
    // The first answer marks a node as heard from: it is 'unreachable', not 'waiting', if it stops answering.
    const contacted = await t.app.get(DataSource).getRepository(NodeEntity).findOneByOrFail({ id: reachable.id });
    expect(contacted.daemonContactedAt).toBeInstanceOf(Date);
  });

  it('should answer 401 without a session and 403 ADMIN_REQUIRED to a user who is not an administrator', async () => {
    expect((await t.http().get(OVERVIEW)).body).toEqual(UNAUTHENTICATED);
    const user = await createUser(t.app);
    expect((await get(await signIn(t, user.email))).body).toEqual(ADMIN_REQUIRED);
  });
});

describe.each(dbKinds(['postgres']))('admin overview of mail and Redis (%s)', (db) => {
  let t: TestApp | undefined;

  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it('should report an SMTP server that does not answer as down, and a configured Redis as up', async () => {
    t = await createTestApp({ db, env: { SMTP_URL: `smtp://127.0.0.1:${await closedPort()}`, REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379' } });
    const admin = await createUser(t.app, { admin: true });
    const res = await t.http().get(OVERVIEW).set('Cookie', await signIn(t, admin.email)).expect(200);
    expect(res.body.data.health.mail).toEqual({ configured: true, status: 'down' });
    expect(res.body.data.health.redis).toEqual({ configured: true, status: 'up' });
  });
});
