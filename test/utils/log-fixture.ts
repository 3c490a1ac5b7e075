import { DataSource } from 'typeorm';
import { UserEntity } from 'src/modules/users/user.entity';
import { createEgg, createNest } from 'test/factories/egg.factory';
import { createNodeRow } from 'test/factories/node.factory';
import { createServerRow } from 'test/factories/server.factory';
import { createUser } from 'test/factories/user.factory';
import { signIn } from 'test/utils/auth';
import { createTestApp, TEST_ORIGIN, TestApp } from 'test/utils/create-test-app';
import type { DbKind } from 'test/utils/test-db';

/** A panel with what the log tests read and write: a signed-in admin and one server of theirs. */
export interface LogFixture {
  t: TestApp;
  ds: DataSource;
  admin: UserEntity;
  cookie: string;
  serverId: string;
  /** The server's activity list, `/api/client/servers/<uuid>/activity`. */
  activity: string;
  /** A GET as the admin, from the panel's own origin. */
  get: (path: string) => ReturnType<ReturnType<TestApp['http']>['get']>;
  /** Inserts an audit entry on the admin, made at `at`. */
  audit: (action: string, at: Date | string) => Promise<void>;
  /** Inserts an activity entry of the server, made at `at`. */
  act: (event: string, at: Date | string) => Promise<void>;
}

/**
 * Boots a test app (with `env` on top of the test defaults) and makes the admin, a node, an egg and a
 * server owned by the admin: the setup of the log cursor and log retention tests.
 */
export const createLogFixture = async (db: DbKind, env: Record<string, string> = {}): Promise<LogFixture> => {
  const t = await createTestApp({ db, env });
  const ds = t.app.get(DataSource);
  const admin = await createUser(t.app, { admin: true });
  const cookie = await signIn(t, admin.email);
  const { node } = await createNodeRow(t.app);
  const egg = await createEgg(t.app, (await createNest(t.app)).id);
  const server = await createServerRow(t.app, { node, egg, owner: admin });
  return {
    t,
    ds,
    admin,
    cookie,
    serverId: server.id,
    activity: `/api/client/servers/${server.uuid}/activity`,
    get: (path) => t.http().get(path).set('Cookie', cookie).set('Origin', TEST_ORIGIN),
    audit: async (action, at) => {
      await ds.query(`INSERT INTO audit_log (actor_id, actor_username, via, action, target_type, target_id, changes, created_at) VALUES ($1, $2, 'session', $3, 'user', $4, '{}', $5)`, [
        admin.id,
        admin.username,
        action,
        admin.id,
        at,
      ]);
    },
    act: async (event, at) => {
      await ds.query(`INSERT INTO server_activity (server_id, event, metadata, via, created_at) VALUES ($1, $2, '{}', 'panel', $3)`, [server.id, event, at]);
    },
  };
};
