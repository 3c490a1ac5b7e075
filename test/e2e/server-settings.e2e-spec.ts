import { eggFixtureFiles } from 'test/utils/fixtures';
import { SimPanel, startSimPanel } from 'test/utils/sim-panel';
import { dbKinds } from 'test/utils/test-db';

const hasPaper = eggFixtureFiles().includes('egg-paper.json');

(hasPaper ? describe : describe.skip).each(dbKinds(['postgres']))('the startup, settings and network tabs (%s)', (db) => {
  let p: SimPanel;
  let server: { id: string; uuid: string };
  let base: string;

  const activity = async () => (await p.asOwner('get', `${base}/activity`).expect(200)).body.data as { event: string; metadata: unknown }[];
  const installed = () => p.installed(server.id);

  beforeAll(async () => {
    p = await startSimPanel(db);
    server = await p.createServer({ name: 'Settings', additional_allocation_ids: [] });
    base = `/api/client/servers/${server.uuid}`;
    await installed();
  });

  afterAll(async () => {
    await p?.close();
  });

  it('should show the startup command with the values, hidden variables masked, and only user-viewable variables', async () => {
    const startup = (await p.asOwner('get', `${base}/startup`).expect(200)).body.data;
    expect(startup.rawStartup).toContain('-jar {{SERVER_JARFILE}}');
    expect(startup.startup).toContain('-jar paper.jar');
    expect(startup.dockerImage).toEqual(expect.any(String));
    expect(startup.dockerImages).toEqual(expect.arrayContaining([{ name: expect.any(String), image: startup.dockerImage }]));
    expect(startup.variables.map((v: { envVariable: string }) => v.envVariable)).toEqual(['MINECRAFT_VERSION', 'SERVER_JARFILE', 'BUILD_NUMBER']);
    expect(startup.variables[1]).toEqual({
      name: expect.any(String),
      description: expect.any(String),
      envVariable: 'SERVER_JARFILE',
      defaultValue: 'server.jar',
      serverValue: 'paper.jar',
      isEditable: true,
      rules: 'required|regex:/^([\\w\\d._-]+)(\\.jar)$/',
    });
  });

  it('should change an editable variable within its rules, reach the daemon configuration, and log it', async () => {
    const res = await p.asOwner('put', `${base}/startup/variable`).send({ key: 'SERVER_JARFILE', value: 'custom.jar' }).expect(200);
    expect(res.body.data).toMatchObject({ envVariable: 'SERVER_JARFILE', serverValue: 'custom.jar' });
    expect((await p.asOwner('get', `${base}/startup`).expect(200)).body.data.startup).toContain('-jar custom.jar');
    const config = await p.sim.panel.getServerConfiguration(server.uuid);
    expect(config.settings.environment.SERVER_JARFILE).toBe('custom.jar');
    expect((await activity())[0]).toMatchObject({ event: 'server.startup.edit', metadata: { variable: 'SERVER_JARFILE', old: 'paper.jar', new: 'custom.jar' } });
  });

  it('should refuse a value against the rules, a hidden variable, an unknown one and a read-only one', async () => {
    const bad = await p.asOwner('put', `${base}/startup/variable`).send({ key: 'SERVER_JARFILE', value: 'no spaces allowed.exe' }).expect(400);
    expect(bad.body).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ field: 'value', message: expect.any(String) }] });
    await p.asOwner('put', `${base}/startup/variable`).send({ key: 'BUILD_NUMBER', value: '' }).expect(400);
    expect((await p.asOwner('put', `${base}/startup/variable`).send({ key: 'DL_PATH', value: 'x' }).expect(404)).body.code).toBe('STARTUP_VARIABLE_NOT_FOUND');
    expect((await p.asOwner('put', `${base}/startup/variable`).send({ key: 'NOPE', value: 'x' }).expect(404)).body.code).toBe('STARTUP_VARIABLE_NOT_FOUND');
    const tooLong = await p.asOwner('put', `${base}/startup/variable`).send({ key: 'SERVER_JARFILE', value: `${'a'.repeat(5000)}.jar` }).expect(400);
    expect(tooLong.body.details[0].field).toBe('value');

    const egg = (await p.admin('get', `/api/admin/eggs/${p.eggId}`).expect(200)).body.data;
    const version = egg.variables.find((v: { envVariable: string }) => v.envVariable === 'MINECRAFT_VERSION');
    await p.admin('patch', `/api/admin/eggs/${p.eggId}/variables/${version.id}`).send({ userEditable: false }).expect(200);
    const readOnly = await p.asOwner('put', `${base}/startup/variable`).send({ key: 'MINECRAFT_VERSION', value: '1.20.4' }).expect(403);
    expect(readOnly.body).toMatchObject({ code: 'STARTUP_VARIABLE_READ_ONLY', message: 'The environment variable you are trying to edit is read-only.' });
  });

  it("should switch to another of the egg's images for the next start, with the permission, and never to one it does not offer", async () => {
    const startup = (await p.asOwner('get', `${base}/startup`).expect(200)).body.data as { dockerImage: string; dockerImages: { image: string }[] };
    const other = startup.dockerImages.map((d) => d.image).find((i) => i !== startup.dockerImage)!;
    expect(other).toBeDefined();
    await p.asOwner('put', `${base}/settings/docker-image`).send({ dockerImage: other }).expect(204);
    expect((await p.asOwner('get', `${base}/startup`).expect(200)).body.data.dockerImage).toBe(other);
    // Wings reads the image from the configuration it fetches before a start.
    expect((await p.sim.panel.getServerConfiguration(server.uuid)).settings.container.image).toBe(other);
    expect((await activity())[0]).toMatchObject({ event: 'server.startup.image', metadata: { old: startup.dockerImage, new: other } });

    const refused = await p.asOwner('put', `${base}/settings/docker-image`).send({ dockerImage: 'evil.example/miner:latest' }).expect(400);
    expect(refused.body).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ field: 'dockerImage' }] });
    await p.asOwner('put', `${base}/settings/docker-image`).send({}).expect(400);

    // A subuser needs the permission: startup.update is not enough.
    const friend = await p.newUser();
    await p.asOwner('post', `${base}/users`).send({ email: friend.user.email, permissions: ['server.startup.read', 'server.startup.update'] }).expect(201);
    await friend.as('put', `${base}/settings/docker-image`).send({ dockerImage: startup.dockerImage }).expect(403);

    // An image an administrator set outside the egg's list stays theirs.
    await p.admin('patch', `/api/admin/servers/${server.id}/startup`).send({ image: 'registry.example/custom:1' }).expect(200);
    const custom = await p.asOwner('put', `${base}/settings/docker-image`).send({ dockerImage: startup.dockerImage }).expect(400);
    expect(custom.body.code).toBe('DOCKER_IMAGE_SET_BY_ADMIN');
    await p.admin('patch', `/api/admin/servers/${server.id}/startup`).send({ image: startup.dockerImage }).expect(200);
    expect((await p.asOwner('get', `${base}/startup`).expect(200)).body.data.dockerImage).toBe(startup.dockerImage);
  });

  it('should rename the server and log old and new names', async () => {
    await p.asOwner('post', `${base}/settings/rename`).send({ name: 'Creative', description: 'For building' }).expect(204);
    expect((await p.asOwner('get', base).expect(200)).body.data).toMatchObject({ name: 'Creative', description: 'For building' });
    expect((await activity())[0]).toMatchObject({ event: 'server.settings.rename', metadata: { old: 'Settings', new: 'Creative' } });
    expect((await p.asOwner('post', `${base}/settings/rename`).send({ name: '' }).expect(400)).body.code).toBe('VALIDATION_FAILED');
  });

  it('should reinstall through the daemon: installing until the daemon reports back', async () => {
    const before = p.sim.requestsTo(`/api/servers/${server.uuid}/reinstall`, 'POST').length;
    await p.asOwner('post', `${base}/settings/reinstall`).expect(202);
    expect(p.sim.requestsTo(`/api/servers/${server.uuid}/reinstall`, 'POST')).toHaveLength(before + 1);
    expect((await activity())[0]).toMatchObject({ event: 'server.reinstall' });
    await installed();
  });

  it('should freeze a suspended server for its users but not for admins: they still see it, and nothing else', async () => {
    await p.admin('post', `/api/admin/servers/${server.id}/suspend`).expect(200);
    try {
      expect((await p.asOwner('get', base).expect(200)).body.data.suspended).toBe(true);
      await p.asOwner('get', `${base}/resources`).expect(200);
      for (const path of ['/files/list?directory=/', '/startup', '/activity', '/network/allocations', '/users', '/schedules', '/backups', '/databases']) {
        expect([path, (await p.asOwner('get', `${base}${path}`)).body.code]).toEqual([path, 'SERVER_SUSPENDED']);
      }
      await p.admin('get', `${base}/files/list?directory=/`).expect(200);
      await p.admin('get', `${base}/startup`).expect(200);
    } finally {
      await p.admin('post', `/api/admin/servers/${server.id}/unsuspend`).expect(200);
    }
  });

  it('should refuse a reinstall of a suspended server with 409, and not call the daemon', async () => {
    await p.admin('post', `/api/admin/servers/${server.id}/suspend`).expect(200);
    try {
      const before = p.sim.requestsTo(`/api/servers/${server.uuid}/reinstall`, 'POST').length;
      expect((await p.asOwner('post', `${base}/settings/reinstall`).expect(409)).body.code).toBe('SERVER_SUSPENDED');
      expect(p.sim.requestsTo(`/api/servers/${server.uuid}/reinstall`, 'POST')).toHaveLength(before);
    } finally {
      await p.admin('post', `/api/admin/servers/${server.id}/unsuspend`).expect(200);
    }
  });

  it("should list the server's allocations with the default marked", async () => {
    const allocations = (await p.asOwner('get', `${base}/network/allocations`).expect(200)).body.data;
    expect(allocations).toEqual([{ id: expect.stringMatching(/^\d+$/), ip: '0.0.0.0', alias: null, port: 25565, notes: null, isDefault: true }]);
  });
});
