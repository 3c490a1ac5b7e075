import { UserEntity } from 'src/modules/users/user.entity';
import { createUser } from 'test/factories/user.factory';
import { signIn } from 'test/utils/auth';
import { createTestApp, TEST_ORIGIN, TestApp } from 'test/utils/create-test-app';
import { FakeDaemon, Json, localNodeBody, Method } from 'test/utils/nodes';
import { dbKinds } from 'test/utils/test-db';

const NODES = '/api/admin/nodes';

describe.each(dbKinds(['postgres']))('a node heard from once: daemonContactedAt (%s)', (db) => {
  let t: TestApp;
  let admin: UserEntity;
  let cookie: string;
  let daemon: FakeDaemon;

  const as = (method: Method, path: string) => t.http()[method](path).set('Cookie', cookie).set('Origin', TEST_ORIGIN);
  const contactOf = async (id: string): Promise<unknown> => ((await as('get', `${NODES}/${id}`).expect(200)).body.data as Json).daemonContactedAt;

  beforeAll(async () => {
    t = await createTestApp({ db });
    admin = await createUser(t.app, { admin: true });
    cookie = await signIn(t, admin.email);
    daemon = await FakeDaemon.start();
  });

  afterAll(async () => {
    await daemon?.stop();
    await t?.close();
  });

  it("should stay null while the daemon does not answer, take the time of its first answer, and keep it through later ones", async () => {
    const node = (await as('post', NODES).send(localNodeBody(daemon.port)).expect(201)).body.data;
    expect(node.daemonContactedAt).toBeNull();
    const list = (await as('get', NODES).expect(200)).body.data as Json[];
    expect(list.find((n) => n.id === node.id)).toMatchObject({ daemonContactedAt: null });

    daemon.reply = () => ({ status: 500, body: { error: 'boom' } });
    await as('get', `${NODES}/${node.id}/system`).expect(500);
    expect(await contactOf(node.id)).toBeNull();

    daemon.reply = undefined;
    await as('get', `${NODES}/${node.id}/system`).expect(200);
    const first = t.clock.now().toISOString();
    expect(await contactOf(node.id)).toBe(first);

    t.clock.advance(60_000);
    await as('get', `${NODES}/${node.id}/system`).expect(200);
    expect(await contactOf(node.id)).toBe(first);
  });
});
