import { createUser } from 'test/factories/user.factory';
import { signIn } from 'test/utils/auth';
import { createTestApp, TestApp } from 'test/utils/create-test-app';
import { PgBouncer, pgBouncerAvailable } from 'test/utils/fleet';
import { LogCapture } from 'test/utils/log-capture';
import { createTestDatabase, dbKinds } from 'test/utils/test-db';

// A panel whose PostgreSQL goes away mid-service: between them a PgBouncer of the test's own, stopped
// and started again. (The embedded PGlite lives in the panel's process: it cannot go away alone.)

const run = pgBouncerAvailable('database outage tests') ? describe.each(dbKinds(['postgres'])) : describe.skip.each(dbKinds(['postgres']));

run('a panel whose database stops answering (%s)', () => {
  let t: TestApp;
  let bouncer: PgBouncer;
  let database: { url: string; drop: () => Promise<void> };
  const logs = new LogCapture();

  beforeAll(async () => {
    database = await createTestDatabase();
    bouncer = await PgBouncer.start(new URL(database.url).pathname.slice(1));
    t = await createTestApp({ db: 'external', env: { DATABASE_URL: bouncer.url, DATABASE_DIRECT_URL: database.url, DB_RUN_MIGRATIONS: 'false' }, logStream: logs });
  });

  afterAll(async () => {
    await t?.close();
    await bouncer?.remove();
    await database?.drop();
  });

  it('should answer 503 DATABASE_UNAVAILABLE while it is gone, log it without a stack, and serve again once it is back', async () => {
    const user = await createUser(t.app, { admin: true });
    const cookie = await signIn(t, user.email);
    expect((await t.http().get('/api/account').set('Cookie', cookie)).status).toBe(200);

    await bouncer.stop();
    const logged = logs.chunks.length;
    for (const path of ['/api/admin/servers', '/api/admin/users', '/api/health']) {
      const res = await t.http().get(path).set('Cookie', cookie);
      expect([path, res.status, res.body]).toEqual([
        path,
        503,
        { statusCode: 503, code: 'DATABASE_UNAVAILABLE', message: 'The database is unavailable', requestId: expect.any(String) },
      ]);
    }
    const said = new LogCapture();
    said.chunks.push(...logs.chunks.slice(logged));
    const errors = said.lines().filter((l) => l.level === 50);
    expect(errors.map((l) => l.msg)).toContain('The database is unavailable: connect ECONNREFUSED 127.0.0.1:' + new URL(bouncer.url).port);
    expect(errors.filter((l) => l.msg === 'Unhandled error')).toEqual([]);

    await bouncer.start();
    expect((await t.http().get('/api/account').set('Cookie', cookie)).status).toBe(200);
    expect((await t.http().get('/api/health')).status).toBe(200);
  });
});
