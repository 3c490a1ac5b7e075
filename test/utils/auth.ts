import type { Response } from 'supertest';
import { TEST_ORIGIN, TestApp } from 'test/utils/create-test-app';
import { DEFAULT_PASSWORD } from 'test/factories/user.factory';

/** The `hatchery_session=...` pair from a response's Set-Cookie, or undefined. */
export const sessionCookie = (res: Response): string | undefined => {
  const raw = res.headers['set-cookie'] as unknown as string[] | undefined;
  const cookie = raw?.find((c) => c.startsWith('hatchery_session='));
  return cookie?.split(';')[0];
};

/** Signs in by e-mail and returns the session cookie pair. */
export const signIn = async (t: TestApp, email: string, password = DEFAULT_PASSWORD): Promise<string> => {
  const res = await t.http().post('/api/auth/sign-in/email').send({ email, password }).expect(200);
  const cookie = sessionCookie(res);
  if (!cookie) {
    throw new Error('sign-in set no session cookie');
  }
  return cookie;
};

/** Creates an API key for a signed-in user and returns the key. */
export const createApiKey = async (
  t: TestApp,
  cookie: string,
  body: { name?: string; permissions?: string[]; expiresInDays?: number } = {},
): Promise<string> => {
  const res = await t
    .http()
    .post('/api/account/api-keys')
    .set('Cookie', cookie)
    .set('Origin', TEST_ORIGIN)
    .send({ name: 'test key', ...body })
    .expect(201);
  return (res.body as { data: { key: string } }).data.key;
};
