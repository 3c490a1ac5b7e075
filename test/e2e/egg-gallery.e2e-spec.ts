import { DataSource } from 'typeorm';
import { OutboundPolicy } from 'src/common/http/outbound-url';
import { EggEntity } from 'src/modules/eggs/egg.entity';
import { EggVariableEntity } from 'src/modules/eggs/egg-variable.entity';
import { NestEntity } from 'src/modules/eggs/nest.entity';
import { createEgg, createNest } from 'test/factories/egg.factory';
import { createUser } from 'test/factories/user.factory';
import { signIn } from 'test/utils/auth';
import { createTestApp, TEST_ORIGIN, TestApp } from 'test/utils/create-test-app';
import { EggHost } from 'test/utils/egg-host';
import { ADMIN_REQUIRED, expectError, Json, Method } from 'test/utils/nodes';
import { dbKinds } from 'test/utils/test-db';

const EGGS = '/api/admin/eggs';

const variable = (name: string, env: string, value: string, rules: string): Json => ({
  name,
  description: `${name}.`,
  env_variable: env,
  default_value: value,
  user_viewable: true,
  user_editable: true,
  rules,
  field_type: 'text',
});

/** A small PTDL_v2 document, as a community egg repository serves it (no update_url of its own). */
const tinyDoc = (): Json => ({
  _comment: 'DO NOT EDIT: FILE GENERATED AUTOMATICALLY BY PTERODACTYL PANEL - PTERODACTYL.IO',
  meta: { version: 'PTDL_v2', update_url: null },
  exported_at: '2024-05-07T12:55:55+00:00',
  name: 'Tiny Java',
  author: 'eggs@example.test',
  description: 'A small Java server.',
  features: ['eula'],
  docker_images: { 'Java 17': 'ghcr.io/pterodactyl/yolks:java_17' },
  file_denylist: [],
  startup: 'java -jar {{SERVER_JARFILE}}',
  config: { files: '{}', startup: '{"done": "Done"}', logs: '{}', stop: 'stop' },
  scripts: { installation: { script: '#!/bin/ash\necho v1', container: 'ghcr.io/pterodactyl/installers:alpine', entrypoint: 'ash' } },
  variables: [variable('Server Jar File', 'SERVER_JARFILE', 'server.jar', 'required|string|max:50'), variable('Build', 'BUILD_NUMBER', 'latest', 'required|string|max:20')],
});

/** The next release of tinyDoc: new startup, a second image, a new script, one variable changed, one added, one gone. */
const tinyDocV2 = (): Json => ({
  ...tinyDoc(),
  docker_images: { 'Java 21': 'ghcr.io/pterodactyl/yolks:java_21', 'Java 17': 'ghcr.io/pterodactyl/yolks:java_17' },
  startup: 'java -Xms128M -jar {{SERVER_JARFILE}}',
  scripts: { installation: { script: '#!/bin/ash\necho v2', container: 'ghcr.io/pterodactyl/installers:alpine', entrypoint: 'ash' } },
  variables: [variable('Server Jar', 'SERVER_JARFILE', 'paper.jar', 'required|string|max:50'), variable('Version', 'MC_VERSION', 'latest', 'nullable|string')],
});

describe.each(dbKinds(['postgres']))('egg gallery and update from URL (%s)', (db) => {
  let t: TestApp;
  let cookie: string;
  let nest: NestEntity;
  const host = new EggHost();
  const as = (method: Method, path: string, c = cookie) => t.http()[method](path).set('Cookie', c).set('Origin', TEST_ORIGIN);
  const ds = () => t.app.get(DataSource);

  beforeAll(async () => {
    await host.start();
    host.docs.set('/tiny.json', JSON.stringify(tinyDoc()));
    host.docs.set('/broken.json', '<html>not an egg</html>');
    host.docs.set('/invalid.json', JSON.stringify({ ...tinyDoc(), startup: undefined, author: 7 }));
    t = await createTestApp({
      db,
      env: { EGG_GALLERY_URLS: [host.url('/tiny.json'), host.url('/broken.json'), host.url('/gone.json'), host.url('/invalid.json')].join(',') },
      overrides: [{ provide: OutboundPolicy, useValue: new OutboundPolicy(true) }],
    });
    const admin = await createUser(t.app, { admin: true });
    cookie = await signIn(t, admin.email);
    nest = await createNest(t.app, { name: 'Minecraft' });
  });

  afterAll(async () => {
    await t?.close();
    await host.stop();
  });

  it('should list each gallery document by name and description, an installed copy, or why it could not be read', async () => {
    const url = host.url('/tiny.json');
    const port = new URL(url).port;
    const before = await as('get', `${EGGS}/gallery`).expect(200);
    expect(before.body).toEqual({
      data: [
        { url, name: 'Tiny Java', description: 'A small Java server.', author: 'eggs@example.test', installed: [], error: null },
        {
          url: host.url('/broken.json'),
          name: null,
          description: null,
          author: null,
          installed: [],
          error: { code: 'EGG_IMPORT_NOT_JSON', message: 'The URL did not return a JSON document' },
        },
        {
          url: host.url('/gone.json'),
          name: null,
          description: null,
          author: null,
          installed: [],
          error: { code: 'OUTBOUND_FETCH_FAILED', message: `127.0.0.1:${port} answered with HTTP 404` },
        },
        {
          url: host.url('/invalid.json'),
          name: null,
          description: null,
          author: null,
          installed: [],
          error: { code: 'VALIDATION_FAILED', message: 'Validation failed: author must be a string; startup must be a string' },
        },
      ],
    });

    const imported = await as('post', `${EGGS}/import-url`).send({ nestId: nest.id, url }).expect(201);
    // The document names no update URL, so the address it came from becomes one.
    expect(imported.body.data).toMatchObject({ name: 'Tiny Java', nestId: nest.id, updateUrl: url });
    const after = await as('get', `${EGGS}/gallery`).expect(200);
    expect(after.body.data[0].installed).toEqual([{ id: imported.body.data.id, name: 'Tiny Java', nestId: nest.id, nestName: 'Minecraft' }]);
    // The second listing reads the documents from the cache: the one fetch after the first is the import's.
    expect(host.requests.filter((r) => r === '/tiny.json')).toHaveLength(2);
  });

  it('should preview the differences of a changed document field by field, then apply them with one audit entry', async () => {
    const url = host.url('/tiny-update.json');
    host.docs.set('/tiny-update.json', JSON.stringify(tinyDoc()));
    const egg = (await as('post', `${EGGS}/import-url`).send({ nestId: nest.id, url }).expect(201)).body.data;
    const jarId = egg.variables.find((v: Json) => v.envVariable === 'SERVER_JARFILE').id;

    expect((await as('get', `${EGGS}/${egg.id}/update-preview`).expect(200)).body).toEqual({ data: { url, upToDate: true, fields: [], variables: [] } });

    host.docs.set('/tiny-update.json', JSON.stringify(tinyDocV2()));
    const preview = await as('get', `${EGGS}/${egg.id}/update-preview`).expect(200);
    expect(preview.body).toEqual({
      data: {
        url,
        upToDate: false,
        fields: [
          { field: 'dockerImages', before: 'Java 17: ghcr.io/pterodactyl/yolks:java_17', after: 'Java 21: ghcr.io/pterodactyl/yolks:java_21\nJava 17: ghcr.io/pterodactyl/yolks:java_17' },
          { field: 'startup', before: 'java -jar {{SERVER_JARFILE}}', after: 'java -Xms128M -jar {{SERVER_JARFILE}}' },
          { field: 'scriptInstall', before: '#!/bin/ash\necho v1', after: '#!/bin/ash\necho v2' },
        ],
        variables: [
          {
            envVariable: 'SERVER_JARFILE',
            change: 'changed',
            fields: [
              { field: 'name', before: 'Server Jar File', after: 'Server Jar' },
              { field: 'description', before: 'Server Jar File.', after: 'Server Jar.' },
              { field: 'defaultValue', before: 'server.jar', after: 'paper.jar' },
            ],
          },
          {
            envVariable: 'MC_VERSION',
            change: 'added',
            fields: [
              { field: 'name', before: null, after: 'Version' },
              { field: 'description', before: null, after: 'Version.' },
              { field: 'defaultValue', before: null, after: 'latest' },
              { field: 'userViewable', before: null, after: 'true' },
              { field: 'userEditable', before: null, after: 'true' },
              { field: 'rules', before: null, after: 'nullable|string' },
            ],
          },
          {
            envVariable: 'BUILD_NUMBER',
            change: 'removed',
            fields: [
              { field: 'name', before: 'Build', after: null },
              { field: 'description', before: 'Build.', after: null },
              { field: 'defaultValue', before: 'latest', after: null },
              { field: 'userViewable', before: 'true', after: null },
              { field: 'userEditable', before: 'true', after: null },
              { field: 'rules', before: 'required|string|max:20', after: null },
            ],
          },
        ],
      },
    });
    // A preview changes nothing.
    expect((await ds().getRepository(EggEntity).findOneByOrFail({ id: egg.id })).startup).toBe('java -jar {{SERVER_JARFILE}}');

    const applied = await as('post', `${EGGS}/${egg.id}/update`).expect(200);
    expect(applied.body.data).toMatchObject({
      id: egg.id,
      startup: 'java -Xms128M -jar {{SERVER_JARFILE}}',
      // The default image stays, since the document still offers it.
      dockerImage: 'ghcr.io/pterodactyl/yolks:java_17',
      dockerImages: [
        { name: 'Java 21', image: 'ghcr.io/pterodactyl/yolks:java_21' },
        { name: 'Java 17', image: 'ghcr.io/pterodactyl/yolks:java_17' },
      ],
      scriptInstall: '#!/bin/ash\necho v2',
      updateUrl: url,
    });
    const variables = await ds().getRepository(EggVariableEntity).find({ where: { eggId: egg.id }, order: { position: 'ASC' } });
    expect(variables.map((v) => [v.envVariable, v.name, v.defaultValue, v.position])).toEqual([
      ['SERVER_JARFILE', 'Server Jar', 'paper.jar', 0],
      ['MC_VERSION', 'Version', 'latest', 1],
    ]);
    // The variable is updated in place (servers keep their values), not replaced.
    expect(variables[0].id).toBe(jarId);
    const audit = await as('get', `/api/admin/audit-logs?targetType=egg&targetId=${egg.id}`).expect(200);
    expect(audit.body.data.map((e: Json) => e.action)).toEqual(['egg.updated_from_url', 'egg.imported']);
    expect(audit.body.data[0].changes).toEqual({
      before: { dockerImages: 'Java 17: ghcr.io/pterodactyl/yolks:java_17', startup: 'java -jar {{SERVER_JARFILE}}', scriptInstall: '#!/bin/ash\necho v1' },
      after: {
        dockerImages: 'Java 21: ghcr.io/pterodactyl/yolks:java_21\nJava 17: ghcr.io/pterodactyl/yolks:java_17',
        startup: 'java -Xms128M -jar {{SERVER_JARFILE}}',
        scriptInstall: '#!/bin/ash\necho v2',
        source: url,
        variables: [
          { envVariable: 'SERVER_JARFILE', change: 'changed' },
          { envVariable: 'MC_VERSION', change: 'added' },
          { envVariable: 'BUILD_NUMBER', change: 'removed' },
        ],
      },
    });
    expect((await as('get', `${EGGS}/${egg.id}/update-preview`).expect(200)).body.data).toMatchObject({ upToDate: true, fields: [], variables: [] });
  });

  it('should answer 409 EGG_NO_UPDATE_URL for an egg without an update URL and 404 for an unknown egg', async () => {
    const egg = await createEgg(t.app, nest.id, { updateUrl: null });
    expectError(await as('get', `${EGGS}/${egg.id}/update-preview`), 409, 'EGG_NO_UPDATE_URL', 'The egg has no update URL to update from');
    expectError(await as('post', `${EGGS}/${egg.id}/update`), 409, 'EGG_NO_UPDATE_URL', 'The egg has no update URL to update from');
    expectError(await as('get', `${EGGS}/00000000-0000-4000-8000-000000000000/update-preview`), 404, 'EGG_NOT_FOUND', 'Egg not found');
  });

  it('should answer 403 ADMIN_REQUIRED to a user who is not an administrator', async () => {
    const user = await createUser(t.app);
    const userCookie = await signIn(t, user.email);
    expect((await as('get', `${EGGS}/gallery`, userCookie)).body).toEqual(ADMIN_REQUIRED);
    const egg = await createEgg(t.app, nest.id, { updateUrl: host.url('/tiny.json') });
    expect((await as('post', `${EGGS}/${egg.id}/update`, userCookie)).body).toEqual(ADMIN_REQUIRED);
  });
});

describe.each(dbKinds(['postgres']))('egg gallery under the production address rules (%s)', (db) => {
  let t: TestApp;

  afterAll(async () => {
    await t?.close();
  });

  it('should describe a gallery address on the loopback as refused, without fetching it', async () => {
    t = await createTestApp({ db, env: { EGG_GALLERY_URLS: 'http://127.0.0.1:9/egg.json' } });
    const admin = await createUser(t.app, { admin: true });
    const cookie = await signIn(t, admin.email);
    const res = await t.http().get(`${EGGS}/gallery`).set('Cookie', cookie).expect(200);
    expect(res.body.data).toEqual([
      {
        url: 'http://127.0.0.1:9/egg.json',
        name: null,
        description: null,
        author: null,
        installed: [],
        error: { code: 'OUTBOUND_URL_REFUSED', message: 'The URL points at a private, loopback or link-local address' },
      },
    ]);
  });
});
