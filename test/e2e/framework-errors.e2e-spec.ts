import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Response } from 'supertest';
import { createTestApp, TestApp } from 'test/utils/create-test-app';
import { LogCapture } from 'test/utils/log-capture';
import { denial } from 'test/utils/nodes';
import { dbKinds } from 'test/utils/test-db';

/**
 * Errors raised by the HTTP stack rather than by a route (Fastify's router and body parsing, the static file
 * server behind the web UI and the API docs) keep the 4xx they carry and come out in the error shape, never as
 * a 500 or in Fastify's own `{error, message, statusCode}` (src/common/errors/global-exception.filter.ts).
 */

const SECRET = 'not-for-the-browser-0f3a9c';

/** A web build beside a file that must never be served: the build's parent holds `package.json`. */
const makeWebDir = (): { root: string; web: string } => {
  const root = mkdtempSync(join(tmpdir(), 'hatchery-fw-errors-'));
  const web = join(root, 'dist', 'web');
  mkdirSync(join(web, 'assets'), { recursive: true });
  writeFileSync(join(web, 'index.html'), '<!doctype html><html><body><div id="root"></div></body></html>');
  writeFileSync(join(web, 'assets', 'index-abc123.js'), 'console.log(1);');
  writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'hatchery', secret: SECRET }));
  writeFileSync(join(root, 'dist', 'package.json'), JSON.stringify({ name: 'hatchery', secret: SECRET }));
  return { root, web };
};

describe.each(dbKinds(['postgres']))('4xx errors of the HTTP stack (%s)', (db) => {
  let t: TestApp;
  let root: string;
  const logs = new LogCapture();
  const errorLines = () => logs.lines().filter((l) => typeof l.level === 'number' && l.level >= 50);

  const expectShape = (res: Response, status: number, code: string, message: string): void => {
    expect({ status: res.status, type: res.headers['content-type'], body: res.body }).toEqual({
      status,
      type: expect.stringMatching(/^application\/json/),
      body: denial(status, code, message),
    });
    expect(res.text).not.toContain(SECRET);
    expect(res.headers['x-request-id']).toBe(res.body.requestId);
  };

  beforeAll(async () => {
    const dirs = makeWebDir();
    root = dirs.root;
    t = await createTestApp({ db, logStream: logs, env: { WEB_DIR: dirs.web } });
  });

  afterAll(async () => {
    await t.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('should answer 403 in the error shape and serve nothing outside the assets folder for a path that climbs out of it', async () => {
    for (const path of [
      '/assets/..%2f..%2fpackage.json',
      '/assets/..%2f..%2f..%2fpackage.json',
      '/assets/%2e%2e/%2e%2e/package.json',
      '/assets/..%5c..%5cpackage.json',
      '/assets/..%2findex.html',
    ]) {
      expectShape(await t.http().get(path), 403, 'FORBIDDEN', 'You do not have permission to perform this action');
    }
    // The asset itself is still served.
    expect((await t.http().get('/assets/index-abc123.js').expect(200)).text).toBe('console.log(1);');
    expect(errorLines()).toEqual([]);
  });

  it('should answer 400 in the error shape for a malformed percent-encoding, in the web UI and in the API', async () => {
    for (const path of ['/assets/%E0%A4%A', '/%E0%A4%A', '/api/client/servers/%E0%A4%A', '/api/admin/users/%ZZ']) {
      const res = await t.http().get(path);
      expectShape(res, 400, 'BAD_REQUEST', `'${path}' is not a valid url component`);
    }
    expect(errorLines()).toEqual([]);
  });

  it('should keep 416 for a range past the end of an asset and 415 for an unreadable content type', async () => {
    expectShape(await t.http().get('/assets/index-abc123.js').set('Range', 'bytes=500-600'), 416, 'RANGE_NOT_SATISFIABLE', 'Range Not Satisfiable');
    const res = await t.http().post('/api/auth/sign-in/email').set('Content-Type', ';;;').send('{"a":1}');
    expectShape(res, 415, 'UNSUPPORTED_MEDIA_TYPE', 'Unsupported Media Type');
    expect(errorLines()).toEqual([]);
  });

  it('should answer 413 in the error shape for a JSON body over the cap', async () => {
    const res = await t
      .http()
      .post('/api/auth/sign-in/email')
      .set('Content-Type', 'application/json')
      .send(JSON.stringify({ email: 'a'.repeat(1024 * 1024 + 10), password: 'x' }));
    expectShape(res, 413, 'PAYLOAD_TOO_LARGE', 'The request body is too large');
  });
});
