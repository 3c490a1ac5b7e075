import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { PteroClient } from '@devnote-dev/pterojs';
import { NodeactylClient } from 'nodeactyl';
import { signIn } from 'test/utils/auth';
import { eggFixtureFiles } from 'test/utils/fixtures';
import { Json } from 'test/utils/nodes';
import { createPterodactylKey, NOT_FOUND, PTERODACTYL_ACCEPT } from 'test/utils/pterodactyl';
import { SimPanel, startSimPanel, waitFor } from 'test/utils/sim-panel';
import { dbKinds } from 'test/utils/test-db';

const hasPaper = eggFixtureFiles().includes('egg-paper.json');

(hasPaper ? describe : describe.skip).each(dbKinds(['postgres']))('Pterodactyl client API, against the Wings simulator (%s)', (db) => {
  let p: SimPanel;
  let key: string;
  let server: { id: string; uuid: string };
  let identifier: string;
  let root: string;

  const call = (method: 'get' | 'post' | 'put' | 'delete', path: string, as = key) =>
    p.t.http()[method](`/pterodactyl/api/client${path}`).set('Accept', PTERODACTYL_ACCEPT).set('Authorization', `Bearer ${as}`);

  beforeAll(async () => {
    p = await startSimPanel(db);
    server = await p.createServer({ name: 'Ptero', backup_limit: 3 });
    await p.installed(server.id);
    root = p.sim.servers.get(server.uuid)!.fs.root;
    key = (await createPterodactylKey(p.t, p.ownerCookie, 'client')).key;
    identifier = (await p.asOwner('get', `/api/client/servers/${server.uuid}`).expect(200)).body.data.identifier;
  });

  afterAll(async () => {
    await p?.close();
  });

  it('should list the servers the key owner sees, in the client ServerTransformer shape with its default includes', async () => {
    const res = await call('get', '/').expect(200);
    expect(res.body.object).toBe('list');
    expect(res.body.meta.pagination).toMatchObject({ total: 1, count: 1, per_page: 50, current_page: 1, total_pages: 1 });
    const [s] = res.body.data;
    // Pterodactyl's uuidShort: the uuid's first 8 characters, which Hatchery's identifier is.
    expect(identifier).toBe(server.uuid.slice(0, 8));
    expect(s.object).toBe('server');
    expect(s.attributes).toMatchObject({
      server_owner: true,
      identifier,
      internal_id: Number(server.id),
      uuid: server.uuid,
      name: 'Ptero',
      node: 'sim',
      is_node_under_maintenance: false,
      sftp_details: { ip: '127.0.0.1', port: 2022 },
      limits: { memory: 2048, disk: 10240, cpu: 200 },
      feature_limits: { backups: 3 },
      status: null,
      is_suspended: false,
      is_installing: false,
      is_transferring: false,
    });
    expect(s.attributes.invocation).toContain('paper.jar');
    expect(s.attributes.relationships.allocations.data[0]).toMatchObject({ object: 'allocation', attributes: { ip: '0.0.0.0', is_default: true } });
    expect(s.attributes.relationships.variables.data.map((v: Json) => v.attributes.env_variable)).toContain('SERVER_JARFILE');
    // Filters and types as Pterodactyl's: a name that matches nothing, another user's view.
    expect((await call('get', '/?filter[name]=nothing-like-it').expect(200)).body.meta.pagination.total).toBe(0);
    expect((await call('get', `/?filter[*]=${identifier}`).expect(200)).body.data).toHaveLength(1);
    expect((await call('get', '/?type=admin-all').expect(200)).body.data).toHaveLength(0);
  });

  it("should show a change to the server's node (maintenance) and egg (features) at the next request", async () => {
    const attributes = async () => (await call('get', '/?include=egg').expect(200)).body.data[0].attributes;
    expect((await attributes()).is_node_under_maintenance).toBe(false);
    await p.admin('patch', `/api/admin/nodes/${p.nodeId}`).send({ maintenanceMode: true }).expect(200);
    await p.admin('patch', `/api/admin/eggs/${p.eggId}`).send({ features: ['eula', 'java_version'] }).expect(200);
    try {
      const changed = await attributes();
      expect(changed.is_node_under_maintenance).toBe(true);
      expect(changed.egg_features).toEqual(['eula', 'java_version']);
      expect(changed.relationships.egg.attributes).toEqual({ uuid: p.eggId, name: expect.any(String) });
    } finally {
      await p.admin('patch', `/api/admin/nodes/${p.nodeId}`).send({ maintenanceMode: false }).expect(200);
    }
    expect((await attributes()).is_node_under_maintenance).toBe(false);
  });

  it('should show the server with is_server_owner and user_permissions, and 404 to anyone it does not exist for', async () => {
    const res = await call('get', `/servers/${identifier}`).expect(200);
    expect(res.body.attributes.identifier).toBe(identifier);
    expect(res.body.meta).toEqual({ is_server_owner: true, user_permissions: ['*'] });
    // Another user's key: the server does not exist for them.
    const stranger = await p.newUser();
    const strangerCookie = await signIn(p.t, stranger.user.email);
    const strangerKey = (await createPterodactylKey(p.t, strangerCookie, 'client')).key;
    expect((await call('get', `/servers/${identifier}`, strangerKey).expect(404)).body).toEqual(NOT_FOUND);
    expect((await call('get', '/', strangerKey).expect(200)).body.data).toEqual([]);
    expect((await call('get', '/servers/abcdefgh').expect(404)).body).toEqual(NOT_FOUND);
  });

  it('should start the server through the simulator (204) and report its resources', async () => {
    await call('post', `/servers/${identifier}/power`).send({ signal: 'start' }).expect(204);
    await waitFor(() => p.sim.servers.get(server.uuid)?.state === 'running');
    const stats = await call('get', `/servers/${identifier}/resources`).expect(200);
    expect(stats.body).toMatchObject({ object: 'stats', attributes: { current_state: 'running', is_suspended: false } });
    await call('post', `/servers/${identifier}/command`).send({ command: 'say hi' }).expect(204);
    const ws = await call('get', `/servers/${identifier}/websocket`).expect(200);
    expect(ws.body.data.socket).toBe(`ws://127.0.0.1:${new URL(p.sim.url).port}/api/servers/${server.uuid}/ws`);
    expect(ws.body.data.token.split('.')).toHaveLength(3);
    expect((await call('post', `/servers/${identifier}/power`).send({}).expect(422)).body.errors[0].meta).toEqual({ source_field: 'signal', rule: 'required' });
  });

  it('should write, read, list, rename and delete files on the node', async () => {
    await call('post', `/servers/${identifier}/files/write?file=/notes.txt`).set('Content-Type', 'text/plain').send('hello from ptero').expect(204);
    expect(await readFile(join(root, 'notes.txt'), 'utf8')).toBe('hello from ptero');
    const contents = await call('get', `/servers/${identifier}/files/contents?file=/notes.txt`).expect(200);
    expect(contents.text).toBe('hello from ptero');
    await call('post', `/servers/${identifier}/files/create-folder`).send({ root: '/', name: 'plugins' }).expect(204);
    const listing = await call('get', `/servers/${identifier}/files/list?directory=/`).expect(200);
    const names = listing.body.data.map((f: Json) => f.attributes.name);
    expect(names).toEqual(expect.arrayContaining(['notes.txt', 'plugins']));
    expect(listing.body.data.find((f: Json) => f.attributes.name === 'notes.txt')).toMatchObject({ object: 'file_object', attributes: { is_file: true, size: 16 } });
    await call('put', `/servers/${identifier}/files/rename`).send({ root: '/', files: [{ from: 'notes.txt', to: 'renamed.txt' }] }).expect(204);
    expect(await readFile(join(root, 'renamed.txt'), 'utf8')).toBe('hello from ptero');
    const download = await call('get', `/servers/${identifier}/files/download?file=/renamed.txt`).expect(200);
    expect(download.body.object).toBe('signed_url');
    expect(download.body.attributes.url).toContain('/download/file?token=');
    await call('post', `/servers/${identifier}/files/delete`).send({ root: '/', files: ['renamed.txt'] }).expect(204);
    await expect(readFile(join(root, 'renamed.txt'))).rejects.toThrow();
  });

  it('should create, view, lock, download and delete a backup', async () => {
    await writeFile(join(root, 'world.dat'), 'level');
    const created = await call('post', `/servers/${identifier}/backups`).send({ name: 'nightly' }).expect(200);
    expect(created.body).toMatchObject({ object: 'backup', attributes: { name: 'nightly', is_locked: false } });
    const uuid = created.body.attributes.uuid;
    const done = await waitFor(async () => {
      const b = (await call('get', `/servers/${identifier}/backups/${uuid}`).expect(200)).body.attributes;
      return b.completed_at ? b : undefined;
    });
    expect(done.is_successful).toBe(true);
    const listed = await call('get', `/servers/${identifier}/backups`).expect(200);
    expect(listed.body.meta).toMatchObject({ backup_count: 1, pagination: { total: 1, per_page: 20 } });
    expect((await call('post', `/servers/${identifier}/backups/${uuid}/lock`).expect(200)).body.attributes.is_locked).toBe(true);
    expect((await call('get', `/servers/${identifier}/backups/${uuid}/download`).expect(200)).body.object).toBe('signed_url');
    await call('delete', `/servers/${identifier}/backups/${uuid}`).expect(409);
    await call('post', `/servers/${identifier}/backups/${uuid}/lock`).expect(200);
    await call('delete', `/servers/${identifier}/backups/${uuid}`).expect(204);
    expect((await call('get', `/servers/${identifier}/backups/${uuid}`).expect(404)).body).toEqual(NOT_FOUND);
  });

  it('should create a schedule with a task, run it, and delete both', async () => {
    const body = { name: 'Restart', minute: '0', hour: '4', day_of_month: '*', month: '*', day_of_week: '*', is_active: true, only_when_online: false };
    const created = await call('post', `/servers/${identifier}/schedules`).send(body).expect(200);
    expect(created.body).toMatchObject({ object: 'server_schedule', attributes: { name: 'Restart', cron: { minute: '0', hour: '4', day_of_week: '*' }, is_active: true } });
    const id = created.body.attributes.id;
    expect(typeof id).toBe('number');
    const task = await call('post', `/servers/${identifier}/schedules/${id}/tasks`).send({ action: 'command', payload: 'say scheduled', time_offset: 0 }).expect(200);
    expect(task.body).toMatchObject({ object: 'schedule_task', attributes: { action: 'command', payload: 'say scheduled', sequence_id: 1 } });
    const viewed = await call('get', `/servers/${identifier}/schedules/${id}`).expect(200);
    expect(viewed.body.attributes.relationships.tasks.data).toHaveLength(1);
    await call('post', `/servers/${identifier}/schedules/${id}/execute`).expect(202);
    await call('delete', `/servers/${identifier}/schedules/${id}/tasks/${task.body.attributes.id}`).expect(204);
    await call('delete', `/servers/${identifier}/schedules/${id}`).expect(204);
    expect((await call('get', `/servers/${identifier}/schedules`).expect(200)).body.data).toHaveLength(0);
    const bad = await call('post', `/servers/${identifier}/schedules`).send({ ...body, minute: '99' }).expect(422);
    expect(bad.body.errors[0].meta.source_field).toBe('minute');
  });

  it('should answer the account, its keys and the permission catalogue', async () => {
    expect((await call('get', '/account').expect(200)).body).toMatchObject({ object: 'user', attributes: { id: Number(p.owner.id), username: p.owner.username, admin: false } });
    expect((await call('get', '/permissions').expect(200)).body.attributes.permissions.control.keys).toHaveProperty('start');
    const created = await call('post', '/account/api-keys').send({ description: 'bot', allowed_ips: [] }).expect(200);
    expect(created.body.meta.secret_token).toMatch(/^ptlc_\w{43}$/);
    expect((await call('get', '/account').set('Authorization', `Bearer ${created.body.meta.secret_token}`).expect(200)).body.attributes.username).toBe(p.owner.username);
    const keys = await call('get', '/account/api-keys').expect(200);
    expect(keys.body.data.map((k: Json) => k.attributes.identifier)).toContain(created.body.attributes.identifier);
    await call('delete', `/account/api-keys/${created.body.attributes.identifier}`).expect(204);
    // The password's routes are served (pterodactyl-client-account.e2e-spec): a wrong current password changes nothing.
    const wrong = await call('put', '/account/password').send({ current_password: 'not the password', password: 'long enough now', password_confirmation: 'long enough now' }).expect(400);
    expect(wrong.body.errors[0].code).toBe('InvalidPasswordProvidedException');
    await call('get', '/account').expect(200);
  });

  it('should add a subuser with Pterodactyl permission names, mapped to Hatchery permissions, and check them on the subuser key', async () => {
    const friend = await p.newUser();
    const permissions = ['control.console', 'control.start', 'file.read', 'file.read-content', 'backup.read', 'database.view_password', 'allocation.create'];
    const added = await call('post', `/servers/${identifier}/users`).send({ email: friend.user.email, permissions }).expect(200);
    expect(added.body.object).toBe('server_subuser');
    // server.power needs all of control.start/stop/restart; names Hatchery lacks are dropped.
    expect(added.body.attributes.permissions.sort()).toEqual(['allocation.create', 'backup.read', 'control.console', 'file.read', 'file.read-content']);
    const rows: { permissions: string[] }[] = await p.t.app.get(DataSource).query('SELECT permissions FROM subuser WHERE server_id = $1 AND user_id = $2', [server.id, friend.user.id]);
    expect([...rows[0].permissions].sort()).toEqual(['server.allocation.create', 'server.backup.read', 'server.console', 'server.files.read', 'server.view']);

    const friendKey = (await createPterodactylKey(p.t, await signIn(p.t, friend.user.email), 'client')).key;
    const seen = await call('get', `/servers/${identifier}`, friendKey).expect(200);
    expect(seen.body.meta.is_server_owner).toBe(false);
    expect(seen.body.meta.user_permissions.sort()).toEqual(['allocation.create', 'backup.read', 'control.console', 'file.read', 'file.read-content']);
    // No startup.read: values hidden and variables a null resource; no allocation.read: only the primary, without notes.
    expect(seen.body.attributes.relationships.variables).toEqual({ object: 'null_resource', attributes: null });
    expect(seen.body.attributes.invocation).toContain('[hidden]');
    expect((await call('post', `/servers/${identifier}/power`, friendKey).send({ signal: 'stop' }).expect(403)).body.errors[0].code).toBe('AccessDeniedHttpException');
    await call('get', `/servers/${identifier}/files/list`, friendKey).expect(200);
    await call('get', `/servers/${identifier}/users`, friendKey).expect(403);

    const uuid = added.body.attributes.uuid;
    expect((await call('get', `/servers/${identifier}/users/${uuid}`).expect(200)).body.attributes.email).toBe(friend.user.email);
    const updated = await call('post', `/servers/${identifier}/users/${uuid}`).send({ permissions: ['control.start', 'control.stop', 'control.restart'] }).expect(200);
    expect(updated.body.attributes.permissions).toEqual(['control.start', 'control.stop', 'control.restart']);
    await call('post', `/servers/${identifier}/power`, friendKey).send({ signal: 'restart' }).expect(204);
    await call('delete', `/servers/${identifier}/users/${uuid}`).expect(204);
    await call('get', `/servers/${identifier}`, friendKey).expect(404);
  });

  it('should list allocations, keep notes, change the primary, and add and remove them within the limit', async () => {
    const listed = await call('get', `/servers/${identifier}/network/allocations`).expect(200);
    const [primary] = listed.body.data;
    expect(primary).toMatchObject({ object: 'allocation', attributes: { is_default: true, notes: null } });
    const noted = await call('post', `/servers/${identifier}/network/allocations/${primary.attributes.id}`).send({ notes: 'game port' }).expect(200);
    expect(noted.body.attributes.notes).toBe('game port');
    expect((await call('get', `/servers/${identifier}/network/allocations`).expect(200)).body.data[0].attributes.notes).toBe('game port');
    await call('post', `/servers/${identifier}/network/allocations/${primary.attributes.id}/primary`).expect(200);
    await call('post', `/servers/${identifier}/network/allocations/999999`).send({ notes: 'x' }).expect(404);
    // Adding and removing follow Hatchery's rules: none while the limit is 0, then within it.
    expect((await call('post', `/servers/${identifier}/network/allocations`).expect(409)).body.errors[0].detail).toContain('allocation limit is 0');
    await p.admin('patch', `/api/admin/servers/${server.id}/build`).send({ allocation_limit: 2 }).expect(200);
    const added = await call('post', `/servers/${identifier}/network/allocations`).expect(200);
    expect(added.body).toMatchObject({ object: 'allocation', attributes: { is_default: false, ip: '0.0.0.0' } });
    await call('post', `/servers/${identifier}/network/allocations`).expect(409);
    await call('delete', `/servers/${identifier}/network/allocations/${primary.attributes.id}`).expect(409);
    await call('delete', `/servers/${identifier}/network/allocations/${added.body.attributes.id}`).expect(204);
    expect((await call('get', `/servers/${identifier}/network/allocations`).expect(200)).body.data).toHaveLength(1);
  });

  it('should show and change startup variables, rename and reinstall the server', async () => {
    const startup = await call('get', `/servers/${identifier}/startup`).expect(200);
    expect(startup.body.meta.raw_startup_command).toContain('{{SERVER_JARFILE}}');
    expect(startup.body.meta.startup_command).toContain('paper.jar');
    expect(Object.keys(startup.body.meta.docker_images).length).toBeGreaterThan(0);
    const jar = startup.body.data.find((v: Json) => v.attributes.env_variable === 'SERVER_JARFILE');
    expect(jar).toMatchObject({ object: 'egg_variable', attributes: { server_value: 'paper.jar', is_editable: true } });
    const changed = await call('put', `/servers/${identifier}/startup/variable`).send({ key: 'SERVER_JARFILE', value: 'server.jar' }).expect(200);
    expect(changed.body.attributes.server_value).toBe('server.jar');
    expect(changed.body.meta.startup_command).toContain('server.jar');
    await call('post', `/servers/${identifier}/settings/rename`).send({ name: 'Renamed', description: 'by a bot' }).expect(204);
    expect((await call('get', `/servers/${identifier}`).expect(200)).body.attributes).toMatchObject({ name: 'Renamed', description: 'by a bot' });
    const images = Object.values(startup.body.meta.docker_images as Record<string, string>);
    const current = (await call('get', `/servers/${identifier}`).expect(200)).body.attributes.docker_image as string;
    const other = images.find((i) => i !== current)!;
    await call('put', `/servers/${identifier}/settings/docker-image`).send({ docker_image: other }).expect(204);
    expect((await call('get', `/servers/${identifier}`).expect(200)).body.attributes.docker_image).toBe(other);
    const notOffered = await call('put', `/servers/${identifier}/settings/docker-image`).send({ docker_image: 'ghcr.io/x/y' }).expect(422);
    expect(notOffered.body.errors[0].meta).toEqual({ source_field: 'docker_image', rule: 'in' });
    await call('post', `/servers/${identifier}/settings/reinstall`).expect(202);
    await p.installed(server.id);
  });

  it('should list databases and answer ?include=password with a null resource', async () => {
    const res = await call('get', `/servers/${identifier}/databases?include=password`).expect(200);
    expect(res.body).toEqual({ object: 'list', data: [] });
    const refused = await call('post', `/servers/${identifier}/databases`).send({ database: 'bad name!', remote: '%' }).expect(422);
    expect(refused.body.errors[0].meta.source_field).toBe('database');
    await call('delete', `/servers/${identifier}/databases/not-an-id`).expect(404);
  });

  it('should serve @devnote-dev/pterojs and nodeactyl: server list, details, power, files, schedules, backups', async () => {
    const url = `${await p.t.app.getUrl()}/pterodactyl`;
    const ptero = new PteroClient(url, key, { servers: { cache: false } });
    const servers = await ptero.servers.fetch({ force: true });
    expect([...servers.values()].map((s) => s.identifier)).toEqual([identifier]);
    const one = await ptero.servers.fetch(identifier, { force: true });
    expect(one.uuid).toBe(server.uuid);
    await ptero.servers.setPowerState(identifier, 'restart');
    await one.files.write('/ptero.txt', 'written by pterojs');
    expect(await readFile(join(root, 'ptero.txt'), 'utf8')).toBe('written by pterojs');
    expect(await one.files.getContents('/ptero.txt')).toBe('written by pterojs');
    const schedule = await ptero.schedules.create(identifier, { name: 'Daily', active: true, minute: '0', hour: '3', dayOfMonth: '*', month: '*', dayOfWeek: '*' });
    expect(schedule.name).toBe('Daily');

    const nodeactyl = new NodeactylClient(url, key);
    expect((await nodeactyl.getAllServers()).data[0].attributes.identifier).toBe(identifier);
    expect((await nodeactyl.getServerDetails(identifier)).uuid).toBe(server.uuid);
    expect(await nodeactyl.startServer(identifier)).toBe(true);
    expect(await nodeactyl.getServerStatus(identifier)).toMatch(/running|starting|stopping|offline/);
    const backup = await nodeactyl.createServerBackup(identifier);
    expect(backup.uuid).toMatch(/^[0-9a-f-]{36}$/);
    expect((await nodeactyl.listServerBackups(identifier)).length).toBeGreaterThanOrEqual(1);
    // The node finishes the backup before the test ends: closing the panel mid-backup waits for its callback.
    await waitFor(async () => (await call('get', `/servers/${identifier}/backups/${String(backup.uuid)}`).expect(200)).body.attributes.completed_at);
  });
});
