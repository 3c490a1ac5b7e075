import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { NodeOrigins } from 'src/modules/nodes/node-origins';
import { SubuserEntity } from 'src/modules/servers/subusers/subuser.entity';
import { createEgg, createNest } from 'test/factories/egg.factory';
import { createNodeRow } from 'test/factories/node.factory';
import { createServerRow } from 'test/factories/server.factory';
import { createUser } from 'test/factories/user.factory';
import { signIn } from 'test/utils/auth';
import { createTestApp, TEST_ORIGIN, TestApp } from 'test/utils/create-test-app';
import { denial } from 'test/utils/nodes';
import { dbKinds } from 'test/utils/test-db';
import { cspOf } from 'test/utils/csp';

/** The panel serving the built web UI (src/common/http/web-app.ts): caching, SPA fallback, rate limits, CSP. */

const INDEX = '<!doctype html><html><head><script src="/theme.js"></script></head><body><div id="root"></div></body></html>';
const ASSET = 'assets/index-Bx12cd34.js';
const ASSET_BODY = `console.log(${JSON.stringify('x'.repeat(2000))});`;
const IMMUTABLE = 'public, max-age=31536000, immutable';

/** A web build as `npm run build` leaves it in dist/web: index.html, hashed assets with a .gz sibling, theme.js. */
const makeWebDir = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'hatchery-web-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), INDEX);
  writeFileSync(join(dir, ASSET), ASSET_BODY);
  writeFileSync(join(dir, `${ASSET}.gz`), gzipSync(ASSET_BODY));
  writeFileSync(join(dir, 'theme.js'), 'document.documentElement.dataset.x = "1";');
  return dir;
};

describe.each(dbKinds(['postgres']))('web UI served by the panel (%s)', (db) => {
  let t: TestApp;
  let dir: string;

  beforeAll(async () => {
    dir = makeWebDir();
    t = await createTestApp({ db, env: { WEB_DIR: dir, RATE_LIMIT_ENABLED: 'true' } });
  });

  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('should serve hashed assets cached for a year, pre-compressed when the browser accepts it', async () => {
    const plain = await t.http().get(`/${ASSET}`).set('Accept-Encoding', 'identity').expect(200);
    expect(plain.headers['content-type']).toMatch(/^(application|text)\/javascript/);
    expect(plain.headers['cache-control']).toBe(IMMUTABLE);
    expect(plain.text).toBe(ASSET_BODY);

    const gz = await t.http().get(`/${ASSET}`).set('Accept-Encoding', 'gzip, deflate').expect(200);
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.headers['vary']).toMatch(/accept-encoding/i);
    expect(gz.headers['cache-control']).toBe(IMMUTABLE);
    expect(gz.text).toBe(ASSET_BODY); // supertest inflates it

    const missing = await t.http().get('/assets/index-nothere.js').expect(404);
    expect(missing.body).toEqual(denial(404, 'ROUTE_NOT_FOUND', 'Not found'));
  });

  it('should answer index.html, never cached, for any other GET outside /api, and for HEAD', async () => {
    for (const path of ['/', '/auth/login?next=%2F', '/server/5/files?path=%2Fplugins', '/no/such/page', '/index.html']) {
      const res = await t.http().get(path).expect(200);
      expect({ path, type: res.headers['content-type'], cache: res.headers['cache-control'], body: res.text }).toEqual({
        path,
        type: expect.stringMatching(/^text\/html/),
        cache: 'no-cache',
        body: INDEX,
      });
    }
    const head = await t.http().head('/server/5').expect(200);
    expect(head.headers['content-type']).toMatch(/^text\/html/);
    const theme = await t.http().get('/theme.js').expect(200);
    expect({ type: theme.headers['content-type'], cache: theme.headers['cache-control'] }).toEqual({
      type: expect.stringMatching(/javascript/),
      cache: 'no-cache',
    });
  });

  it('should keep the JSON 404 for unknown /api paths and methods other than GET', async () => {
    for (const path of ['/api', '/api/', '/api/no-such-route', '/api/no/such/deep/route?x=1']) {
      const res = await t.http().get(path).expect(404);
      expect({ path, body: res.body }).toEqual({ path, body: denial(404, 'ROUTE_NOT_FOUND', 'Not found') });
    }
    const post = await t.http().post('/server/5').send({}).expect(404);
    expect(post.body).toEqual(denial(404, 'ROUTE_NOT_FOUND', 'Not found'));
  });

  it('should leave the web UI out of the rate limits and keep counting unknown /api paths', async () => {
    const before = await t.http().get('/api/no-such-route').expect(404);
    const remaining = Number(before.headers['x-ratelimit-remaining']);
    expect(before.headers['x-ratelimit-limit']).toBe('150');
    // More page loads than the global budget of 150 holds.
    for (let i = 0; i < 40; i++) {
      const answers = await Promise.all([t.http().get('/'), t.http().get(`/${ASSET}`), t.http().get('/theme.js'), t.http().get('/server/1/files'), t.http().get('/x')]);
      for (const res of answers) {
        expect({ status: res.status, limit: res.headers['x-ratelimit-limit'] }).toEqual({ status: 200, limit: undefined });
      }
    }
    const after = await t.http().get('/api/no-such-route').expect(404);
    expect(Number(after.headers['x-ratelimit-remaining'])).toBe(remaining - 1);
  });

  it("should name every node's daemon origin (http and ws) in an administrator's page, following node changes", async () => {
    const admin = await createUser(t.app, { admin: true });
    const cookie = await signIn(t, admin.email);
    const asAdmin = (method: 'post' | 'patch' | 'delete', path: string) => t.http()[method](path).set('Cookie', cookie).set('Origin', TEST_ORIGIN);
    const connect = async () => cspOf((await t.http().get('/').set('Cookie', cookie).expect(200)).headers['content-security-policy']).get('connect-src');

    const made = await asAdmin('post', '/api/admin/nodes').send({ name: 'csp', fqdn: 'Wings-CSP.example.test', scheme: 'https', daemonListen: 8443, memory: 1024, disk: 1024 }).expect(201);
    expect(await connect()).toEqual(expect.arrayContaining(["'self'", 'https://wings-csp.example.test:8443', 'wss://wings-csp.example.test:8443']));

    // Moved: the old address goes, the new one comes (the configuration push to the old one fails, fast).
    await asAdmin('patch', `/api/admin/nodes/${made.body.data.id}`).send({ fqdn: '127.0.0.1', scheme: 'http', daemonListen: 1 }).expect(200);
    const moved = await connect();
    expect(moved).toEqual(expect.arrayContaining(['http://127.0.0.1:1', 'ws://127.0.0.1:1']));
    expect(moved).not.toContain('https://wings-csp.example.test:8443');

    await asAdmin('delete', `/api/admin/nodes/${made.body.data.id}`).expect(204);
    expect(await connect()).not.toContain('http://127.0.0.1:1');

    // A node written outside NodesService (raw rows, as another panel process's would arrive through
    // the change feed) is picked up from the row change, with no request reading the node table.
    await createNodeRow(t.app, { fqdn: 'elsewhere.example.test', scheme: 'http', daemonListen: 8080 });
    let seen: string[] | undefined = [];
    for (let i = 0; i < 50 && !seen?.includes('ws://elsewhere.example.test:8080'); i++) {
      seen = await connect();
    }
    expect(seen).toEqual(expect.arrayContaining(['http://elsewhere.example.test:8080', 'ws://elsewhere.example.test:8080']));
  });
});

describe.each(dbKinds(['pglite', 'postgres']))("the web UI page's connect-src names only the caller's nodes (%s)", (db) => {
  let t: TestApp;
  let dir: string;

  beforeAll(async () => {
    dir = makeWebDir();
    t = await createTestApp({ db, env: { WEB_DIR: dir } });
  });

  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const connectOf = async (path: string, cookie?: string) => {
    const req = t.http().get(path);
    const res = await (cookie ? req.set('Cookie', cookie) : req);
    return { status: res.status, connect: cspOf(res.headers['content-security-policy']).get('connect-src') };
  };
  const origins = (fqdn: string) => [`https://${fqdn}:8443`, `wss://${fqdn}:8443`];

  it('should list the nodes of owned and shared servers to their user, every node to an administrator, and none anonymously or in JSON', async () => {
    const tag = randomBytes(3).toString('hex');
    const egg = await createEgg(t.app, (await createNest(t.app)).id);
    const [own, shared, foreign, empty] = await Promise.all(
      ['own', 'shared', 'foreign', 'empty'].map(async (name) => (await createNodeRow(t.app, { fqdn: `${name}-${tag}.example.test`, scheme: 'https', daemonListen: 8443 })).node),
    );
    const user = await createUser(t.app);
    const other = await createUser(t.app);
    await createServerRow(t.app, { node: own, egg, owner: user });
    const sharedServer = await createServerRow(t.app, { node: shared, egg, owner: other });
    const foreignServer = await createServerRow(t.app, { node: foreign, egg, owner: other });
    const subusers = t.app.get(DataSource).getRepository(SubuserEntity);
    await subusers.save(subusers.create({ serverId: sharedServer.id, userId: user.id, permissions: ['server.view', 'control.console'] }));
    await t.app.get(NodeOrigins).settled();
    const cookie = await signIn(t, user.email);
    const adminCookie = await signIn(t, (await createUser(t.app, { admin: true })).email);

    // The page the console is opened from, at the root and at a client-side route, and the HEAD of it.
    for (const path of ['/', `/server/${sharedServer.identifier}/console`, '/account']) {
      expect(await connectOf(path, cookie)).toEqual({ status: 200, connect: ["'self'", ...origins(`own-${tag}.example.test`), ...origins(`shared-${tag}.example.test`)].sort() });
    }
    const head = await t.http().head('/server/x').set('Cookie', cookie).expect(200);
    expect(cspOf(head.headers['content-security-policy']).get('connect-src')).toContain(`wss://own-${tag}.example.test:8443`);
    const all = (await connectOf('/', adminCookie)).connect;
    for (const node of [own, shared, foreign, empty]) {
      expect(all).toEqual(expect.arrayContaining(origins(node.fqdn)));
    }

    // Anonymous pages, and every JSON answer (signed in or not, errors included), name no node.
    for (const [path, who] of [['/', undefined], ['/auth/login', undefined], ['/api/account', cookie], ['/api/account', adminCookie], ['/api/health', undefined], [`/api/client/servers/${foreignServer.uuid}`, cookie], ['/api/nope', adminCookie]] as const) {
      expect({ path, connect: (await connectOf(path, who)).connect }).toEqual({ path, connect: ["'self'"] });
    }
    // A cookie that does not work is an anonymous page.
    expect((await connectOf('/', 'hatchery_session=forged')).connect).toEqual(["'self'"]);

    // Access changes show on the next page: shared with them, and no longer.
    const grant = await subusers.save(subusers.create({ serverId: foreignServer.id, userId: user.id, permissions: ['server.view'] }));
    expect((await connectOf('/', cookie)).connect).toEqual(expect.arrayContaining(origins(`foreign-${tag}.example.test`)));
    await subusers.delete(grant.id);
    await subusers.delete({ serverId: sharedServer.id, userId: user.id });
    expect((await connectOf('/', cookie)).connect).toEqual(["'self'", ...origins(`own-${tag}.example.test`)].sort());
  });
});

describe.each(dbKinds(['postgres']))('web UI CSP with a CAPTCHA provider (%s)', (db) => {
  it.each([
    ['turnstile', 'https://challenges.cloudflare.com', 'https://challenges.cloudflare.com'],
    ['hcaptcha', 'https://hcaptcha.com', 'https://*.hcaptcha.com'],
    ['recaptcha', 'https://www.google.com/recaptcha/', 'https://www.google.com/recaptcha/'],
  ])('should let the %s widget load its script and frame', async (provider, script, frame) => {
    const t = await createTestApp({ db, env: { CAPTCHA_PROVIDER: provider, CAPTCHA_SITE_KEY: 'site', CAPTCHA_SECRET_KEY: 'secret' } });
    try {
      const csp = cspOf((await t.http().get('/api/health')).headers['content-security-policy']);
      expect(csp.get('script-src')).toEqual(expect.arrayContaining(["'self'", script]));
      expect(csp.get('frame-src')).toEqual(expect.arrayContaining([frame]));
      expect(csp.get('frame-src')).not.toContain("'none'");
    } finally {
      await t.close();
    }
  });

  it('should allow no frames and no outside scripts without a provider, and serve no web UI without a build', async () => {
    const t = await createTestApp({ db, env: { WEB_DIR: join(tmpdir(), 'hatchery-no-web-build') } });
    try {
      const res = await t.http().get('/server/1').expect(404);
      expect(res.body).toEqual(denial(404, 'ROUTE_NOT_FOUND', 'Not found'));
      const csp = cspOf(res.headers['content-security-policy']);
      expect(csp.get('script-src')).toEqual(["'self'"]);
      expect(csp.get('frame-src')).toEqual(["'none'"]);
      expect(csp.get('connect-src')).toEqual(["'self'"]);
    } finally {
      await t.close();
    }
  });
});
