/**
 * Realistic data for the benchmark: 100 users, 5 nodes, 1,000 servers, and a subuser on one
 * server in ten (10 per 100 servers).
 *
 * What an administrator does by hand goes through the API (locations, nodes, allocations, the
 * egg import, sign-ins, API keys); the bulk rows (users, servers, their variables, subusers) go
 * straight into the database, in the shapes test/factories/*.ts use, because creating 1,000
 * servers through the API would wait on the daemon for each one.
 *
 * Every server is on node 1 (the simulated one): scenario 5 is a boot of a node holding 1,000
 * servers, and the panel must reach a live daemon for scenarios 1, 3 and 4. Nodes 2 to 5 exist,
 * with allocations, and hold no server.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import { AppConfigService } from 'src/config/app-config.service';
import { PasswordHasher } from 'src/modules/users/password.hasher';
import { expectApi } from 'bench/lib/http';

export const SEED = { users: 100, nodes: 5, servers: 1000, ownerServers: 50, subuserEvery: 10 } as const;
export const PASSWORD = 'bench-password-1234';
export const ADMIN_EMAIL = 'admin@bench.test';
export const OWNER_EMAIL = 'owner@bench.test';
export const SUBUSER_PERMISSIONS = ['server.view', 'websocket.connect', 'server.console', 'server.files.read', 'server.files.write', 'server.files.sftp'];

export interface Seeded {
  adminCookie: string;
  adminKey: string;
  /** A Pterodactyl application key (ptla_) of the administrator, with read access to servers. */
  applicationKey: string;
  owner: { id: string; username: string; cookie: string; key: string; pterodactylKey: string };
  /** The owner's servers (short identifiers and uuids), all on node 1. */
  ownerServers: { identifier: string; uuid: string }[];
  node: { id: string; tokenId: string; token: string; port: number };
  egg: string;
  counts: { users: number; nodes: number; servers: number; subusers: number; serverVariables: number; allocations: number };
}

export const eggFixture = (): { egg: unknown; source: string } => {
  const dir = process.env.HATCHERY_EGG_FIXTURES ?? join(__dirname, '..', '..', '..', 'shared', 'fixtures', 'eggs', 'pterodactyl');
  const file = join(dir, 'egg-paper.json');
  if (existsSync(file)) {
    return { egg: JSON.parse(readFileSync(file, 'utf8')), source: 'Pterodactyl Paper egg (shared/fixtures)' };
  }
  // Without the team's fixtures: a small Java egg of our own, in the same PTDL_v2 format.
  return {
    source: 'built-in Java egg (shared/fixtures not found)',
    egg: {
      meta: { version: 'PTDL_v2', update_url: null },
      name: 'Bench Java',
      author: 'bench@hatchery.test',
      description: 'A Java game server for the benchmark',
      features: ['eula'],
      docker_images: { 'Java 21': 'ghcr.io/pterodactyl/yolks:java_21' },
      file_denylist: [],
      startup: 'java -Xms128M -jar {{SERVER_JARFILE}}',
      config: {
        files: '{"server.properties":{"parser":"properties","find":{"server-port":"{{server.build.default.port}}"}}}',
        startup: '{"done":"Done"}',
        logs: '{}',
        stop: 'stop',
      },
      scripts: { installation: { script: '#!/bin/ash\necho installed', container: 'ghcr.io/pterodactyl/installers:alpine', entrypoint: 'ash' } },
      variables: [
        {
          name: 'Server Jar File',
          description: 'The jar to run',
          env_variable: 'SERVER_JARFILE',
          default_value: 'server.jar',
          user_viewable: true,
          user_editable: true,
          rules: 'required|string|max:40',
          field_type: 'text',
        },
        {
          name: 'Version',
          description: 'The version to install',
          env_variable: 'VERSION',
          default_value: 'latest',
          user_viewable: true,
          user_editable: true,
          rules: 'required|string|max:20',
          field_type: 'text',
        },
      ],
    },
  };
};

const sessionOf = (headers: Headers): string => {
  const cookie = headers.getSetCookie().find((c) => c.startsWith('hatchery_session='));
  if (!cookie) {
    throw new Error('sign-in set no hatchery_session cookie');
  }
  return cookie.split(';')[0];
};

export const signIn = async (base: string, email: string): Promise<string> =>
  sessionOf((await expectApi(200, base, 'POST', '/api/auth/sign-in/email', {}, { email, password: PASSWORD })).headers);

export const newKey = async (base: string, cookie: string, name: string, permissions: string[]): Promise<string> =>
  (await expectApi(201, base, 'POST', '/api/account/api-keys', { cookie, origin: base }, { name, permissions })).body.data.key;

/** `count` unique 8-character identifiers with their v4 uuids (identifier = uuid.slice(0, 8), as the panel does). */
const serverUuids = (count: number): string[] => {
  const seen = new Set<string>();
  const out: string[] = [];
  while (out.length < count) {
    const uuid = randomUUID();
    if (!seen.has(uuid.slice(0, 8))) {
      seen.add(uuid.slice(0, 8));
      out.push(uuid);
    }
  }
  return out;
};

/**
 * Seeds a panel that has just booted on an empty database with ADMIN_EMAIL = admin@bench.test.
 * `simPort` is where node 1's daemon (the simulator) will listen.
 */
export const seed = async (base: string, databaseUrl: string, simPort: number, log: (m: string) => void): Promise<Seeded & { eggSource: string }> => {
  const adminCookie = await signIn(base, ADMIN_EMAIL);
  const admin = { cookie: adminCookie, origin: base };
  const adminKey = await newKey(base, adminCookie, 'bench admin', ['nodes.read', 'servers.read']);

  const location = (await expectApi(201, base, 'POST', '/api/admin/locations', admin, { short: 'bench', long: 'Benchmark lab' })).body.data;
  const nodes: { id: string; port: number }[] = [];
  for (let i = 0; i < SEED.nodes; i++) {
    // Node 1 is the simulator; the others point at loopback ports nobody listens on and are never called.
    const port = i === 0 ? simPort : simPort + 10 + i;
    const node = (
      await expectApi(201, base, 'POST', '/api/admin/nodes', admin, {
        name: `node-${i + 1}`,
        fqdn: '127.0.0.1',
        scheme: 'http',
        daemonListen: port,
        memory: 262_144,
        disk: 4_000_000,
        locationId: location.id,
      })
    ).body.data;
    nodes.push({ id: String(node.id), port });
    const ports = i === 0 ? ['25565-26564'] : ['25565-25664'];
    await expectApi(201, base, 'POST', `/api/admin/nodes/${node.id}/allocations`, admin, { ip: '0.0.0.0', ports });
  }

  const { egg: eggJson, source: eggSource } = eggFixture();
  const nest = (await expectApi(201, base, 'POST', '/api/admin/nests', admin, { name: 'Minecraft' })).body.data;
  const egg = (await expectApi(201, base, 'POST', `/api/admin/eggs/import?nestId=${nest.id}`, admin, eggJson)).body.data;
  log(`egg: ${eggSource}`);

  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    // The production cost (the defaults), as the panel under test verifies these passwords.
    const hash = await new PasswordHasher(AppConfigService.fromEnv({ APP_KEY: 'x'.repeat(32) })).hash(PASSWORD);
    const usernames = ['owner', ...Array.from({ length: SEED.users - 2 }, (_, i) => `player${String(i + 1).padStart(3, '0')}`)];
    const emails = usernames.map((u) => (u === 'owner' ? OWNER_EMAIL : `${u}@bench.test`));
    const users = (
      await db.query<{ id: string; username: string }>(
        `INSERT INTO "user" (username, email, name, password_hash, admin)
         SELECT u, e, initcap(u), $3, false FROM unnest($1::varchar[], $2::varchar[]) AS t(u, e)
         RETURNING id, username`,
        [usernames, emails, hash],
      )
    ).rows;
    const owner = users.find((u) => u.username === 'owner')!;
    const players = users.filter((u) => u.username !== 'owner');

    const eggRow = (await db.query<{ startup: string; docker_image: string }>(`SELECT startup, docker_image FROM egg WHERE id = $1`, [egg.id])).rows[0];
    const variables = (await db.query<{ id: string; default_value: string }>(`SELECT id, default_value FROM egg_variable WHERE egg_id = $1 ORDER BY position`, [egg.id])).rows;
    const allocations = (await db.query<{ id: string }>(`SELECT id FROM allocation WHERE node_id = $1 ORDER BY port`, [nodes[0].id])).rows.map((r) => r.id);

    const uuids = serverUuids(SEED.servers);
    // The owner has 50 servers; the other 950 go round the 98 players (about 10 each), as on a shared host.
    const ownerIds = uuids.map((_, i) => (i < SEED.ownerServers ? owner.id : players[i % players.length].id));
    const servers = (
      await db.query<{ id: string; uuid: string; owner_id: string }>(
        `INSERT INTO server (uuid, identifier, name, owner_id, node_id, egg_id, allocation_id, startup, image, memory, disk, cpu, installed_at)
         SELECT u, left(u::text, 8), 'Server ' || n, o, $4, $5, a, $6, $7, 2048, 10240, 200, now()
         FROM unnest($1::uuid[], $2::bigint[], $3::bigint[]) WITH ORDINALITY AS t(u, o, a, n)
         RETURNING id, uuid, owner_id`,
        [uuids, ownerIds, allocations.slice(0, SEED.servers), nodes[0].id, egg.id, eggRow.startup, eggRow.docker_image],
      )
    ).rows;
    const byUuid = new Map(servers.map((s) => [s.uuid, s]));
    const ordered = uuids.map((u) => byUuid.get(u)!);
    await db.query(`UPDATE allocation SET server_id = s.id FROM server s WHERE s.allocation_id = allocation.id`);

    const varServer: string[] = [];
    const varId: string[] = [];
    const varValue: string[] = [];
    for (const s of ordered) {
      for (const v of variables) {
        varServer.push(s.id);
        varId.push(v.id);
        varValue.push(v.default_value);
      }
    }
    await db.query(
      `INSERT INTO server_variable (server_id, variable_id, value) SELECT * FROM unnest($1::bigint[], $2::uuid[], $3::text[])`,
      [varServer, varId, varValue],
    );

    // One server in ten gets a subuser: a player who does not own it.
    const subServer: string[] = [];
    const subUser: string[] = [];
    ordered.forEach((s, i) => {
      if (i % SEED.subuserEvery === 0) {
        const candidates = players.filter((p) => p.id !== s.owner_id);
        subServer.push(s.id);
        subUser.push(candidates[(i / SEED.subuserEvery) % candidates.length].id);
      }
    });
    await db.query(
      `INSERT INTO subuser (server_id, user_id, permissions) SELECT s, u, $3::text[] FROM unnest($1::bigint[], $2::bigint[]) AS t(s, u)`,
      [subServer, subUser, SUBUSER_PERMISSIONS],
    );
    await db.query('ANALYZE');

    const count = async (table: string): Promise<number> => Number((await db.query(`SELECT count(*)::int AS n FROM "${table}"`)).rows[0].n);
    const counts = {
      users: await count('user'),
      nodes: await count('node'),
      servers: await count('server'),
      subusers: await count('subuser'),
      serverVariables: await count('server_variable'),
      allocations: await count('allocation'),
    };

    const ownerCookie = await signIn(base, OWNER_EMAIL);
    const ownerKey = await newKey(base, ownerCookie, 'bench owner', []);
    // A Pterodactyl client key (ptlc_), as a bot or a billing system's client area would hold.
    const pterodactylKey = (await expectApi(201, base, 'POST', '/api/account/pterodactyl-keys', { cookie: ownerCookie, origin: base }, { description: 'bench owner' })).body.data.key;
    // And an application key (ptla_), as a billing system holds.
    const applicationKey = (
      await expectApi(201, base, 'POST', '/api/admin/pterodactyl-keys', { cookie: adminCookie, origin: base }, { description: 'bench billing', permissions: { servers: 1 } })
    ).body.data.key;
    const config = (await expectApi(200, base, 'GET', `/api/admin/daemon/nodes/${nodes[0].id}/configuration`, { bearer: adminKey })).body.data;

    return {
      adminCookie,
      adminKey,
      applicationKey,
      owner: { id: owner.id, username: owner.username, cookie: ownerCookie, key: ownerKey, pterodactylKey },
      ownerServers: ordered.slice(0, SEED.ownerServers).map((s) => ({ identifier: s.uuid.slice(0, 8), uuid: s.uuid })),
      node: { id: nodes[0].id, tokenId: config.token_id, token: config.token, port: simPort },
      egg: egg.id,
      counts,
      eggSource,
    };
  } finally {
    await db.end();
  }
};
