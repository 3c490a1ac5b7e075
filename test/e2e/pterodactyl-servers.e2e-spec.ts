import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { EGG_FIXTURES_DIR, eggFixtureFiles } from 'test/utils/fixtures';
import { SimPanel, startSimPanel, waitFor } from 'test/utils/sim-panel';
import { dbKinds } from 'test/utils/test-db';
import { ALL_APPLICATION_PERMISSIONS, createPterodactylKey, NOT_FOUND, PTERODACTYL_ACCEPT } from 'test/utils/pterodactyl';

const hasPaper = eggFixtureFiles().includes('egg-paper.json');
const ATOM = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$/;

(hasPaper ? describe : describe.skip).each(dbKinds(['postgres']))('Pterodactyl application API: servers, against the Wings simulator (%s)', (db) => {
  let p: SimPanel;
  let key: string;
  let eggId: number;
  let nestId: number;
  let locationId: number;

  beforeAll(async () => {
    p = await startSimPanel(db);
    key = (await p.admin('post', '/api/admin/pterodactyl-keys').send({ description: 'billing', permissions: ALL_APPLICATION_PERMISSIONS }).expect(201)).body.data.key;
    const [row] = await p.t.app.get(DataSource).query('SELECT e.int_id AS egg, n.int_id AS nest FROM egg e JOIN nest n ON n.id = e.nest_id WHERE e.id = $1', [p.eggId]);
    eggId = row.egg;
    nestId = row.nest;
    locationId = (await api('get', `/nodes/${p.nodeId}`).expect(200)).body.attributes.location_id;
  });

  afterAll(async () => {
    await p?.close();
  });

  type Method = 'get' | 'post' | 'patch' | 'delete';
  const api = (method: Method, path: string) =>
    p.t.http()[method](`/api/application${path}`).set('Authorization', `Bearer ${key}`).set('Accept', PTERODACTYL_ACCEPT);

  const installed = async (id: number) => p.installed(String(id));

  /** What a billing module sends to create a server. */
  const serverBody = (user: number, extra: Record<string, unknown> = {}) => ({
    name: 'Billed server',
    user,
    egg: eggId,
    docker_image: 'ghcr.io/pterodactyl/yolks:java_21',
    startup: 'java -Xms128M -Xmx{{SERVER_MEMORY}}M -jar {{SERVER_JARFILE}}',
    environment: { SERVER_JARFILE: 'server.jar', BUILD_NUMBER: 'latest', MINECRAFT_VERSION: 'latest', BUNGEE_VERSION: 'latest' },
    limits: { memory: 1024, swap: 0, disk: 2048, io: 500, cpu: 100 },
    feature_limits: { databases: 0, allocations: 1, backups: 1 },
    start_on_completion: false,
    ...extra,
  });

  it('should walk the billing provisioning flow with Pterodactyl’s bodies and status codes', async () => {
    const email = `customer-${db}@example.test`;
    // 1. Find the customer by e-mail; there is none, so create the account.
    expect((await api('get', `/users?filter[email]=${encodeURIComponent(email)}`).expect(200)).body.data).toEqual([]);
    const user = (await api('post', '/users').send({ email, username: `customer-${db}`, first_name: 'Cus', last_name: 'Tomer', external_id: `client-${db}` }).expect(201)).body.attributes;
    expect((await api('get', `/users?filter[email]=${encodeURIComponent(email)}`).expect(200)).body.data.map((u: { attributes: { id: number } }) => u.attributes.id)).toEqual([user.id]);

    // 2. Create the server by deploy, with the service's id as external_id.
    const created = await api('post', '/servers')
      .send(serverBody(user.id, { external_id: `service-${db}`, deploy: { locations: [locationId], dedicated_ip: false, port_range: ['25565-25574'] } }))
      .expect(201);
    const server = created.body.attributes;
    expect(created.body.object).toBe('server');
    expect(server).toMatchObject({
      id: expect.any(Number),
      external_id: `service-${db}`,
      uuid: expect.any(String),
      identifier: server.uuid.slice(0, 8),
      name: 'Billed server',
      suspended: false,
      limits: { memory: 1024, swap: 0, disk: 2048, io: 500, cpu: 100, threads: null, oom_disabled: true },
      feature_limits: { databases: 0, allocations: 1, backups: 1 },
      user: user.id,
      node: Number(p.nodeId),
      allocation: expect.any(Number),
      nest: nestId,
      egg: eggId,
      container: {
        startup_command: 'java -Xms128M -Xmx{{SERVER_MEMORY}}M -jar {{SERVER_JARFILE}}',
        image: 'ghcr.io/pterodactyl/yolks:java_21',
        installed: 0,
        environment: expect.objectContaining({ SERVER_JARFILE: 'server.jar', P_SERVER_UUID: server.uuid }),
      },
      created_at: expect.stringMatching(ATOM),
      updated_at: expect.stringMatching(ATOM),
    });
    // A variable the egg does not have (BUNGEE_VERSION) is left out, as Pterodactyl does.
    expect(server.container.environment).not.toHaveProperty('BUNGEE_VERSION');
    await installed(server.id);
    await waitFor(() => p.sim.servers.has(server.uuid));
    // The module reads the port it was given from the node's allocations, filtered by server.
    const held = (await api('get', `/nodes/${server.node}/allocations?filter[server_id]=${server.id}`).expect(200)).body.data;
    expect(held.map((a: { attributes: unknown }) => a.attributes)).toEqual([expect.objectContaining({ id: server.allocation, assigned: true })]);

    // 3. Find it again by the external id.
    const found = await api('get', `/servers/external/service-${db}`).expect(200);
    expect(found.body.attributes).toMatchObject({ id: server.id, container: expect.objectContaining({ installed: 1 }), status: null });

    // 4. Change its build (an upgrade), as the modules send it.
    const built = await api('patch', `/servers/${server.id}/build`)
      .send({ allocation: server.allocation, memory: 2048, swap: 0, disk: 4096, io: 500, cpu: 200, threads: null, feature_limits: { databases: 1, allocations: 2, backups: 3 } })
      .expect(200);
    expect(built.body.attributes).toMatchObject({ limits: { memory: 2048, disk: 4096, cpu: 200 }, feature_limits: { databases: 1, allocations: 2, backups: 3 } });
    await waitFor(() => p.sim.servers.get(server.uuid)?.config.build.memory_limit === 2048);

    // 5. Suspend and unsuspend: 204 with no body, and Wings is told.
    const suspended = await api('post', `/servers/${server.id}/suspend`).expect(204);
    expect(suspended.text).toBe('');
    expect((await api('get', `/servers/${server.id}`).expect(200)).body.attributes).toMatchObject({ suspended: true, status: 'suspended' });
    await waitFor(() => p.sim.servers.get(server.uuid)?.config.suspended === true);
    await api('post', `/servers/${server.id}/unsuspend`).expect(204);
    expect((await api('get', `/servers/${server.id}`).expect(200)).body.attributes).toMatchObject({ suspended: false, status: null });

    // 6. Delete it: 204, then it is gone.
    await api('delete', `/servers/${server.id}`).expect(204);
    expect((await api('get', `/servers/${server.id}`).expect(404)).body).toEqual(NOT_FOUND);
    expect((await api('get', `/servers/external/service-${db}`).expect(404)).body).toEqual(NOT_FOUND);
  });

  it('should create on a given allocation, change details and startup, reinstall, and force-delete with the node down', async () => {
    // `filter[server_id]=0`, as billing modules ask for a free port: only unassigned allocations.
    const free = (await api('get', `/nodes/${p.nodeId}/allocations?filter[server_id]=0&per_page=100`).expect(200)).body.data.map((a: { attributes: { id: number; assigned: boolean } }) => a.attributes);
    expect(free.length).toBeGreaterThan(0);
    expect(free.every((a: { assigned: boolean }) => !a.assigned)).toBe(true);
    const [allocation] = free;
    const created = (await api('post', '/servers').send(serverBody(Number(p.owner.id), { allocation: { default: allocation.id } })).expect(201)).body.attributes;
    expect(created.allocation).toBe(allocation.id);
    await installed(created.id);

    const details = await api('patch', `/servers/${created.id}/details`).send({ name: 'Renamed', user: Number(p.owner.id), external_id: `later-${db}`, description: 'from billing' }).expect(200);
    expect(details.body.attributes).toMatchObject({ name: 'Renamed', external_id: `later-${db}`, description: 'from billing' });

    const startup = await api('patch', `/servers/${created.id}/startup`)
      .send({ startup: created.container.startup_command, environment: { SERVER_JARFILE: 'paper.jar', UNKNOWN: 'x' }, egg: eggId, image: 'ghcr.io/pterodactyl/yolks:java_17', skip_scripts: false })
      .expect(200);
    expect(startup.body.attributes.container).toMatchObject({ image: 'ghcr.io/pterodactyl/yolks:java_17', environment: expect.objectContaining({ SERVER_JARFILE: 'paper.jar' }) });

    // Another egg: its variables are read (and checked) against the new egg's rules.
    const vanillaUuid = (await p.admin('post', `/api/admin/eggs/import?nestId=${(await p.admin('get', `/api/admin/eggs/${p.eggId}`).expect(200)).body.data.nestId}`)
      .send(JSON.parse(readFileSync(join(EGG_FIXTURES_DIR, 'egg-vanilla-minecraft.json'), 'utf8')))
      .expect(201)).body.data.id;
    const [{ int_id: vanilla }] = await p.t.app.get(DataSource).query('SELECT int_id FROM egg WHERE id = $1', [vanillaUuid]);
    const refused = await api('patch', `/servers/${created.id}/startup`).send({ egg: vanilla, environment: { VANILLA_VERSION: 'x' } }).expect(422);
    expect(refused.body.errors[0].meta).toEqual({ source_field: 'environment.VANILLA_VERSION', rule: 'invalid' });
    const switched = await api('patch', `/servers/${created.id}/startup`).send({ egg: vanilla, environment: { VANILLA_VERSION: '1.20.4', MINECRAFT_VERSION: 'dropped' } }).expect(200);
    expect(switched.body.attributes).toMatchObject({ egg: vanilla, nest: nestId });
    expect(switched.body.attributes.container.environment).toMatchObject({ VANILLA_VERSION: '1.20.4', SERVER_JARFILE: 'server.jar' });
    expect(switched.body.attributes.container.environment.MINECRAFT_VERSION).toBeUndefined();

    await api('post', `/servers/${created.id}/reinstall`).expect(204);
    await installed(created.id);

    p.sim.faults.down = true;
    try {
      expect((await api('delete', `/servers/${created.id}`).expect(503)).body.errors[0]).toMatchObject({ status: '503' });
      await api('delete', `/servers/${created.id}/force`).expect(204);
    } finally {
      p.sim.faults.down = false;
    }
    await api('get', `/servers/${created.id}`).expect(404);
  });

  it("should include a server's allocations, owner, nest, egg, variables, node and location, and a user's servers, each only with read on it", async () => {
    const server = (await api('post', '/servers').send(serverBody(Number(p.owner.id), { deploy: { locations: [locationId], dedicated_ip: false, port_range: [] } })).expect(201)).body.attributes;
    await installed(server.id);
    const all = 'allocations,user,nest,egg,variables,location,node';
    const viewed = (await api('get', `/servers/${server.id}?include=${all}`).expect(200)).body.attributes.relationships;
    expect(viewed.allocations).toMatchObject({ object: 'list', data: [{ object: 'allocation', attributes: { id: server.allocation, assigned: true } }] });
    expect(viewed.user).toMatchObject({ object: 'user', attributes: { id: Number(p.owner.id) } });
    expect(viewed.nest).toMatchObject({ object: 'nest', attributes: { id: nestId } });
    expect(viewed.egg).toMatchObject({ object: 'egg', attributes: { id: eggId } });
    expect(viewed.variables.data.find((v: { attributes: { env_variable: string } }) => v.attributes.env_variable === 'SERVER_JARFILE')).toMatchObject({
      object: 'server_variable',
      attributes: { server_value: 'server.jar', default_value: 'server.jar' },
    });
    expect(viewed.node).toMatchObject({ object: 'node', attributes: { id: Number(p.nodeId) } });
    expect(viewed.location).toMatchObject({ object: 'location', attributes: { id: locationId } });
    // The list answers the same, the page's allocations in one go.
    const listed = (await api('get', `/servers?include=allocations&per_page=100`).expect(200)).body.data.find((s: { attributes: { id: number } }) => s.attributes.id === server.id);
    expect(listed.attributes.relationships.allocations.data).toHaveLength(1);

    // A key without read on users, nodes and eggs: those includes are left out, the rest stay.
    const narrow = (await p.admin('post', '/api/admin/pterodactyl-keys').send({ description: 'narrow', permissions: { ...ALL_APPLICATION_PERMISSIONS, users: 0, nodes: 0, eggs: 0 } }).expect(201)).body.data.key;
    const limited = (
      await p.t.http().get(`/api/application/servers/${server.id}?include=${all}`).set('Authorization', `Bearer ${narrow}`).set('Accept', PTERODACTYL_ACCEPT).expect(200)
    ).body.attributes.relationships;
    const nullResource = { object: 'null_resource', attributes: null };
    expect([limited.user, limited.node, limited.egg]).toEqual([nullResource, nullResource, nullResource]);
    expect(limited.nest.object).toBe('nest');

    const owner = (await api('get', `/users/${p.owner.id}?include=servers`).expect(200)).body.attributes.relationships.servers;
    expect(owner.object).toBe('list');
    expect(owner.data.map((s: { attributes: { id: number } }) => s.attributes.id)).toContain(server.id);
    await api('delete', `/servers/${server.id}`).expect(204);
  });

  it('should answer create, build, details and startup with the relationships ?include= asks for, as WHMCS reads the address from', async () => {
    const free = (await api('get', `/nodes/${p.nodeId}/allocations?filter[server_id]=0&per_page=100`).expect(200)).body.data.map((a: { attributes: { id: number } }) => a.attributes);
    const [allocation] = free;
    // The WHMCS module's create: `servers?include=allocations`, then relationships.allocations.data[0].attributes.ip/port.
    const created = (await api('post', '/servers?include=allocations').send(serverBody(Number(p.owner.id), { allocation: { default: allocation.id } })).expect(201)).body.attributes;
    expect(created.relationships).toEqual({
      allocations: { object: 'list', data: [{ object: 'allocation', attributes: expect.objectContaining({ id: allocation.id, ip: allocation.ip, port: allocation.port, assigned: true }) }] },
    });
    await installed(created.id);
    const only = (res: { body: { attributes: { relationships?: Record<string, { object: string; data?: { attributes: { id: number } }[] }> } } }) => res.body.attributes.relationships;
    const built = await api('patch', `/servers/${created.id}/build?include=allocations,user`)
      .send({ allocation: allocation.id, memory: 1024, swap: 0, disk: 2048, io: 500, cpu: 100, threads: null, feature_limits: { databases: 1, allocations: 1, backups: 1 } })
      .expect(200);
    expect(only(built)?.allocations?.data?.map((a) => a.attributes.id)).toEqual([allocation.id]);
    expect(only(built)?.user).toMatchObject({ object: 'user', attributes: { id: Number(p.owner.id) } });
    const details = await api('patch', `/servers/${created.id}/details?include=allocations`).send({ name: 'Included', user: Number(p.owner.id) }).expect(200);
    expect(only(details)?.allocations?.data?.map((a) => a.attributes.id)).toEqual([allocation.id]);
    const startup = await api('patch', `/servers/${created.id}/startup?include=allocations,egg`).send({ environment: { SERVER_JARFILE: 'server.jar' } }).expect(200);
    expect(only(startup)?.allocations?.data?.map((a) => a.attributes.id)).toEqual([allocation.id]);
    expect(only(startup)?.egg).toMatchObject({ object: 'egg', attributes: { id: eggId } });
    // Without ?include= there are no relationships, as before.
    expect((await api('patch', `/servers/${created.id}/details`).send({ name: 'Plain' }).expect(200)).body.attributes.relationships).toBeUndefined();
    await api('delete', `/servers/${created.id}`).expect(204);
  });

  it('should read feature_limits.databases as Pterodactyl does: null is none on create and unlimited on a build change, 0 is none', async () => {
    const deploy = { deploy: { locations: [locationId], dedicated_ip: false, port_range: [] } };
    /** What a database made on the server runs into first: its limit (409), else that no host is set up. */
    const makeDatabase = async (uuid: string) => (await p.admin('post', `/api/client/servers/${uuid}/databases`).send({ name: 'shop', remote: '%' })).body.code;
    const limitOf = async (id: number) => (await p.admin('get', `/api/admin/servers/${id}`).expect(200)).body.data.featureLimits.databases;

    // WHMCS sends null when its "databases" option is empty: Pterodactyl stores 0, no databases.
    const created = (await api('post', '/servers').send(serverBody(Number(p.owner.id), { ...deploy, feature_limits: { databases: null, allocations: 0, backups: 0 } })).expect(201)).body.attributes;
    expect(created.feature_limits.databases).toBe(0);
    expect(await limitOf(created.id)).toBe(-1);
    await installed(created.id);
    expect(await makeDatabase(created.uuid)).toBe('DATABASE_LIMIT_REACHED');
    expect((await api('get', `/servers/${created.id}`).expect(200)).body.attributes.feature_limits.databases).toBe(0);

    // A build change with null: unlimited, which Pterodactyl shows as null.
    const build = (databases: number | null) => ({ allocation: created.allocation, memory: 1024, swap: 0, disk: 2048, io: 500, cpu: 100, feature_limits: { databases, allocations: 0, backups: 0 } });
    const unlimited = await api('patch', `/servers/${created.id}/build`).send(build(null)).expect(200);
    expect(unlimited.body.attributes.feature_limits.databases).toBeNull();
    expect(await limitOf(created.id)).toBe(0);
    expect(await makeDatabase(created.uuid)).toBe('NO_DATABASE_HOST');
    // The client API shows it the same way.
    const clientKey = (await createPterodactylKey(p.t, p.ownerCookie, 'client')).key;
    const seen = await p.t.http().get(`/pterodactyl/api/client/servers/${created.identifier}`).set('Authorization', `Bearer ${clientKey}`).set('Accept', PTERODACTYL_ACCEPT).expect(200);
    expect(seen.body.attributes.feature_limits.databases).toBeNull();

    // 0 is none on a build change too (WHMCS's upgrade sends (int) of an empty option); 2 is two.
    expect((await api('patch', `/servers/${created.id}/build`).send(build(0)).expect(200)).body.attributes.feature_limits.databases).toBe(0);
    expect(await makeDatabase(created.uuid)).toBe('DATABASE_LIMIT_REACHED');
    expect((await api('patch', `/servers/${created.id}/build`).send(build(2)).expect(200)).body.attributes.feature_limits.databases).toBe(2);
    expect(await limitOf(created.id)).toBe(2);
    await api('delete', `/servers/${created.id}`).expect(204);
  });

  it('should list servers, filtered and sorted as Pterodactyl allows, and refuse bad bodies with 422', async () => {
    const list = await api('get', '/servers').expect(200);
    expect(list.body).toMatchObject({ object: 'list', meta: { pagination: expect.objectContaining({ per_page: 50, current_page: 1 }) } });
    const ids = (res: { body: { data: { attributes: { id: number } }[] } }) => res.body.data.map((x) => x.attributes.id);
    const a = (await api('post', '/servers').send(serverBody(Number(p.owner.id), { name: `Filtered A ${db}`, external_id: `filter-a-${db}`, deploy: { locations: [locationId], dedicated_ip: false, port_range: [] } })).expect(201)).body.attributes;
    const b = (await api('post', '/servers').send(serverBody(Number(p.owner.id), { name: `Filtered B ${db}`, deploy: { locations: [locationId], dedicated_ip: false, port_range: [] } })).expect(201)).body.attributes;
    expect(ids(await api('get', `/servers?filter[name]=filtered`).expect(200))).toEqual([a.id, b.id]);
    expect(ids(await api('get', `/servers?filter[name]=filtered&sort=-id`).expect(200))).toEqual([b.id, a.id]);
    expect(ids(await api('get', `/servers?filter[uuidShort]=${b.identifier}`).expect(200))).toEqual([b.id]);
    expect(ids(await api('get', `/servers?filter[external_id]=filter-a-${db}`).expect(200))).toEqual([a.id]);
    expect(ids(await api('get', `/servers?filter[image]=java_21&filter[name]=filtered`).expect(200))).toEqual([a.id, b.id]);
    // By uuid either way, a part of the uuid in any case, and pages of a filter counted on its matches.
    const byUuid = [a, b].sort((x, y) => (x.uuid < y.uuid ? -1 : 1)).map((x) => x.id);
    expect(ids(await api('get', `/servers?filter[name]=filtered&sort=uuid`).expect(200))).toEqual(byUuid);
    expect(ids(await api('get', `/servers?filter[name]=filtered&sort=-uuid`).expect(200))).toEqual([...byUuid].reverse());
    expect(ids(await api('get', `/servers?filter[uuid]=${a.uuid.slice(9, 23).toUpperCase()}`).expect(200))).toEqual([a.id]);
    const second = await api('get', `/servers?filter[name]=filtered&per_page=1&page=2`).expect(200);
    expect([ids(second), second.body.meta.pagination.total]).toEqual([[b.id], 2]);
    expect((await api('get', '/servers?filter[node]=1').expect(400)).body.errors[0].code).toBe('InvalidFilterQuery');
    for (const s of [a, b]) {
      await installed(s.id);
      await api('delete', `/servers/${s.id}`).expect(204);
    }
    const missing = await api('post', '/servers').send({ name: 'x' }).expect(422);
    expect(missing.body.errors.map((e: { meta: { source_field: string } }) => e.meta.source_field)).toEqual(['user', 'egg', 'limits', 'feature_limits']);
    const unknownEgg = await api('post', '/servers').send(serverBody(Number(p.owner.id), { egg: 999999, deploy: { locations: [locationId], dedicated_ip: false } })).expect(422);
    expect(unknownEgg.body.errors[0].meta).toEqual({ source_field: 'egg', rule: 'exists' });
    const nowhere = await api('post', '/servers').send(serverBody(Number(p.owner.id), { deploy: { locations: [999999], dedicated_ip: false } })).expect(400);
    expect(nowhere.body.errors[0]).toMatchObject({ status: '400', detail: expect.stringContaining('No viable allocation') });
    const badEnv = await api('post', '/servers').send(serverBody(Number(p.owner.id), { environment: { SERVER_JARFILE: 'no spaces allowed.jar' }, deploy: { locations: [locationId], dedicated_ip: false } })).expect(422);
    expect(badEnv.body.errors[0].meta).toEqual({ source_field: 'environment.SERVER_JARFILE', rule: 'invalid' });
  });
});
