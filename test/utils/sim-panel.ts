import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { WingsSimulator } from 'test/wings-sim';
import type { UserEntity } from 'src/modules/users/user.entity';
import { createUser, UserFactoryOptions } from 'test/factories/user.factory';
import { createApiKey, signIn } from 'test/utils/auth';
import { createTestApp, TEST_ORIGIN, TestApp, TestAppOptions } from 'test/utils/create-test-app';
import { EGG_FIXTURES_DIR } from 'test/utils/fixtures';
import { freePort } from 'test/utils/free-port';
import type { DbKind } from 'test/utils/test-db';

export type Method = 'get' | 'post' | 'patch' | 'put' | 'delete';
export type Requester = (method: Method, path: string) => ReturnType<ReturnType<TestApp['http']>['get']>;

export interface SimPanel {
  t: TestApp;
  sim: WingsSimulator;
  owner: { id: string; username: string };
  /** The owner's session cookie pair, for clients other than supertest. */
  ownerCookie: string;
  nodeId: string;
  eggId: string;
  /** Requests as the administrator / the server owner (session cookie, trusted Origin). */
  admin: Requester;
  asOwner: Requester;
  /** A new signed-in account and a request builder acting as it. */
  newUser: (options?: UserFactoryOptions) => Promise<{ user: UserEntity; as: Requester }>;
  /** Creates a Paper server for the owner through the admin API; returns its admin view. */
  createServer: (body?: Record<string, unknown>) => Promise<{ id: string; uuid: string }>;
  /** Waits until the server's install (or reinstall, or restore) is over, as the admin API reports it. */
  installed: (serverId: string) => Promise<void>;
  close: () => Promise<void>;
}

export const waitFor = async <T>(probe: () => Promise<T | undefined | false> | T | undefined | false, timeoutMs = 10_000): Promise<T> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) {
      return value;
    }
    if (Date.now() > deadline) {
      throw new Error('timed out waiting');
    }
    await new Promise((r) => setTimeout(r, 25));
  }
};

/**
 * Runs one phase of a teardown; one still running after 8 s is named on stderr with what the
 * process is waiting on, so a hook that times out says which part held it.
 */
const slowPhase = async (name: string, phase: () => Promise<void>): Promise<void> => {
  const started = Date.now();
  const watch = setInterval(() => {
    process.stderr.write(`teardown: ${name} has taken ${Math.round((Date.now() - started) / 1000)} s; waiting on ${process.getActiveResourcesInfo().join(', ')}\n`);
  }, 8000);
  watch.unref();
  try {
    await phase();
  } finally {
    clearInterval(watch);
  }
};

/**
 * A listening panel and a Wings simulator set up as an administrator would: location, node,
 * allocations 25565-25574, the node's token read from its configuration, the Paper egg imported.
 * With `external`, `env` carries the DATABASE_URL of a database the caller owns (several panels on one database).
 */
export const startSimPanel = async (db: DbKind | 'external', options: Pick<TestAppOptions, 'overrides' | 'env' | 'onResponse'> = {}): Promise<SimPanel> => {
  const t = await createTestApp({ db, ...options });
  await t.app.listen(0, '127.0.0.1');
  const panelUrl = await t.app.getUrl();
  const adminUser = await createUser(t.app, { admin: true });
  const ownerUser = await createUser(t.app);
  const adminCookie = await signIn(t, adminUser.email);
  const ownerCookie = await signIn(t, ownerUser.email);
  const admin = (method: Method, path: string) => t.http()[method](path).set('Cookie', adminCookie).set('Origin', TEST_ORIGIN);
  const asOwner = (method: Method, path: string) => t.http()[method](path).set('Cookie', ownerCookie).set('Origin', TEST_ORIGIN);
  const adminKey = await createApiKey(t, adminCookie, { permissions: ['nodes.read'] });

  const location = (await admin('post', '/api/admin/locations').send({ short: 'lab1', long: 'Test lab' }).expect(201)).body.data;
  const port = await freePort();
  const node = (
    await admin('post', '/api/admin/nodes')
      .send({ name: 'sim', fqdn: '127.0.0.1', scheme: 'http', daemonListen: port, memory: 16384, disk: 100000, locationId: location.id })
      .expect(201)
  ).body.data;
  await admin('post', `/api/admin/nodes/${node.id}/allocations`).send({ ip: '0.0.0.0', ports: ['25565-25574'] }).expect(201);

  // The daemon reads its token from the configuration, as `wings configure` would. Its `remote`
  // is APP_URL (what browsers use); it reaches this test panel on loopback instead.
  const config = (await t.http().get(`/api/admin/daemon/nodes/${node.id}/configuration`).set('Authorization', `Bearer ${adminKey}`).expect(200)).body.data;
  const sim = new WingsSimulator({
    panelUrl,
    tokenId: config.token_id,
    token: config.token,
    port,
    allowedOrigins: [TEST_ORIGIN],
    remoteTimeoutMs: 5000,
    timing: { lineDelayMs: 5, statsIntervalMs: 100, installDurationMs: 20, tokenCheckIntervalMs: 100 },
  });
  await sim.start();
  // The panel's clock is the test's; Wings refuses console tokens issued before it booted.
  t.clock.advance(Date.now() - t.clock.now().getTime() + 1000);

  const nest = (await admin('post', '/api/admin/nests').send({ name: 'Minecraft' }).expect(201)).body.data;
  const paper = JSON.parse(readFileSync(join(EGG_FIXTURES_DIR, 'egg-paper.json'), 'utf8'));
  const egg = (await admin('post', `/api/admin/eggs/import?nestId=${nest.id}`).send(paper).expect(201)).body.data;

  const createServer = async (body: Record<string, unknown> = {}) => {
    const res = await admin('post', '/api/admin/servers')
      .send({
        name: 'Survival',
        owner_id: ownerUser.id,
        node_id: node.id,
        egg_id: egg.id,
        memory: 2048,
        disk: 10240,
        cpu: 200,
        environment: { SERVER_JARFILE: 'paper.jar', MINECRAFT_VERSION: 'latest', BUILD_NUMBER: 'latest' },
        ...body,
      })
      .expect(201);
    return res.body.data as { id: string; uuid: string };
  };

  const newUser = async (options: UserFactoryOptions = {}) => {
    const user = await createUser(t.app, options);
    const cookie = await signIn(t, user.email, options.password);
    const as: Requester = (method, path) => t.http()[method](path).set('Cookie', cookie).set('Origin', TEST_ORIGIN);
    return { user, as };
  };

  const installed = async (serverId: string): Promise<void> => {
    await waitFor(async () => (await admin('get', `/api/admin/servers/${serverId}`).expect(200)).body.data.installStatus === null);
  };

  return {
    t,
    sim,
    newUser,
    installed,
    owner: { id: ownerUser.id, username: ownerUser.username },
    ownerCookie,
    nodeId: node.id,
    eggId: egg.id,
    admin,
    asOwner,
    createServer,
    close: async () => {
      await slowPhase('the Wings simulator stopping', () => sim.stop());
      await slowPhase('the panel closing', () => t.close());
    },
  };
};

export interface SimNode {
  nodeId: string;
  sim: WingsSimulator;
}

/** Another node with its own simulator in the panel's first location, set up as the first one is (transfers need two). */
export const addSimNode = async (sp: SimPanel, name: string, ports: string, memory = 16384, disk = 100000): Promise<SimNode> => {
  const { user } = await sp.newUser({ admin: true });
  const cookie = await signIn(sp.t, user.email);
  const key = await createApiKey(sp.t, cookie, { permissions: ['nodes.read'] });
  const locations = (await sp.admin('get', '/api/admin/locations').expect(200)).body.data as { id: string }[];
  const port = await freePort();
  const node = (
    await sp
      .admin('post', '/api/admin/nodes')
      .send({ name, fqdn: '127.0.0.1', scheme: 'http', daemonListen: port, memory, disk, locationId: locations[0].id })
      .expect(201)
  ).body.data;
  await sp.admin('post', `/api/admin/nodes/${node.id}/allocations`).send({ ip: '0.0.0.0', ports: [ports] }).expect(201);
  const config = (await sp.t.http().get(`/api/admin/daemon/nodes/${node.id}/configuration`).set('Authorization', `Bearer ${key}`).expect(200)).body.data;
  const sim = new WingsSimulator({
    panelUrl: await sp.t.app.getUrl(),
    tokenId: config.token_id,
    token: config.token,
    port,
    allowedOrigins: [TEST_ORIGIN],
    remoteTimeoutMs: 5000,
    logRequests: process.env.SIM_LOG === '1',
    timing: { lineDelayMs: 5, statsIntervalMs: 100, installDurationMs: 20, tokenCheckIntervalMs: 100 },
  });
  await sim.start();
  return { nodeId: node.id, sim };
};
