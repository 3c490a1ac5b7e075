import { createUser, DEFAULT_PASSWORD } from 'test/factories/user.factory';
import { signIn } from 'test/utils/auth';
import { createTestApp, TEST_ORIGIN, TestApp } from 'test/utils/create-test-app';
import { dbKinds } from 'test/utils/test-db';
import { cspOf } from 'test/utils/csp';
import { LogCapture } from 'test/utils/log-capture';

/** `Origin: null` is refused, security headers on every response, /api/docs can be turned off; APP_URL against PORT. */

/** The origin check's refusal names the address the panel expects (APP_URL) and the one the request came from. */
const untrusted = (origin: string, appOrigin = TEST_ORIGIN) => ({
  statusCode: 403,
  code: 'UNTRUSTED_ORIGIN',
  message: `This panel expects requests from ${appOrigin} (APP_URL); this request came from ${origin}. Set APP_URL to the address you open the panel at.`,
});

/**
 * One capture for every app of this file: nestjs-pino keeps its root logger in a static, so an app
 * booted after another in the same process may write to the stream the first was given.
 */
const logs = new LogCapture();

/** Boots an app and returns it with the start-up warnings about APP_URL's port it logged. */
const bootWithLogs = async (options: Parameters<typeof createTestApp>[0]): Promise<{ t: TestApp; warnings: Record<string, unknown>[] }> => {
  const before = logs.lines().length;
  const t = await createTestApp({ ...options, logStream: logs });
  const lines = logs.lines().slice(before);
  expect(lines.length).toBeGreaterThan(0);
  return { t, warnings: lines.filter((l) => typeof l.msg === 'string' && l.msg.startsWith('APP_URL is')) };
};

describe.each(dbKinds(['postgres']))('origin checks and security headers (%s)', (db) => {
  let t: TestApp;
  let warnings: Record<string, unknown>[];

  beforeAll(async () => {
    ({ t, warnings } = await bootWithLogs({ db }));
  });

  it('should not warn about the port when APP_URL is not a loopback address (behind a proxy they differ on purpose)', () => {
    expect(warnings).toEqual([]);
  });

  afterAll(async () => {
    await t.close();
  });

  describe('Origin: null', () => {
    it('should refuse a cookie write with Origin: null even when the Referer is trusted, and keep the session', async () => {
      const user = await createUser(t.app);
      const cookie = await signIn(t, user.email);
      const res = await t.http().post('/api/auth/sign-out').set('Cookie', cookie).set('Origin', 'null').set('Referer', `${TEST_ORIGIN}/account`).expect(403);
      expect(res.body).toMatchObject(untrusted('null'));
      await t.http().get('/api/account').set('Cookie', cookie).expect(200);
      // Without an Origin, a trusted Referer still stands in for it.
      await t.http().post('/api/auth/sign-out').set('Cookie', cookie).set('Referer', `${TEST_ORIGIN}/account`).expect(204);
    });

    it('should refuse an anonymous write (sign-in) that names Origin: null or an unreadable origin, and allow one that names none', async () => {
      const user = await createUser(t.app);
      const body = { email: user.email, password: 'correct horse battery staple' };
      for (const origin of ['null', 'not a url']) {
        const res = await t.http().post('/api/auth/sign-in/email').set('Origin', origin).send(body).expect(403);
        expect({ origin, body: res.body }).toMatchObject({ origin, body: untrusted(origin) });
        expect(res.headers['set-cookie']).toBeUndefined();
      }
      await t.http().post('/api/auth/sign-in/email').send(body).expect((res) => expect(res.status).not.toBe(403));
      await t.http().post('/api/auth/sign-in/email').set('Origin', TEST_ORIGIN).send(body).expect((res) => expect(res.status).not.toBe(403));
    });
  });

  describe('security headers', () => {
    it('should send nosniff, a CSP and the frame and referrer policies on a JSON answer, a 404 and a 401', async () => {
      for (const res of [await t.http().get('/api/health'), await t.http().get('/api/no-such-route'), await t.http().get('/api/account')]) {
        expect({ status: res.status, headers: res.headers }).toMatchObject({
          headers: {
            'x-content-type-options': 'nosniff',
            'x-frame-options': 'DENY',
            'referrer-policy': 'no-referrer',
            'content-security-policy': expect.stringContaining("default-src 'self'"),
          },
        });
      }
    });

    it('should serve Swagger UI under a CSP that admits every script and style its page uses', async () => {
      const page = await t.http().get('/api/docs').expect(200);
      expect(page.headers['content-type']).toMatch(/^text\/html/);
      const csp = cspOf(page.headers['content-security-policy']);
      const html = page.text;
      const scripts = [...html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
      expect(scripts.length).toBeGreaterThan(0);
      for (const [, attributes, body] of scripts) {
        // Only same-origin script files: no inline code, which script-src 'self' would block.
        expect(body.trim()).toBe('');
        const src = /src=["']([^"']+)["']/.exec(attributes)?.[1];
        expect(src).toMatch(/^(?!https?:|\/\/)/);
        expect(csp.get('script-src')).toContain("'self'");
        const asset = await t.http().get(new URL(src!, `${TEST_ORIGIN}/api/docs/`).pathname).expect(200);
        // With nosniff, a script served under another type would not run.
        expect(asset.headers['content-type']).toMatch(/javascript/);
        expect(asset.headers['x-content-type-options']).toBe('nosniff');
      }
      const sheets = [...html.matchAll(/<link[^>]*rel=["']stylesheet["'][^>]*>/g)].map(([tag]) => /href=["']([^"']+)["']/.exec(tag)![1]);
      expect(sheets.length).toBeGreaterThan(0);
      for (const href of sheets) {
        const asset = await t.http().get(new URL(href, `${TEST_ORIGIN}/api/docs/`).pathname).expect(200);
        expect(asset.headers['content-type']).toMatch(/^text\/css/);
        // The stylesheet's icons are data: images.
        if (asset.text.includes('url("data:') || asset.text.includes("url('data:") || asset.text.includes('url(data:')) {
          expect(csp.get('img-src')).toContain('data:');
        }
      }
      if (/<style[\s>]|\sstyle=/.test(html)) {
        expect(csp.get('style-src')).toContain("'unsafe-inline'");
      }
    });
  });
});

describe.each(dbKinds(['postgres']))('API_DOCS_ENABLED (%s)', (db) => {
  it('should answer 404 on /api/docs, /api/docs.json and /api/docs.yaml when off, and serve them by default', async () => {
    const off = await createTestApp({ db, env: { API_DOCS_ENABLED: 'false' } });
    try {
      for (const path of ['/api/docs', '/api/docs/', '/api/docs.json', '/api/docs.yaml', '/api/docs/swagger-ui-init.js']) {
        const res = await off.http().get(path);
        expect({ path, status: res.status, code: res.body.code }).toEqual({ path, status: 404, code: 'ROUTE_NOT_FOUND' });
      }
    } finally {
      await off.close();
    }
    const on = await createTestApp({ db });
    try {
      await on.http().get('/api/docs').expect(200);
      expect((await on.http().get('/api/docs.json').expect(200)).body.info.title).toBe('Hatchery');
      await on.http().get('/api/docs.yaml').expect(200);
    } finally {
      await on.close();
    }
  });
});

/** PORT changed and APP_URL left at its default: every sign-in from the new address is refused, so say why, at start and in the refusal. */
describe.each(dbKinds(['pglite']))('APP_URL on a loopback host with another port than PORT (%s)', (db) => {
  let t: TestApp;
  let warnings: Record<string, unknown>[];

  beforeAll(async () => {
    ({ t, warnings } = await bootWithLogs({ db, env: { APP_URL: 'http://localhost:3000', PORT: '8080' } }));
  });

  afterAll(async () => {
    await t.close();
  });

  it('should warn once at start, naming the address to set', () => {
    expect(warnings).toEqual([
      expect.objectContaining({
        level: 40,
        msg: 'APP_URL is http://localhost:3000 but the panel listens on port 8080: a browser that opens http://localhost:8080 cannot sign in (403 UNTRUSTED_ORIGIN). Set APP_URL=http://localhost:8080 (the address you open the panel at), or PORT=3000.',
      }),
    ]);
  });

  it('should refuse the sign-in from the port the browser opened with a message naming the address APP_URL expects', async () => {
    const user = await createUser(t.app);
    const res = await t.http().post('/api/auth/sign-in/email').set('Origin', 'http://localhost:8080').send({ email: user.email, password: DEFAULT_PASSWORD }).expect(403);
    expect(res.body).toMatchObject(untrusted('http://localhost:8080', 'http://localhost:3000'));
    expect(res.headers['set-cookie']).toBeUndefined();
    await t.http().post('/api/auth/sign-in/email').set('Origin', 'http://localhost:3000').send({ email: user.email, password: DEFAULT_PASSWORD }).expect(200);
  });
});

describe.each(dbKinds(['postgres']))('APP_URL on a loopback host with the port PORT says (%s)', (db) => {
  let t: TestApp | undefined;

  afterAll(async () => {
    await t?.close();
  });

  it('should not warn when the ports match', async () => {
    const booted = await bootWithLogs({ db, env: { APP_URL: 'http://127.0.0.1:8080/', PORT: '8080' } });
    t = booted.t;
    expect(booted.warnings).toEqual([]);
  });
});
