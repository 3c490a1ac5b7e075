import { DataSource } from 'typeorm';
import { UserEntity } from 'src/modules/users/user.entity';
import { createEgg, createNest } from 'test/factories/egg.factory';
import { createUser } from 'test/factories/user.factory';
import { signIn } from 'test/utils/auth';
import { createTestApp, TEST_ORIGIN, TestApp } from 'test/utils/create-test-app';
import { dbKinds } from 'test/utils/test-db';

const AUDIT = '/api/admin/audit-logs';

// Untyped response bodies, read field by field.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

describe.each(dbKinds(['postgres']))('audit log target names (%s)', (db) => {
  let t: TestApp;
  let admin: UserEntity;
  let cookie: string;

  const as = (method: 'get' | 'post' | 'patch' | 'delete', path: string) => t.http()[method](path).set('Cookie', cookie).set('Origin', TEST_ORIGIN);
  const targetsOf = async (query: string): Promise<Json[]> => (await as('get', `${AUDIT}?${query}`).expect(200)).body.data.map((e: Json) => [e.action, e.target]);

  beforeAll(async () => {
    t = await createTestApp({ db });
    admin = await createUser(t.app, { admin: true });
    cookie = await signIn(t, admin.email);
  });

  afterAll(async () => {
    await t?.close();
  });

  it("should name a target by its current name, a deleted one by the name its entry recorded, and an egg variable's egg as its parent", async () => {
    const nest = (await as('post', '/api/admin/nests').send({ name: 'Games' }).expect(201)).body.data;
    await as('patch', `/api/admin/nests/${nest.id}`).send({ name: 'Survival games' }).expect(200);
    const location = (await as('post', '/api/admin/locations').send({ short: 'eu-west' }).expect(201)).body.data;
    await as('delete', `/api/admin/locations/${location.id}`).expect(204);
    const egg = await createEgg(t.app, (await createNest(t.app)).id);
    const variable = (await as('post', `/api/admin/eggs/${egg.id}/variables`).send({ name: 'Jar file', envVariable: 'SERVER_JARFILE' }).expect(201)).body.data;

    expect(await targetsOf(`targetType=nest&targetId=${nest.id}`)).toEqual([
      ['nest.updated', { type: 'nest', id: nest.id, name: 'Survival games', parentId: null }],
      ['nest.created', { type: 'nest', id: nest.id, name: 'Survival games', parentId: null }],
    ]);
    expect(await targetsOf(`targetType=location&targetId=${location.id}`)).toEqual([
      ['location.deleted', { type: 'location', id: location.id, name: 'eu-west', parentId: null }],
      ['location.created', { type: 'location', id: location.id, name: 'eu-west', parentId: null }],
    ]);
    expect(await targetsOf(`targetType=egg_variable&targetId=${variable.id}`)).toEqual([
      ['egg.variable.created', { type: 'egg_variable', id: variable.id, name: 'Jar file', parentId: egg.id }],
    ]);
    // Once deleted, the variable's name and egg come from what its entries recorded.
    await as('delete', `/api/admin/eggs/${egg.id}/variables/${variable.id}`).expect(204);
    expect(await targetsOf(`targetType=egg_variable&targetId=${variable.id}`)).toEqual([
      ['egg.variable.deleted', { type: 'egg_variable', id: variable.id, name: 'Jar file', parentId: egg.id }],
      ['egg.variable.created', { type: 'egg_variable', id: variable.id, name: 'Jar file', parentId: egg.id }],
    ]);
  });

  it('should answer null for a target it cannot name: an unknown kind, an id of the wrong shape, a row gone with no name recorded', async () => {
    const ds = t.app.get(DataSource);
    const insert = (type: string, id: string) =>
      ds.query(`INSERT INTO audit_log (actor_id, actor_username, via, action, target_type, target_id, changes, created_at) VALUES ($1, $2, 'session', 'test.entry', $3, $4, '{}', now())`, [admin.id, admin.username, type, id]);
    await insert('__proto__', '1');
    await insert('user', 'not-a-number');
    await insert('server', '987654321');
    await insert('user', admin.id);
    expect(await targetsOf('action=test.entry')).toEqual([
      ['test.entry', { type: 'user', id: admin.id, name: admin.username, parentId: null }],
      ['test.entry', { type: 'server', id: '987654321', name: null, parentId: null }],
      ['test.entry', { type: 'user', id: 'not-a-number', name: null, parentId: null }],
      ['test.entry', { type: '__proto__', id: '1', name: null, parentId: null }],
    ]);
  });
});
