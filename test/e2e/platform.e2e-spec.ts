import { Controller, Get } from '@nestjs/common';
import { Public } from 'src/common/auth/authenticated.decorator';
import { createUser, DEFAULT_PASSWORD } from 'test/factories/user.factory';
import { createApiKey, sessionCookie } from 'test/utils/auth';
import { createTestApp, TestApp } from 'test/utils/create-test-app';
import { LogCapture } from 'test/utils/log-capture';
import { dbKinds } from 'test/utils/test-db';

@Controller('api/test/boom')
class BoomController {
  @Get()
  @Public()
  boom(): never {
    throw new Error('kaboom: internal detail at /srv/secret/path');
  }
}

describe.each(dbKinds(['postgres']))('platform: errors, health, docs and logs (%s)', (db) => {
  let t: TestApp;
  const logs = new LogCapture();

  beforeAll(async () => {
    t = await createTestApp({ db, logStream: logs, controllers: [BoomController] });
  });

  afterAll(async () => {
    await t.close();
  });

  it('should report health with the database checked', async () => {
    const res = await t.http().get('/api/health').expect(200);
    expect(res.body).toEqual({ data: { status: 'ok', database: 'up' } });
  });

  it('should answer an unknown route with 404 in the error shape', async () => {
    const res = await t.http().get('/api/nothing-here').expect(404);
    expect(res.body).toEqual({ statusCode: 404, code: 'ROUTE_NOT_FOUND', message: 'Not found', requestId: expect.any(String) });
  });

  it('should answer malformed JSON with 400 INVALID_JSON', async () => {
    const res = await t.http().post('/api/auth/sign-in/email').set('Content-Type', 'application/json').send('{"email": ').expect(400);
    expect(res.body).toEqual({
      statusCode: 400,
      code: 'INVALID_JSON',
      message: 'The request body is not valid JSON',
      requestId: expect.any(String),
    });
  });

  it('should answer an unknown error with 500 and keep the stack in the server log only', async () => {
    const res = await t.http().get('/api/test/boom').set('x-request-id', 'req-boom-1').expect(500);
    expect(res.body).toEqual({ statusCode: 500, code: 'INTERNAL_ERROR', message: 'Internal server error', requestId: 'req-boom-1' });
    expect(JSON.stringify(res.body)).not.toContain('kaboom');
    expect(res.headers['x-request-id']).toBe('req-boom-1');
    const logged = logs.lines().find((l) => JSON.stringify(l).includes('kaboom'));
    expect(JSON.stringify(logged)).toContain('BoomController');
  });

  it('should give every response a request id, and refuse an unsafe incoming one', async () => {
    const own = await t.http().get('/api/health').expect(200);
    expect(own.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const unsafe = await t.http().get('/api/health').set('x-request-id', 'bad id with spaces').expect(200);
    expect(unsafe.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('should serve the OpenAPI document generated from controllers and DTOs', async () => {
    const json = await t.http().get('/api/docs.json').expect(200);
    const doc = json.body as { openapi: string; paths: Record<string, unknown>; components: { schemas: Record<string, { properties?: object }> } };
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/api/auth/sign-in/email', '/api/account/api-keys', '/api/admin/users', '/api/admin/users/{id}']),
    );
    expect(Object.keys(doc.components.schemas.CreateApiKeyDto.properties ?? {})).toEqual(['name', 'expiresInDays', 'permissions']);
    const html = await t.http().get('/api/docs').redirects(1).expect(200);
    expect(html.text).toContain('swagger');
  });

  it('should write no password, key or cookie to the logs of a sign-in and a keyed request', async () => {
    const password = `${DEFAULT_PASSWORD}`;
    const user = await createUser(t.app, { admin: true });
    logs.chunks.length = 0;
    const signInRes = await t.http().post('/api/auth/sign-in/email').send({ email: user.email, password }).expect(200);
    const cookie = sessionCookie(signInRes)!;
    const cookieValue = cookie.split('=')[1];
    const key = await createApiKey(t, cookie);
    await t.http().get('/api/admin/users').set('Authorization', `Bearer ${key}`).expect(200);
    await t.http().get('/api/account').set('x-api-key', key).expect(200);
    await t.http().get(`/api/account?token=${key}`).set('Cookie', cookie).expect(200);

    const text = logs.text;
    expect(logs.lines().filter((l) => l.req !== undefined).length).toBeGreaterThanOrEqual(5);
    expect(text).toContain('[Redacted]');
    for (const secret of [password, key, cookieValue]) {
      expect(text).not.toContain(secret);
    }
  });
});
