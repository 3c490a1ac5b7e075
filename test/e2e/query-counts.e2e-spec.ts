import { DataSource } from 'typeorm';
import { NodeOrigins } from 'src/modules/nodes/node-origins';
import { ChangeFeed } from 'src/common/hot-cache/change-feed';
import { HotCaches } from 'src/common/hot-cache/hot-caches';
import { API_KEY_POLICY } from 'src/modules/api-keys/api-keys.service';
import type { EggEntity } from 'src/modules/eggs/egg.entity';
import type { NodeEntity } from 'src/modules/nodes/node.entity';
import { SubuserEntity } from 'src/modules/servers/subusers/subuser.entity';
import type { UserEntity } from 'src/modules/users/user.entity';
import { createEgg, createNest } from 'test/factories/egg.factory';
import { createNodeRow } from 'test/factories/node.factory';
import { createAllocationRow, createServerRow } from 'test/factories/server.factory';
import { createUser } from 'test/factories/user.factory';
import { createApiKey, signIn } from 'test/utils/auth';
import { createTestApp, TestApp } from 'test/utils/create-test-app';
import { closedPort } from 'test/utils/nodes';
import { ALL_APPLICATION_PERMISSIONS, createPterodactylKey, PTERODACTYL_ACCEPT } from 'test/utils/pterodactyl';
import { countQueries } from 'test/utils/query-counter';
import { dbKinds } from 'test/utils/test-db';

/**
 * Once warm, authenticating a request and showing a server cost no database round trip
 * (the caches of HotCaches; test/e2e/hot-cache covers what drops them), and a list costs the same
 * number of queries whatever its length (no query per row).
 */
describe.each(dbKinds(['postgres']))('queries per request (%s)', (db) => {
  let t: TestApp;
  let owner: UserEntity;
  let friend: UserEntity;
  let ownerCookie: string;
  let friendCookie: string;
  let adminCookie: string;
  let ownerKey: string;
  let ownerPteroKey: string;
  let adminPteroKey: string;
  let friendPteroKey: string;
  let node: NodeEntity;
  let nodeAuth: string;
  let egg: EggEntity;

  const addServers = async (n: number) => {
    for (let i = 0; i < n; i += 1) {
      const server = await createServerRow(t.app, { node, egg, owner, allocation: await createAllocationRow(t.app, node) });
      await createAllocationRow(t.app, node, { serverId: server.id });
      const repo = t.app.get(DataSource).getRepository(SubuserEntity);
      await repo.save(repo.create({ serverId: server.id, userId: friend.id, permissions: ['server.view'] }));
    }
  };

  const queriesOf = async (path: string, headers: Record<string, string>) => {
    // What was written before is applied first, so a late notification cannot undo a fill.
    await t.app.get(ChangeFeed).caughtUp();
    // ...and the node origins (CSP) a node change reloads in the background are read before the count starts.
    await t.app.get(NodeOrigins).settled();
    const { result, queries } = await countQueries(async () => {
      let req = t.http().get(path);
      for (const [k, v] of Object.entries(headers)) {
        req = req.set(k, v);
      }
      return req;
    });
    expect(result.status).toBe(200);
    return { count: queries.length, queries, body: result.body as { data: unknown[] } };
  };

  beforeAll(async () => {
    t = await createTestApp({ db });
    owner = await createUser(t.app);
    friend = await createUser(t.app);
    ownerCookie = await signIn(t, owner.email);
    friendCookie = await signIn(t, friend.email);
    const admin = await createUser(t.app, { admin: true });
    adminCookie = await signIn(t, admin.email);
    ownerKey = await createApiKey(t, ownerCookie);
    ownerPteroKey = (await createPterodactylKey(t, ownerCookie, 'client')).key;
    friendPteroKey = (await createPterodactylKey(t, friendCookie, 'client')).key;
    adminPteroKey = (await createPterodactylKey(t, adminCookie, 'application', { permissions: ALL_APPLICATION_PERMISSIONS })).key;
    egg = await createEgg(t.app, (await createNest(t.app)).id);
    const calling = await createNodeRow(t.app);
    node = calling.node;
    nodeAuth = `Bearer ${node.tokenIdentifier}.${calling.token}`;
  });

  afterAll(async () => {
    await t?.close();
  });

  it('should authenticate a session or an API key with no query once warm', async () => {
    // GET /api/account answers from the authenticated user alone. First calls write "last seen".
    await queriesOf('/api/account', { Cookie: ownerCookie });
    await queriesOf('/api/account', { Authorization: `Bearer ${ownerKey}` });
    const bySession = await queriesOf('/api/account', { Cookie: ownerCookie });
    expect(bySession.queries).toEqual([]);
    const byKey = await queriesOf('/api/account', { Authorization: `Bearer ${ownerKey}` });
    expect(byKey.queries).toEqual([]);
  });

  describe("a server's details", () => {
    let serverPath: string;

    beforeAll(async () => {
      // A node nothing listens on: the details' status call to the daemon fails fast ("unknown").
      const offline = (await createNodeRow(t.app, { fqdn: '127.0.0.1', scheme: 'http', daemonListen: await closedPort() })).node;
      const server = await createServerRow(t.app, { node: offline, egg, owner, allocation: await createAllocationRow(t.app, offline) });
      const repo = t.app.get(DataSource).getRepository(SubuserEntity);
      await repo.save(repo.create({ serverId: server.id, userId: friend.id, permissions: ['server.view'] }));
      serverPath = `/api/client/servers/${server.uuid}`;
    });

    it.each([
      ['an API key', 'key'],
      ['a session', 'session'],
      ["a subuser's session", 'friend'],
    ])('should make no query once warm, with %s', async (_name, who) => {
      const headers: Record<string, string> = {
        key: { Authorization: `Bearer ${ownerKey}` },
        session: { Cookie: ownerCookie },
        friend: { Cookie: friendCookie },
      }[who]!;
      await queriesOf(serverPath, headers);
      const warm = await queriesOf(serverPath, headers);
      expect(warm.queries).toEqual([]);
      expect((await queriesOf(serverPath, headers)).queries).toEqual([]);
    });

    it("should write only the once-a-minute marks when their minute has passed, and nothing after", async () => {
      const key = { Authorization: `Bearer ${ownerKey}` };
      const session = { Cookie: ownerCookie };
      await queriesOf(serverPath, key);
      await queriesOf(serverPath, session);
      t.clock.advance(API_KEY_POLICY.lastUsedResolutionMs);
      const byKey = await queriesOf(serverPath, key);
      expect(byKey.queries).toEqual([expect.stringMatching(/^UPDATE "api_key" SET "last_used_at" = \$1/)]);
      const bySession = await queriesOf(serverPath, session);
      expect(bySession.queries).toEqual([expect.stringMatching(/^UPDATE "session" SET "last_seen_at" = \$1/)]);
      // The marks updated the cached copies rather than dropping them.
      expect((await queriesOf(serverPath, key)).queries).toEqual([]);
      expect((await queriesOf(serverPath, session)).queries).toEqual([]);
    });
  });

  it.each([
    ['the owner list', '/api/client/servers', 'owner', 'warm'],
    ['the admin-all list', '/api/client/servers?type=admin-all', 'admin', 'warm'],
    ['the shared-with-me list', '/api/client/servers?type=subuser', 'friend', 'warm'],
    ["a subuser's owned-and-shared list", '/api/client/servers', 'friend', 'warm'],
    ['the admin server list', '/api/admin/servers', 'admin', 'warm'],
    // Cold: a warm page builds no configuration (test/e2e/wings-configuration-cache), only the new servers' here.
    ['a node boot page, its configurations not cached', '/api/remote/servers?page=0&per_page=50', 'node', 'cold'],
    // Cold: each server's context is read for the page in one query, the 16 new ones as the 4 old ones.
    ["the Pterodactyl client API's list, its servers not cached", '/pterodactyl/api/client', 'ptero-client', 'cold'],
    ["the Pterodactyl client API's list, shared with a subuser", '/pterodactyl/api/client', 'ptero-friend', 'cold'],
    // Cold: the servers' Wings configurations (their environments) are built and cached for the page in one batch.
    ["the Pterodactyl application API's list with every include", '/api/application/servers?include=allocations,user,nest,egg,variables,location,node,databases', 'ptero-app', 'cold'],
  ])('should read %s in as many queries for 20 servers as for 4', async (_name, path, who, cache) => {
    const headers: Record<string, Record<string, string>> = {
      owner: { Cookie: ownerCookie },
      admin: { Cookie: adminCookie },
      friend: { Cookie: friendCookie },
      node: { Authorization: nodeAuth },
      'ptero-client': { Authorization: `Bearer ${ownerPteroKey}`, Accept: PTERODACTYL_ACCEPT },
      'ptero-app': { Authorization: `Bearer ${adminPteroKey}`, Accept: PTERODACTYL_ACCEPT },
      'ptero-friend': { Authorization: `Bearer ${friendPteroKey}`, Accept: PTERODACTYL_ACCEPT },
    };
    const measure = async () => {
      if (cache === 'cold') {
        t.app.get(HotCaches).clear();
      }
      return queriesOf(path, headers[who]);
    };
    await t.app.get(DataSource).query('DELETE FROM server');
    await addServers(4);
    // A first call writes the once-a-minute "last seen" marks (the test clock stands still after it).
    await queriesOf(path, headers[who]);
    const small = await measure();
    expect(small.body.data).toHaveLength(4);
    await addServers(16);
    const large = await measure();
    expect(large.body.data).toHaveLength(20);
    expect({ queries: large.count }).toEqual({ queries: small.count });
  });
});
