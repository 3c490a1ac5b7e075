import type { Response } from 'supertest';
import { createUser } from 'test/factories/user.factory';
import { signIn } from 'test/utils/auth';
import { TEST_ORIGIN, TestApp } from 'test/utils/create-test-app';

export const PTERODACTYL_ACCEPT = 'Application/vnd.pterodactyl.v1+json';

/** Every application resource at read and write (3). */
export const ALL_APPLICATION_PERMISSIONS = {
  servers: 3,
  nodes: 3,
  allocations: 3,
  users: 3,
  locations: 3,
  nests: 3,
  eggs: 3,
  database_hosts: 3,
  server_databases: 3,
};

/** Creates a Pterodactyl key through Hatchery's API for a signed-in user; returns the created key's body. */
export const createPterodactylKey = async (
  t: TestApp,
  cookie: string,
  kind: 'client' | 'application',
  body: Record<string, unknown> = {},
): Promise<{ identifier: string; key: string; [field: string]: unknown }> => {
  const res: Response = await t
    .http()
    .post(kind === 'client' ? '/api/account/pterodactyl-keys' : '/api/admin/pterodactyl-keys')
    .set('Cookie', cookie)
    .set('Origin', TEST_ORIGIN)
    .send({ description: 'test key', ...body })
    .expect(201);
  return res.body.data;
};

/** A new administrator with an application key holding every permission. */
export const applicationKey = async (t: TestApp, permissions: Record<string, number> = ALL_APPLICATION_PERMISSIONS) => {
  const admin = await createUser(t.app, { admin: true });
  const cookie = await signIn(t, admin.email);
  const created = await createPterodactylKey(t, cookie, 'application', { permissions });
  return { admin, cookie, key: created.key, identifier: created.identifier };
};

/** Pterodactyl's error body for one error. */
export const pterodactylError = (status: number, code: string, detail: string) => ({ errors: [{ code, status: String(status), detail }] });

export const UNAUTHENTICATED = pterodactylError(401, 'AuthenticationException', 'Unauthenticated.');
export const UNAUTHORIZED = pterodactylError(403, 'AccessDeniedHttpException', 'This action is unauthorized.');
export const NOT_FOUND = pterodactylError(404, 'NotFoundHttpException', 'The requested resource could not be found on the server.');
