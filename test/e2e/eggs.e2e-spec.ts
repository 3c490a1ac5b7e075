import { readFileSync } from 'node:fs';
import http from 'node:http';
import { join } from 'node:path';
import type { Response } from 'supertest';
import { DataSource } from 'typeorm';
import { OutboundPolicy } from 'src/common/http/outbound-url';
import { EggEntity } from 'src/modules/eggs/egg.entity';
import { EggVariableEntity } from 'src/modules/eggs/egg-variable.entity';
import { NestEntity } from 'src/modules/eggs/nest.entity';
import { UserEntity } from 'src/modules/users/user.entity';
import { createEgg, createEggVariable, createNest, createServerUsing } from 'test/factories/egg.factory';
import { createUser } from 'test/factories/user.factory';
import { signIn } from 'test/utils/auth';
import { createTestApp, TEST_ORIGIN, TestApp } from 'test/utils/create-test-app';
import { EggHost } from 'test/utils/egg-host';
import { freePort } from 'test/utils/free-port';
import { EGG_FIXTURES_DIR, eggFixtureFiles } from 'test/utils/fixtures';
import { dbKinds } from 'test/utils/test-db';

const EGGS = '/api/admin/eggs';
const AUDIT = '/api/admin/audit-logs';
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const LOOPBACK = /^(::ffff:)?127\.0\.0\.1$|^::1$/;
const MISSING_UUID = '00000000-0000-4000-8000-000000000000';
const MIB = 1024 * 1024;

type Method = 'get' | 'post' | 'patch' | 'delete';
// Untyped JSON documents and response bodies, read field by field.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

/**
 * A PTDL_v2 document shaped like the stock Paper egg (written here, so the suite needs no shared
 * data): CRLF config strings, several images, variables with regex rules.
 */
const paperDoc = (): Json => ({
  _comment: 'DO NOT EDIT: FILE GENERATED AUTOMATICALLY BY PTERODACTYL PANEL - PTERODACTYL.IO',
  meta: { version: 'PTDL_v2', update_url: null },
  exported_at: '2024-05-07T12:55:55+00:00',
  name: 'Paper',
  author: 'parker@pterodactyl.io',
  description: 'High performance Spigot fork.',
  features: ['eula', 'java_version', 'pid_limit'],
  docker_images: { 'Java 21': 'ghcr.io/pterodactyl/yolks:java_21', 'Java 17': 'ghcr.io/pterodactyl/yolks:java_17' },
  file_denylist: [],
  startup: 'java -Xms128M -XX:MaxRAMPercentage=95.0 -jar {{SERVER_JARFILE}}',
  config: {
    files: '{\r\n    "server.properties": {\r\n        "parser": "properties",\r\n        "find": {\r\n            "server-port": "{{server.build.default.port}}"\r\n        }\r\n    }\r\n}',
    startup: '{\r\n    "done": ")! For help, type "\r\n}',
    logs: '{}',
    stop: 'stop',
  },
  scripts: {
    installation: {
      script: '#!/bin/ash\r\n# Paper Installation Script\r\ncd /mnt/server\r\ncurl -o ${SERVER_JARFILE} ${DOWNLOAD_URL}',
      container: 'ghcr.io/pterodactyl/installers:alpine',
      entrypoint: 'ash',
    },
  },
  variables: [
    ['Minecraft Version', 'MINECRAFT_VERSION', 'latest', true, 'nullable|string|max:20'],
    ['Server Jar File', 'SERVER_JARFILE', 'server.jar', true, 'required|regex:/^([\\w\\d._-]+)(\\.jar)$/'],
    ['Download Path', 'DL_PATH', '', false, 'nullable|string'],
    ['Build Number', 'BUILD_NUMBER', 'latest', true, 'required|string|max:20'],
  ].map(([name, env, value, shown, rules]) => ({
    name,
    description: `${name as string}.\r\n\r\nLeave at the default when unsure.`,
    env_variable: env,
    default_value: value,
    user_viewable: shown,
    user_editable: shown,
    rules,
    field_type: 'text',
  })),
});
const PAPER_ENVS = ['MINECRAFT_VERSION', 'SERVER_JARFILE', 'DL_PATH', 'BUILD_NUMBER'];

/** Egg patterns run on RE2 (linear time); this one needs a back reference, which only a backtracking engine has. */
const BACKREF_RULES = 'required|regex:/^(\\w)\\1$/';
const BACKREF_REFUSAL = 'invalid regex "/^(\\w)\\1$/": back references are not supported (egg patterns run on RE2, in linear time)';
/** The Paper document with SERVER_JARFILE's rules replaced by BACKREF_RULES. */
const backrefDoc = (): Json => {
  const doc = paperDoc();
  return { ...doc, variables: doc.variables.map((v: Json) => (v.env_variable === 'SERVER_JARFILE' ? { ...v, rules: BACKREF_RULES } : v)) };
};

/** A PTDL_v1 document: a list of images instead of the label → image map, no field_type. */
const v1Doc = (): Json => ({
  _comment: 'DO NOT EDIT: FILE GENERATED AUTOMATICALLY BY PTERODACTYL PANEL - PTERODACTYL.IO',
  meta: { version: 'PTDL_v1', update_url: null },
  exported_at: '2022-01-18T07:07:27-05:00',
  name: 'Insurgency',
  author: 'support@pterodactyl.io',
  description: 'Source engine shooter.',
  features: ['steam_disk_space'],
  images: ['ghcr.io/pterodactyl/games:source'],
  file_denylist: [],
  startup: './srcds_run -game insurgency -port {{SERVER_PORT}} +map {{SRCDS_MAP}}',
  config: { files: '{}', startup: '{\r\n    "done": "gameserver Steam ID"\r\n}', logs: '{}', stop: 'quit' },
  scripts: { installation: { script: '#!/bin/bash\r\necho steamcmd', container: 'ghcr.io/pterodactyl/installers:debian', entrypoint: 'bash' } },
  variables: [
    { name: 'Game ID', description: 'App id', env_variable: 'SRCDS_APPID', default_value: '237410', user_viewable: true, user_editable: false, rules: 'required|regex:/^(237410)$/' },
    { name: 'Default Map', description: 'Map', env_variable: 'SRCDS_MAP', default_value: 'sinjar', user_viewable: true, user_editable: true, rules: 'required|regex:/^(\\w{1,20})$/' },
  ],
});

/** The stock Paper egg from the team's fixtures (test/utils/fixtures.ts), when present. */
const stockPaper = eggFixtureFiles().includes('egg-paper.json') ? readFileSync(join(EGG_FIXTURES_DIR, 'egg-paper.json'), 'utf8') : undefined;

const denial = (statusCode: number, code: string, message: string) => ({ statusCode, code, message, requestId: expect.any(String) });
const expectError = (res: Response, statusCode: number, code: string, message: string): void => {
  expect([res.status, res.body]).toEqual([statusCode, denial(statusCode, code, message)]);
};
const expectValidation = (res: Response, details: unknown): void => {
  expect([res.status, res.body]).toEqual([
    400,
    { statusCode: 400, code: 'VALIDATION_FAILED', message: 'Validation failed', details, requestId: expect.any(String) },
  ]);
};
const ADMIN_REQUIRED = denial(403, 'ADMIN_REQUIRED', 'This action requires an administrator');
const UNAUTHENTICATED = denial(401, 'UNAUTHENTICATED', 'Authentication required');
const missingScope = (scope: string) => denial(403, 'MISSING_SCOPE', `The API key lacks the ${scope} scope this action requires`);
const EGG_NOT_FOUND = ['EGG_NOT_FOUND', 'Egg not found'] as const;
const SCRIPT_SOURCE_INVALID = 'copyScriptFrom must name another egg of the same nest that has its own install script';

/** The response body of an egg, as GET /api/admin/eggs/{egg} renders the stored rows. */
const eggBody = (egg: EggEntity, nest: NestEntity, variables: EggVariableEntity[] = []): Json => ({
  id: egg.id,
  nestId: egg.nestId,
  nestName: nest.name,
  name: egg.name,
  description: egg.description,
  author: egg.author,
  dockerImage: egg.dockerImage,
  dockerImages: egg.dockerImages,
  startup: egg.startup,
  features: egg.features,
  fileDenylist: egg.fileDenylist,
  configFiles: egg.configFiles,
  configStartup: JSON.parse(egg.configStartup),
  configStop: egg.configStop,
  configLogs: JSON.parse(egg.configLogs),
  scriptContainer: egg.scriptContainer,
  scriptEntry: egg.scriptEntry,
  scriptInstall: egg.scriptInstall,
  copyScriptFrom: egg.copyScriptFrom,
  updateUrl: egg.updateUrl,
  forceOutgoingIp: egg.forceOutgoingIp,
  variables: variables.map(variableBody),
  createdAt: egg.createdAt.toISOString(),
  updatedAt: egg.updatedAt.toISOString(),
});

const variableBody = (v: EggVariableEntity): Json => ({
  id: v.id,
  eggId: v.eggId,
  name: v.name,
  description: v.description,
  envVariable: v.envVariable,
  defaultValue: v.defaultValue,
  userViewable: v.userViewable,
  userEditable: v.userEditable,
  rules: v.rules,
  createdAt: v.createdAt.toISOString(),
  updatedAt: v.updatedAt.toISOString(),
});

/** The audit fields of an egg (EGG_FIELDS of the service), as a before/after snapshot. */
const eggSnapshot = (egg: EggEntity): Json => ({
  nestId: egg.nestId,
  name: egg.name,
  description: egg.description,
  author: egg.author,
  dockerImage: egg.dockerImage,
  dockerImages: egg.dockerImages,
  startup: egg.startup,
  features: egg.features,
  fileDenylist: egg.fileDenylist,
  configFiles: egg.configFiles,
  configStartup: egg.configStartup,
  configStop: egg.configStop,
  configLogs: egg.configLogs,
  scriptContainer: egg.scriptContainer,
  scriptEntry: egg.scriptEntry,
  scriptInstall: egg.scriptInstall,
  copyScriptFrom: egg.copyScriptFrom,
  updateUrl: egg.updateUrl,
  forceOutgoingIp: egg.forceOutgoingIp,
});

const variableSnapshot = (v: EggVariableEntity): Json => ({
  eggId: v.eggId,
  name: v.name,
  description: v.description,
  envVariable: v.envVariable,
  defaultValue: v.defaultValue,
  userViewable: v.userViewable,
  userEditable: v.userEditable,
  rules: v.rules,
});

/** A valid create body; `overrides` replace fields, an `undefined` override removes one. */
const newEggBody = (nestId: string, overrides: Json = {}): Json => {
  const body: Json = {
    nestId,
    name: 'Paper Test',
    description: 'A Paper server',
    dockerImage: 'ghcr.io/pterodactyl/yolks:java_21',
    startup: 'java -Xms128M -jar {{SERVER_JARFILE}}',
    ...overrides,
  };
  return Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined));
};

/**
 * Shared plumbing of the egg suites: one app, one signed-in admin, one nest, and readers of the
 * database state that a failed write must leave untouched.
 */
const eggSuite = (t: () => TestApp) => {
  const ds = () => t().app.get(DataSource);
  const countRows = async (table: 'egg' | 'egg_variable' | 'audit_log' | 'nest'): Promise<number> =>
    (await ds().query<{ n: number }[]>(`SELECT count(*)::int AS n FROM ${table}`))[0].n;
  const state = async () => ({ eggs: await countRows('egg'), variables: await countRows('egg_variable'), audit: await countRows('audit_log') });
  const loadEgg = (id: string) => ds().getRepository(EggEntity).findOneBy({ id });
  const loadVariables = (eggId: string) => ds().getRepository(EggVariableEntity).find({ where: { eggId }, order: { position: 'ASC' } });
  const loadVariable = (id: string) => ds().getRepository(EggVariableEntity).findOneBy({ id });
  return { ds, countRows, state, loadEgg, loadVariables, loadVariable };
};

describe.each(dbKinds(['postgres']))('admin eggs (%s)', (db) => {
  let t: TestApp;
  let admin: UserEntity;
  let cookie: string;
  let nest: NestEntity;
  const { state, loadEgg, loadVariables, loadVariable } = eggSuite(() => t);

  const as = (method: Method, path: string, c = cookie) => t.http()[method](path).set('Cookie', c).set('Origin', TEST_ORIGIN);
  const withKey = (method: Method, path: string, key: string) => t.http()[method](path).set('x-api-key', key);

  /** Creates an API key for the admin and returns it with its public identifier. */
  const createKey = async (permissions?: string[]): Promise<{ key: string; identifier: string; permissions: string[] }> => {
    const res = await as('post', '/api/account/api-keys')
      .send({ name: 'egg tests', ...(permissions ? { permissions } : {}) })
      .expect(201);
    return res.body.data;
  };

  /** Every audit entry about one target, newest first, as the audit endpoint answers them. */
  const auditOf = async (targetType: string, targetId: string): Promise<Json[]> =>
    (await as('get', `${AUDIT}?targetType=${targetType}&targetId=${targetId}`).expect(200)).body.data;

  const auditEntry = (action: string, target: { type: string; id: string }, changes: Json, via = 'session'): Json => ({
    id: expect.stringMatching(/^[1-9]\d*$/),
    actor: { id: admin.id, username: admin.username, via },
    action,
    // The current name of the target, or the one the entry recorded; an egg variable's egg as its parent.
    target: { name: expect.any(String), parentId: ['egg_variable', 'allocation'].includes(target.type) ? expect.any(String) : null, ...target },
    changes,
    ip: expect.stringMatching(LOOPBACK),
    createdAt: t.clock.now().toISOString(),
  });

  beforeAll(async () => {
    t = await createTestApp({ db });
    admin = await createUser(t.app, { admin: true });
    cookie = await signIn(t, admin.email);
    nest = await createNest(t.app, { name: 'Minecraft' });
  });

  afterAll(async () => {
    await t.close();
  });

  describe('create', () => {
    it('should answer 201 with the whole stored egg and leave an egg.created audit entry when an admin creates an egg', async () => {
      const before = await state();
      const res = await as('post', EGGS)
        .send(
          newEggBody(nest.id, {
            dockerImages: { 'Java 21': 'ghcr.io/pterodactyl/yolks:java_21', 'Java 17': 'ghcr.io/pterodactyl/yolks:java_17' },
            features: ['eula', 'java_version'],
            fileDenylist: ['*.jar'],
            configFiles: '{"server.properties": {"parser": "properties", "find": {"server-port": "{{server.build.default.port}}"}}}',
            configStartup: { done: ')! For help, type ' },
            configStop: 'stop',
            configLogs: '{}',
            scriptContainer: 'ghcr.io/pterodactyl/installers:alpine',
            scriptEntry: 'ash',
            scriptInstall: '#!/bin/ash\necho install',
            updateUrl: 'https://eggs.example.test/paper.json',
          }),
        )
        .expect(201);
      expect(res.body).toEqual({
        data: {
          id: expect.stringMatching(UUID),
          nestId: nest.id,
          nestName: 'Minecraft',
          name: 'Paper Test',
          description: 'A Paper server',
          author: admin.email,
          dockerImage: 'ghcr.io/pterodactyl/yolks:java_21',
          dockerImages: [
            { name: 'Java 21', image: 'ghcr.io/pterodactyl/yolks:java_21' },
            { name: 'Java 17', image: 'ghcr.io/pterodactyl/yolks:java_17' },
          ],
          startup: 'java -Xms128M -jar {{SERVER_JARFILE}}',
          features: ['eula', 'java_version'],
          fileDenylist: ['*.jar'],
          configFiles: '{"server.properties": {"parser": "properties", "find": {"server-port": "{{server.build.default.port}}"}}}',
          configStartup: { done: ')! For help, type ' },
          configStop: 'stop',
          configLogs: {},
          scriptContainer: 'ghcr.io/pterodactyl/installers:alpine',
          scriptEntry: 'ash',
          scriptInstall: '#!/bin/ash\necho install',
          copyScriptFrom: null,
          updateUrl: 'https://eggs.example.test/paper.json',
          forceOutgoingIp: false,
          variables: [],
          createdAt: expect.stringMatching(ISO),
          updatedAt: expect.stringMatching(ISO),
        },
      });
      const stored = (await loadEgg(res.body.data.id))!;
      expect(res.body.data).toEqual(eggBody(stored, nest));
      expect(await state()).toEqual({ ...before, eggs: before.eggs + 1, audit: before.audit + 1 });
      expect(await auditOf('egg', stored.id)).toEqual([auditEntry('egg.created', { type: 'egg', id: stored.id }, { after: eggSnapshot(stored) })]);
    });

    it('should apply the defaults and add the default image as the only image when only the required fields are given', async () => {
      const res = await as('post', EGGS).send(newEggBody(nest.id, { description: undefined })).expect(201);
      expect(res.body.data).toMatchObject({
        description: null,
        author: admin.email,
        dockerImages: [{ name: 'ghcr.io/pterodactyl/yolks:java_21', image: 'ghcr.io/pterodactyl/yolks:java_21' }],
        features: null,
        fileDenylist: [],
        configFiles: '{}',
        configStartup: {},
        configStop: null,
        configLogs: {},
        scriptContainer: 'alpine:3.4',
        scriptEntry: 'ash',
        scriptInstall: null,
        copyScriptFrom: null,
        updateUrl: null,
        forceOutgoingIp: false,
      });
      const stored = (await loadEgg(res.body.data.id))!;
      const [entry] = await auditOf('egg', stored.id);
      expect(entry.changes).toEqual({ after: eggSnapshot(stored) });
    });

    it.each([
      ['a name → image map', { 'Java 17': 'img:17', 'Java 21': 'img:21' }, [{ name: 'Java 17', image: 'img:17' }, { name: 'Java 21', image: 'img:21' }]],
      ['a list of images', ['img:17', 'img:21'], [{ name: 'img:17', image: 'img:17' }, { name: 'img:21', image: 'img:21' }]],
      [
        'a list of {name, image}',
        [{ name: 'Java 21', image: 'img:21' }, { name: 'Java 17', image: 'img:17' }],
        [{ name: 'Java 21', image: 'img:21' }, { name: 'Java 17', image: 'img:17' }],
      ],
    ])('should store dockerImages as an ordered [{name, image}] list when they are sent as %s', async (_label, dockerImages, expected) => {
      const res = await as('post', EGGS).send(newEggBody(nest.id, { dockerImage: 'img:21', dockerImages })).expect(201);
      expect(res.body.data.dockerImages).toEqual(expected);
      expect((await loadEgg(res.body.data.id))!.dockerImages).toEqual(expected);
    });

    it('should put the default image first when dockerImages does not contain it', async () => {
      const res = await as('post', EGGS).send(newEggBody(nest.id, { dockerImage: 'img:default', dockerImages: { Other: 'img:other' } })).expect(201);
      expect(res.body.data.dockerImages).toEqual([
        { name: 'img:default', image: 'img:default' },
        { name: 'Other', image: 'img:other' },
      ]);
    });

    it('should accept a name of exactly 255 characters when created', async () => {
      const res = await as('post', EGGS).send(newEggBody(nest.id, { name: 'n'.repeat(255) })).expect(201);
      expect(res.body.data.name).toBe('n'.repeat(255));
    });

    it.each([
      ['an empty name', { name: '' }, [{ field: 'name', message: 'name must be longer than or equal to 1 characters' }]],
      ['a name of 256 characters', { name: 'n'.repeat(256) }, [{ field: 'name', message: 'name must be shorter than or equal to 255 characters' }]],
      ['no name', { name: undefined }, [{ field: 'name', message: 'name must be a string' }]],
      ['an empty dockerImage', { dockerImage: '' }, [{ field: 'dockerImage', message: 'dockerImage must be longer than or equal to 1 characters' }]],
      ['an empty startup', { startup: '' }, [{ field: 'startup', message: 'startup must be longer than or equal to 1 characters' }]],
      ['no startup', { startup: undefined }, [{ field: 'startup', message: 'startup must be a string' }]],
      ['a nestId that is not a UUID', { nestId: 'abc' }, [{ field: 'nestId', message: 'nestId must be a UUID' }]],
      [
        'dockerImages with a name twice',
        { dockerImages: [{ name: 'Java', image: 'a' }, { name: 'Java', image: 'b' }] },
        [{ field: 'dockerImages', message: 'dockerImages has the name "Java" twice' }],
      ],
      ['dockerImages with an image twice', { dockerImages: ['a', 'a'] }, [{ field: 'dockerImages', message: 'dockerImages has the name "a" twice' }]],
      [
        'dockerImages as a number',
        { dockerImages: 5 },
        [{ field: 'dockerImages', message: 'dockerImages must be a list of image names or of {name, image}, or a map of name to image' }],
      ],
      [
        'dockerImages mapping a name to an empty image',
        { dockerImages: { Java: '' } },
        [{ field: 'dockerImages', message: 'dockerImages must map each name to a non-empty image' }],
      ],
      ['configFiles that is not JSON', { configFiles: '{"a": ' }, [{ field: 'configFiles', message: 'configFiles must be valid JSON describing an object' }]],
      ['configFiles that is a JSON list', { configFiles: '[1]' }, [{ field: 'configFiles', message: 'configFiles must be valid JSON describing an object' }]],
      ['configStartup that is not JSON', { configStartup: 'done' }, [{ field: 'configStartup', message: 'configStartup must be valid JSON' }]],
      ['features as a string', { features: 'eula' }, [{ field: 'features', message: 'features must be an array' }]],
      ['features holding a number', { features: ['eula', 1] }, [{ field: 'features', message: 'each value in features must be a string' }]],
      ['fileDenylist as an object', { fileDenylist: { a: 1 } }, [{ field: 'fileDenylist', message: 'fileDenylist must be an array' }]],
      ['fileDenylist holding null', { fileDenylist: [null] }, [{ field: 'fileDenylist', message: 'each value in fileDenylist must be a string' }]],
      ['an updateUrl that is not http(s)', { updateUrl: 'ftp://example.test/egg.json' }, [{ field: 'updateUrl', message: 'updateUrl must be a URL address' }]],
      ['an unknown field', { nest_id: 'x' }, [{ field: 'nest_id', message: 'property nest_id should not exist' }]],
      ['a server-assigned id', { id: MISSING_UUID }, [{ field: 'id', message: 'property id should not exist' }]],
    ])('should answer 400 VALIDATION_FAILED and add no egg nor audit entry when the body has %s', async (_label, override, details) => {
      const before = await state();
      expectValidation(await as('post', EGGS).send(newEggBody(nest.id, override)), details);
      expect(await state()).toEqual(before);
    });

    it('should answer 404 NEST_NOT_FOUND and add nothing when the nest does not exist', async () => {
      const before = await state();
      expectError(await as('post', EGGS).send(newEggBody(MISSING_UUID)), 404, 'NEST_NOT_FOUND', 'Nest not found');
      expect(await state()).toEqual(before);
    });
  });

  describe('read', () => {
    it('should answer the full egg with its variables in order, images as a list and config as parsed JSON when one egg is read', async () => {
      const egg = await createEgg(t.app, nest.id, {
        dockerImages: [
          { name: 'Java 21', image: 'ghcr.io/pterodactyl/yolks:java_21' },
          { name: 'Java 8', image: 'ghcr.io/pterodactyl/yolks:java_8' },
        ],
        configFiles: '{\r\n    "server.properties": {"parser": "properties"}\r\n}',
        configStartup: '{"done": ")! For help"}',
        configLogs: '{"custom": false}',
      });
      const second = await createEggVariable(t.app, egg.id, { position: 1, envVariable: 'BUILD_NUMBER' });
      const first = await createEggVariable(t.app, egg.id, { position: 0, envVariable: 'SERVER_JARFILE' });
      const res = await as('get', `${EGGS}/${egg.id}`).expect(200);
      expect(res.body).toEqual({ data: eggBody(egg, nest, [first, second]) });
      expect(res.body.data.configFiles).toBe('{\r\n    "server.properties": {"parser": "properties"}\r\n}');
      expect(res.body.data.configStartup).toEqual({ done: ')! For help' });
      expect(res.body.data.configLogs).toEqual({ custom: false });
    });

    it('should list {id, name, nestName} with pagination, filtered by nest when nestId is given', async () => {
      const other = await createNest(t.app, { name: 'Source Engine' });
      const b = await createEgg(t.app, other.id, { name: 'B Garrys Mod' });
      const a = await createEgg(t.app, other.id, { name: 'A Insurgency' });
      const res = await as('get', `${EGGS}?nestId=${other.id}`).expect(200);
      expect(res.body).toEqual({
        data: [
          { id: a.id, name: 'A Insurgency', nestName: 'Source Engine' },
          { id: b.id, name: 'B Garrys Mod', nestName: 'Source Engine' },
        ],
        meta: { pagination: { total: 2, count: 2, perPage: 50, currentPage: 1, totalPages: 1 } },
      });
      const page2 = await as('get', `${EGGS}?nestId=${other.id}&perPage=1&page=2`).expect(200);
      expect(page2.body).toEqual({
        data: [{ id: b.id, name: 'B Garrys Mod', nestName: 'Source Engine' }],
        meta: { pagination: { total: 2, count: 1, perPage: 1, currentPage: 2, totalPages: 2 } },
      });
      const all = await as('get', EGGS).expect(200);
      expect(all.body.meta.pagination.total).toBe(await t.app.get(DataSource).getRepository(EggEntity).count());
      for (const item of all.body.data as Json[]) {
        expect(Object.keys(item).sort()).toEqual(['id', 'name', 'nestName']);
      }
    });

    it.each([MISSING_UUID, 'not-a-uuid', '1'])('should answer 404 EGG_NOT_FOUND on get, patch, delete and export when the egg is %s', async (id) => {
      for (const [method, path] of [
        ['get', `${EGGS}/${id}`],
        ['patch', `${EGGS}/${id}`],
        ['delete', `${EGGS}/${id}`],
        ['get', `${EGGS}/${id}/export`],
        ['get', `${EGGS}/${id}/variables`],
      ] as [Method, string][]) {
        const res = await as(method, path).send(method === 'patch' ? { name: 'x' } : undefined);
        expect([method, path, res.status]).toEqual([method, path, 404]);
        expectError(res, 404, ...EGG_NOT_FOUND);
      }
    });
  });

  describe('update', () => {
    it('should change only the sent fields and leave an egg.updated entry with just the changed fields when patched', async () => {
      const egg = await createEgg(t.app, nest.id);
      const before = await state();
      const res = await as('patch', `${EGGS}/${egg.id}`).send({ name: 'Renamed', description: egg.description, startup: 'java -jar new.jar' }).expect(200);
      const stored = (await loadEgg(egg.id))!;
      expect(res.body).toEqual({ data: eggBody(stored, nest) });
      expect(stored).toMatchObject({ ...eggSnapshot(egg), name: 'Renamed', startup: 'java -jar new.jar' });
      expect(await state()).toEqual({ ...before, audit: before.audit + 1 });
      expect(await auditOf('egg', egg.id)).toEqual([
        auditEntry(
          'egg.updated',
          { type: 'egg', id: egg.id },
          { before: { name: egg.name, startup: egg.startup }, after: { name: 'Renamed', startup: 'java -jar new.jar' } },
        ),
      ]);
    });

    it('should add the new default image to the images and record both fields when dockerImage changes', async () => {
      const egg = await createEgg(t.app, nest.id);
      const res = await as('patch', `${EGGS}/${egg.id}`).send({ dockerImage: 'ghcr.io/pterodactyl/yolks:java_8' }).expect(200);
      const images = [{ name: 'ghcr.io/pterodactyl/yolks:java_8', image: 'ghcr.io/pterodactyl/yolks:java_8' }, ...egg.dockerImages];
      expect(res.body.data).toMatchObject({ dockerImage: 'ghcr.io/pterodactyl/yolks:java_8', dockerImages: images });
      const [entry] = await auditOf('egg', egg.id);
      expect(entry.changes).toEqual({
        before: { dockerImage: egg.dockerImage, dockerImages: egg.dockerImages },
        after: { dockerImage: 'ghcr.io/pterodactyl/yolks:java_8', dockerImages: images },
      });
    });

    it('should move the egg and record nestId when patched to another nest', async () => {
      const egg = await createEgg(t.app, nest.id);
      const other = await createNest(t.app);
      const res = await as('patch', `${EGGS}/${egg.id}`).send({ nestId: other.id }).expect(200);
      expect(res.body.data).toMatchObject({ nestId: other.id, nestName: other.name });
      expect((await auditOf('egg', egg.id))[0].changes).toEqual({ before: { nestId: nest.id }, after: { nestId: other.id } });
    });

    it('should answer 200 and leave no audit entry when a patch changes nothing', async () => {
      const egg = await createEgg(t.app, nest.id);
      const before = await state();
      const res = await as('patch', `${EGGS}/${egg.id}`).send({ name: egg.name, features: egg.features }).expect(200);
      expect(res.body).toEqual({ data: eggBody((await loadEgg(egg.id))!, nest) });
      expect(await state()).toEqual(before);
      expect(await auditOf('egg', egg.id)).toEqual([]);
    });

    it.each([
      ['an empty name', { name: '' }, [{ field: 'name', message: 'name must be longer than or equal to 1 characters' }]],
      ['a name of 256 characters', { name: 'n'.repeat(256) }, [{ field: 'name', message: 'name must be shorter than or equal to 255 characters' }]],
      ['a null name', { name: null }, [{ field: 'name', message: 'name must be a string' }]],
      ['an empty dockerImage', { dockerImage: '' }, [{ field: 'dockerImage', message: 'dockerImage must be longer than or equal to 1 characters' }]],
      ['a null startup', { startup: null }, [{ field: 'startup', message: 'startup must be a string' }]],
      ['configFiles that is not JSON', { configFiles: 'nope' }, [{ field: 'configFiles', message: 'configFiles must be valid JSON describing an object' }]],
      ['features holding an object', { features: [{}] }, [{ field: 'features', message: 'each value in features must be a string' }]],
      ['an unknown field', { name: 'x', createdAt: '2020-01-01T00:00:00Z' }, [{ field: 'createdAt', message: 'property createdAt should not exist' }]],
    ])('should answer 400 VALIDATION_FAILED and change nothing when a patch has %s', async (_label, body, details) => {
      const egg = await createEgg(t.app, nest.id);
      const before = await state();
      expectValidation(await as('patch', `${EGGS}/${egg.id}`).send(body), details);
      expect(eggSnapshot((await loadEgg(egg.id))!)).toEqual(eggSnapshot(egg));
      expect(await state()).toEqual(before);
    });

    it('should answer 400 and change nothing when a patch sends dockerImages with a duplicate name', async () => {
      const egg = await createEgg(t.app, nest.id);
      const before = await state();
      const res = await as('patch', `${EGGS}/${egg.id}`).send({ dockerImages: [{ name: 'X', image: 'a' }, { name: 'X', image: 'b' }] });
      expectValidation(res, [{ field: 'dockerImages', message: 'dockerImages has the name "X" twice' }]);
      expect(eggSnapshot((await loadEgg(egg.id))!)).toEqual(eggSnapshot(egg));
      expect(await state()).toEqual(before);
    });

    it('should answer 404 NEST_NOT_FOUND and keep the egg when patched to a nest that does not exist', async () => {
      const egg = await createEgg(t.app, nest.id);
      const before = await state();
      expectError(await as('patch', `${EGGS}/${egg.id}`).send({ nestId: MISSING_UUID }), 404, 'NEST_NOT_FOUND', 'Nest not found');
      expect((await loadEgg(egg.id))!.nestId).toBe(nest.id);
      expect(await state()).toEqual(before);
    });
  });

  describe('delete', () => {
    it('should answer 204, remove the egg with its variables and leave an egg.deleted entry when an egg is deleted', async () => {
      const egg = await createEgg(t.app, nest.id);
      await createEggVariable(t.app, egg.id);
      const before = await state();
      const res = await as('delete', `${EGGS}/${egg.id}`).expect(204);
      expect(res.text).toBe('');
      expect(await loadEgg(egg.id)).toBeNull();
      expect(await loadVariables(egg.id)).toEqual([]);
      expect(await state()).toEqual({ eggs: before.eggs - 1, variables: before.variables - 1, audit: before.audit + 1 });
      expect(await auditOf('egg', egg.id)).toEqual([auditEntry('egg.deleted', { type: 'egg', id: egg.id }, { before: eggSnapshot(egg) })]);
      expectError(await as('get', `${EGGS}/${egg.id}`), 404, ...EGG_NOT_FOUND);
      expectError(await as('delete', `${EGGS}/${egg.id}`), 404, ...EGG_NOT_FOUND);
    });

    it('should answer 409 EGG_IN_USE and keep the egg and add no audit entry when a server uses the egg', async () => {
      const egg = await createEgg(t.app, nest.id);
      const owner = await createUser(t.app);
      await createServerUsing(t.app, egg.id, owner.id);
      const before = await state();
      expectError(await as('delete', `${EGGS}/${egg.id}`), 409, 'EGG_IN_USE', 'The egg is used by servers and cannot be deleted');
      expect(await loadEgg(egg.id)).not.toBeNull();
      expect(await state()).toEqual(before);
      expect(await auditOf('egg', egg.id)).toEqual([]);
    });

    it('should answer 409 EGG_HAS_DEPENDENTS and keep the egg when another egg copies its script from it', async () => {
      const source = await createEgg(t.app, nest.id);
      await createEgg(t.app, nest.id, { copyScriptFrom: source.id, scriptInstall: null });
      const before = await state();
      expectError(
        await as('delete', `${EGGS}/${source.id}`),
        409,
        'EGG_HAS_DEPENDENTS',
        'Other eggs copy their install script from this egg; change them first',
      );
      expect(await loadEgg(source.id)).not.toBeNull();
      expect(await state()).toEqual(before);
    });

    it('should answer 409 EGG_IN_USE, not EGG_HAS_DEPENDENTS, when servers use the egg and other eggs copy its script', async () => {
      const source = await createEgg(t.app, nest.id);
      await createEgg(t.app, nest.id, { copyScriptFrom: source.id, scriptInstall: null });
      await createServerUsing(t.app, source.id, (await createUser(t.app)).id);
      expectError(await as('delete', `${EGGS}/${source.id}`), 409, 'EGG_IN_USE', 'The egg is used by servers and cannot be deleted');
      expect(await loadEgg(source.id)).not.toBeNull();
    });

    it('should delete an egg that copies its script from another, leaving the source, when the copying egg is deleted', async () => {
      const source = await createEgg(t.app, nest.id);
      const copy = await createEgg(t.app, nest.id, { copyScriptFrom: source.id });
      await as('delete', `${EGGS}/${copy.id}`).expect(204);
      expect(await loadEgg(source.id)).not.toBeNull();
      // With its dependent gone, the source can go too.
      await as('delete', `${EGGS}/${source.id}`).expect(204);
    });
  });

  describe('copyScriptFrom', () => {
    it("should export the source egg's install script, container and entrypoint when an egg copies its script from another of its nest", async () => {
      const source = await createEgg(t.app, nest.id, {
        scriptInstall: '#!/bin/bash\necho from the source',
        scriptContainer: 'ghcr.io/pterodactyl/installers:debian',
        scriptEntry: 'bash',
      });
      const res = await as('post', EGGS).send(newEggBody(nest.id, { name: 'Copier', copyScriptFrom: source.id, scriptInstall: 'ignored' })).expect(201);
      expect(res.body.data.copyScriptFrom).toBe(source.id);
      const exported = await as('get', `${EGGS}/${res.body.data.id}/export`).expect(200);
      expect(JSON.parse(exported.text).scripts).toEqual({
        installation: { script: '#!/bin/bash\necho from the source', container: 'ghcr.io/pterodactyl/installers:debian', entrypoint: 'bash' },
      });
      // A later change of the source shows in the next export of the copy.
      await as('patch', `${EGGS}/${source.id}`).send({ scriptInstall: 'echo changed' }).expect(200);
      const again = await as('get', `${EGGS}/${res.body.data.id}/export`).expect(200);
      expect(JSON.parse(again.text).scripts.installation.script).toBe('echo changed');
    });

    it('should set and clear copyScriptFrom and record it in the audit log when patched', async () => {
      const source = await createEgg(t.app, nest.id);
      const egg = await createEgg(t.app, nest.id);
      await as('patch', `${EGGS}/${egg.id}`).send({ copyScriptFrom: source.id }).expect(200);
      const cleared = await as('patch', `${EGGS}/${egg.id}`).send({ copyScriptFrom: null }).expect(200);
      expect(cleared.body.data.copyScriptFrom).toBeNull();
      expect((await auditOf('egg', egg.id)).map((e) => e.changes)).toEqual([
        { before: { copyScriptFrom: source.id }, after: { copyScriptFrom: null } },
        { before: { copyScriptFrom: null }, after: { copyScriptFrom: source.id } },
      ]);
    });

    it('should answer 400 EGG_SCRIPT_SOURCE_INVALID and add nothing when creating an egg that copies from another nest, a missing egg or a copying egg', async () => {
      const foreign = await createEgg(t.app, (await createNest(t.app)).id);
      const source = await createEgg(t.app, nest.id);
      const copier = await createEgg(t.app, nest.id, { copyScriptFrom: source.id });
      for (const from of [foreign.id, MISSING_UUID, copier.id]) {
        const before = await state();
        const res = await as('post', EGGS).send(newEggBody(nest.id, { copyScriptFrom: from }));
        expectError(res, 400, 'EGG_SCRIPT_SOURCE_INVALID', SCRIPT_SOURCE_INVALID);
        expect(await state()).toEqual(before);
      }
    });

    it('should answer 400 EGG_SCRIPT_SOURCE_INVALID and change nothing when an egg is patched to copy from itself, another nest or a copying egg', async () => {
      const egg = await createEgg(t.app, nest.id);
      const foreign = await createEgg(t.app, (await createNest(t.app)).id);
      const source = await createEgg(t.app, nest.id);
      const copier = await createEgg(t.app, nest.id, { copyScriptFrom: source.id });
      for (const from of [egg.id, foreign.id, copier.id]) {
        const before = await state();
        expectError(await as('patch', `${EGGS}/${egg.id}`).send({ copyScriptFrom: from }), 400, 'EGG_SCRIPT_SOURCE_INVALID', SCRIPT_SOURCE_INVALID);
        expect((await loadEgg(egg.id))!.copyScriptFrom).toBeNull();
        expect(await state()).toEqual(before);
      }
    });

    it('should answer 400 EGG_SCRIPT_SOURCE_INVALID when an egg that others copy from is patched to copy from another egg', async () => {
      const source = await createEgg(t.app, nest.id);
      await createEgg(t.app, nest.id, { copyScriptFrom: source.id });
      const other = await createEgg(t.app, nest.id);
      const before = await state();
      const res = await as('patch', `${EGGS}/${source.id}`).send({ copyScriptFrom: other.id });
      expectError(
        res,
        400,
        'EGG_SCRIPT_SOURCE_INVALID',
        'This egg is itself a script source for other eggs, so it cannot copy its script from another egg',
      );
      expect((await loadEgg(source.id))!.copyScriptFrom).toBeNull();
      expect(await state()).toEqual(before);
    });

    it('should answer 400 EGG_SCRIPT_SOURCE_INVALID and keep the nest when an egg that copies is moved to another nest', async () => {
      const source = await createEgg(t.app, nest.id);
      const copier = await createEgg(t.app, nest.id, { copyScriptFrom: source.id });
      const other = await createNest(t.app);
      expectError(await as('patch', `${EGGS}/${copier.id}`).send({ nestId: other.id }), 400, 'EGG_SCRIPT_SOURCE_INVALID', SCRIPT_SOURCE_INVALID);
      expect((await loadEgg(copier.id))!.nestId).toBe(nest.id);
    });

    it('should answer 409 EGG_HAS_DEPENDENTS and keep the nest when an egg that others copy from is moved to another nest', async () => {
      const source = await createEgg(t.app, nest.id);
      const copier = await createEgg(t.app, nest.id, { copyScriptFrom: source.id });
      const other = await createNest(t.app);
      const before = await state();
      const res = await as('patch', `${EGGS}/${source.id}`).send({ nestId: other.id, name: 'Not Applied' });
      expectError(res, 409, 'EGG_HAS_DEPENDENTS', 'Other eggs copy their install script from this egg; change them first');
      expect((await loadEgg(source.id))!.name).toBe(source.name);
      expect((await loadEgg(source.id))!.nestId).toBe(nest.id);
      expect((await loadEgg(copier.id))!.copyScriptFrom).toBe(source.id);
      expect(await state()).toEqual(before);
    });
  });

  describe('variables', () => {
    const VARS = (eggId: string) => `${EGGS}/${eggId}/variables`;
    const newVariable = (overrides: Json = {}): Json => ({
      name: 'Server Jar File',
      description: 'The name of the server jarfile to run the server with.',
      envVariable: 'SERVER_JARFILE',
      defaultValue: 'server.jar',
      userViewable: true,
      userEditable: true,
      rules: 'required|regex:/^([\\w\\d._-]+)(\\.jar)$/',
      ...overrides,
    });

    it('should answer 201 with the variable and leave an egg.variable.created entry when a variable is added', async () => {
      const egg = await createEgg(t.app, nest.id);
      const before = await state();
      const res = await as('post', VARS(egg.id)).send(newVariable()).expect(201);
      expect(res.body).toEqual({
        data: {
          id: expect.stringMatching(UUID),
          eggId: egg.id,
          name: 'Server Jar File',
          description: 'The name of the server jarfile to run the server with.',
          envVariable: 'SERVER_JARFILE',
          defaultValue: 'server.jar',
          userViewable: true,
          userEditable: true,
          rules: 'required|regex:/^([\\w\\d._-]+)(\\.jar)$/',
          createdAt: expect.stringMatching(ISO),
          updatedAt: expect.stringMatching(ISO),
        },
      });
      const stored = (await loadVariable(res.body.data.id))!;
      expect(res.body.data).toEqual(variableBody(stored));
      expect(await state()).toEqual({ ...before, variables: before.variables + 1, audit: before.audit + 1 });
      expect(await auditOf('egg_variable', stored.id)).toEqual([
        auditEntry('egg.variable.created', { type: 'egg_variable', id: stored.id }, { after: variableSnapshot(stored) }),
      ]);
    });

    it('should default the optional fields and list variables in the order they were added', async () => {
      const egg = await createEgg(t.app, nest.id);
      const a = await as('post', VARS(egg.id)).send({ name: 'A', envVariable: 'A_VAR' }).expect(201);
      const b = await as('post', VARS(egg.id)).send({ name: 'B', envVariable: 'b_var', rules: 'nullable|string' }).expect(201);
      expect(a.body.data).toMatchObject({ description: '', defaultValue: '', userViewable: false, userEditable: false, rules: '' });
      const list = await as('get', VARS(egg.id)).expect(200);
      expect(list.body).toEqual({ data: [a.body.data, b.body.data] });
      expect((await as('get', `${EGGS}/${egg.id}`).expect(200)).body.data.variables).toEqual([a.body.data, b.body.data]);
    });

    it('should answer 409 EGG_VARIABLE_ENV_TAKEN and add nothing when the egg already has the envVariable', async () => {
      const egg = await createEgg(t.app, nest.id);
      await createEggVariable(t.app, egg.id, { envVariable: 'SERVER_JARFILE' });
      const before = await state();
      const res = await as('post', VARS(egg.id)).send(newVariable());
      expectError(res, 409, 'EGG_VARIABLE_ENV_TAKEN', 'The egg already has a variable with this environment name');
      expect(await state()).toEqual(before);
    });

    it('should allow the same envVariable on two different eggs', async () => {
      const [a, b] = [await createEgg(t.app, nest.id), await createEgg(t.app, nest.id)];
      await as('post', VARS(a.id)).send(newVariable()).expect(201);
      await as('post', VARS(b.id)).send(newVariable()).expect(201);
    });

    const NAME_RULE =
      'envVariable must be an environment variable name: letters, digits and _, not starting with a digit, at most 191 characters';
    it.each([
      ['TZ', 'envVariable TZ is reserved: Wings sets it for every server'],
      ['STARTUP', 'envVariable STARTUP is reserved: Wings sets it for every server'],
      ['SERVER_MEMORY', 'envVariable SERVER_MEMORY is reserved: Wings sets it for every server'],
      ['SERVER_IP', 'envVariable SERVER_IP is reserved: Wings sets it for every server'],
      ['SERVER_PORT', 'envVariable SERVER_PORT is reserved: Wings sets it for every server'],
      ['P_SERVER_ANYTHING', 'envVariable P_SERVER_ANYTHING is reserved: Wings sets it for every server'],
      ['server_memory', 'envVariable server_memory is reserved: Wings sets it for every server'],
      ['1ABC', NAME_RULE],
      ['A-B', NAME_RULE],
      ['', NAME_RULE],
      ['A B', NAME_RULE],
      ['A'.repeat(192), NAME_RULE],
    ])('should answer 400 VALIDATION_FAILED and add nothing when envVariable is %s', async (envVariable, message) => {
      const egg = await createEgg(t.app, nest.id);
      const before = await state();
      expectValidation(await as('post', VARS(egg.id)).send(newVariable({ envVariable })), [{ field: 'envVariable', message }]);
      expect(await state()).toEqual(before);
    });

    it.each([
      ['an unknown rule', { rules: 'required|frobnicate' }, 'frobnicate'],
      ['a between rule without bounds', { rules: 'required|between' }, 'between'],
      ['rules as a number', { rules: 5 }, 'rules must be a string'],
      ['a non-boolean userViewable', { userViewable: 'yes' }, 'userViewable must be a boolean value'],
      ['an unknown field', { field_type: 'text' }, 'property field_type should not exist'],
    ])('should answer 400 VALIDATION_FAILED naming the problem and add nothing when the variable has %s', async (_label, override, mention) => {
      const egg = await createEgg(t.app, nest.id);
      const before = await state();
      const res = await as('post', VARS(egg.id)).send(newVariable(override));
      expectValidation(res, [{ field: expect.any(String), message: expect.stringContaining(mention) }]);
      expect(await state()).toEqual(before);
    });

    it('should answer 400 VALIDATION_FAILED naming the reason and add nothing when a variable pattern needs backtracking', async () => {
      const egg = await createEgg(t.app, nest.id);
      const before = await state();
      expectValidation(await as('post', VARS(egg.id)).send(newVariable({ rules: BACKREF_RULES })), [{ field: 'rules', message: `rules: ${BACKREF_REFUSAL}` }]);
      expect(await state()).toEqual(before);
    });

    it('should answer 400 VALIDATION_FAILED and change nothing when a variable is patched to a pattern that needs backtracking', async () => {
      const egg = await createEgg(t.app, nest.id);
      const variable = await createEggVariable(t.app, egg.id);
      const before = await state();
      expectValidation(await as('patch', `${VARS(egg.id)}/${variable.id}`).send({ rules: BACKREF_RULES }), [{ field: 'rules', message: `rules: ${BACKREF_REFUSAL}` }]);
      expect(variableSnapshot((await loadVariable(variable.id))!)).toEqual(variableSnapshot(variable));
      expect(await state()).toEqual(before);
    });

    it('should change only the sent fields and record only those, with the eggId, when a variable is patched', async () => {
      const egg = await createEgg(t.app, nest.id);
      const variable = await createEggVariable(t.app, egg.id, { envVariable: 'MC_VERSION', defaultValue: 'latest' });
      const before = await state();
      const res = await as('patch', `${VARS(egg.id)}/${variable.id}`)
        .send({ defaultValue: '1.21', rules: 'required|string|max:20', userEditable: false })
        .expect(200);
      const stored = (await loadVariable(variable.id))!;
      expect(res.body).toEqual({ data: variableBody(stored) });
      expect(stored).toMatchObject({ ...variableSnapshot(variable), defaultValue: '1.21', userEditable: false });
      expect(await state()).toEqual({ ...before, audit: before.audit + 1 });
      expect(await auditOf('egg_variable', variable.id)).toEqual([
        auditEntry(
          'egg.variable.updated',
          { type: 'egg_variable', id: variable.id },
          { before: { eggId: egg.id, defaultValue: 'latest', userEditable: true }, after: { eggId: egg.id, defaultValue: '1.21', userEditable: false } },
        ),
      ]);
    });

    it('should keep its own envVariable and answer 409 EGG_VARIABLE_ENV_TAKEN for a sibling one when a variable is patched', async () => {
      const egg = await createEgg(t.app, nest.id);
      const a = await createEggVariable(t.app, egg.id, { envVariable: 'A_VAR', position: 0 });
      await createEggVariable(t.app, egg.id, { envVariable: 'B_VAR', position: 1 });
      await as('patch', `${VARS(egg.id)}/${a.id}`).send({ envVariable: 'A_VAR' }).expect(200);
      const before = await state();
      const res = await as('patch', `${VARS(egg.id)}/${a.id}`).send({ envVariable: 'B_VAR', name: 'Not Applied' });
      expectError(res, 409, 'EGG_VARIABLE_ENV_TAKEN', 'The egg already has a variable with this environment name');
      expect(variableSnapshot((await loadVariable(a.id))!)).toEqual(variableSnapshot(a));
      expect(await state()).toEqual(before);
    });

    it.each([
      ['a reserved envVariable', { envVariable: 'SERVER_PORT' }, 'envVariable'],
      ['an unknown rule', { rules: 'required|frobnicate' }, 'rules'],
      ['a null name', { name: null }, 'name'],
      ['an unknown field', { eggId: MISSING_UUID }, 'eggId'],
    ])('should answer 400 VALIDATION_FAILED and change nothing when a variable patch has %s', async (_label, body, field) => {
      const egg = await createEgg(t.app, nest.id);
      const variable = await createEggVariable(t.app, egg.id);
      const before = await state();
      expectValidation(await as('patch', `${VARS(egg.id)}/${variable.id}`).send(body), [{ field, message: expect.any(String) }]);
      expect(variableSnapshot((await loadVariable(variable.id))!)).toEqual(variableSnapshot(variable));
      expect(await state()).toEqual(before);
    });

    it('should answer 204 and leave an egg.variable.deleted entry when a variable is deleted', async () => {
      const egg = await createEgg(t.app, nest.id);
      const variable = await createEggVariable(t.app, egg.id);
      const before = await state();
      const res = await as('delete', `${VARS(egg.id)}/${variable.id}`).expect(204);
      expect(res.text).toBe('');
      expect(await loadVariable(variable.id)).toBeNull();
      expect(await state()).toEqual({ ...before, variables: before.variables - 1, audit: before.audit + 1 });
      expect(await auditOf('egg_variable', variable.id)).toEqual([
        auditEntry('egg.variable.deleted', { type: 'egg_variable', id: variable.id }, { before: variableSnapshot(variable) }),
      ]);
      expectError(await as('delete', `${VARS(egg.id)}/${variable.id}`), 404, 'EGG_VARIABLE_NOT_FOUND', 'Egg variable not found');
    });

    it("should answer 404 EGG_VARIABLE_NOT_FOUND and change nothing when the variable belongs to another egg", async () => {
      const [egg, other] = [await createEgg(t.app, nest.id), await createEgg(t.app, nest.id)];
      const variable = await createEggVariable(t.app, other.id);
      const before = await state();
      for (const [method, body] of [['patch', { name: 'x' }], ['delete', undefined]] as [Method, Json | undefined][]) {
        expectError(await as(method, `${VARS(egg.id)}/${variable.id}`).send(body), 404, 'EGG_VARIABLE_NOT_FOUND', 'Egg variable not found');
      }
      expectError(await as('patch', `${VARS(egg.id)}/not-a-uuid`).send({ name: 'x' }), 404, 'EGG_VARIABLE_NOT_FOUND', 'Egg variable not found');
      expect(variableSnapshot((await loadVariable(variable.id))!)).toEqual(variableSnapshot(variable));
      expect(await state()).toEqual(before);
    });

    it('should answer 404 EGG_NOT_FOUND and add nothing when a variable is added to a missing egg', async () => {
      const before = await state();
      expectError(await as('post', VARS(MISSING_UUID)).send(newVariable()), 404, ...EGG_NOT_FOUND);
      expect(await state()).toEqual(before);
    });
  });

  describe('export', () => {
    it('should answer the PTDL_v2 document as a JSON attachment when an egg is exported', async () => {
      const egg = await createEgg(t.app, nest.id, {
        name: 'Paper Export!',
        updateUrl: 'https://eggs.example.test/paper.json',
        dockerImages: [
          { name: 'Java 21', image: 'ghcr.io/pterodactyl/yolks:java_21' },
          { name: 'Java 17', image: 'ghcr.io/pterodactyl/yolks:java_17' },
        ],
      });
      const v = await createEggVariable(t.app, egg.id, { envVariable: 'SERVER_JARFILE' });
      const res = await as('get', `${EGGS}/${egg.id}/export`).expect(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.headers['content-disposition']).toBe('attachment; filename="egg-paper-export.json"');
      const now = t.clock.now().toISOString();
      const expected = {
        _comment: 'DO NOT EDIT: FILE GENERATED AUTOMATICALLY BY PTERODACTYL PANEL - PTERODACTYL.IO',
        meta: { version: 'PTDL_v2', update_url: 'https://eggs.example.test/paper.json' },
        exported_at: `${now.slice(0, 19)}+00:00`,
        name: 'Paper Export!',
        author: egg.author,
        description: egg.description,
        features: egg.features,
        docker_images: { 'Java 21': 'ghcr.io/pterodactyl/yolks:java_21', 'Java 17': 'ghcr.io/pterodactyl/yolks:java_17' },
        file_denylist: [],
        startup: egg.startup,
        config: { files: egg.configFiles, startup: egg.configStartup, logs: egg.configLogs, stop: egg.configStop },
        scripts: { installation: { script: egg.scriptInstall, container: egg.scriptContainer, entrypoint: egg.scriptEntry } },
        variables: [
          {
            name: v.name,
            description: v.description,
            env_variable: 'SERVER_JARFILE',
            default_value: v.defaultValue,
            user_viewable: v.userViewable,
            user_editable: v.userEditable,
            rules: v.rules,
            field_type: 'text',
          },
        ],
      };
      expect(res.text).toBe(`${JSON.stringify(expected, null, 4)}\n`);
    });

    it('should give back the same document apart from exported_at when a PTDL_v2 document is imported and exported', async () => {
      const doc = paperDoc();
      const imported = await as('post', `${EGGS}/import`).send({ nestId: nest.id, egg: doc }).expect(201);
      const exported = JSON.parse((await as('get', `${EGGS}/${imported.body.data.id}/export`).expect(200)).text);
      expect({ ...exported, exported_at: doc.exported_at }).toEqual(doc);
    });

    it('should keep force_outgoing_ip through an import, the API and an export, writing the key only when it is set', async () => {
      const doc: Json = { ...paperDoc(), force_outgoing_ip: true };
      const imported = await as('post', `${EGGS}/import`).send({ nestId: nest.id, egg: doc }).expect(201);
      expect(imported.body.data.forceOutgoingIp).toBe(true);
      expect((await loadEgg(imported.body.data.id))!.forceOutgoingIp).toBe(true);
      const exported = JSON.parse((await as('get', `${EGGS}/${imported.body.data.id}/export`).expect(200)).text);
      expect({ ...exported, exported_at: doc.exported_at }).toEqual(doc);
      expect(Object.keys(exported).indexOf('force_outgoing_ip')).toBe(Object.keys(exported).indexOf('startup') + 1);

      const off = await as('patch', `${EGGS}/${imported.body.data.id}`).send({ forceOutgoingIp: false }).expect(200);
      expect(off.body.data.forceOutgoingIp).toBe(false);
      expect(JSON.parse((await as('get', `${EGGS}/${imported.body.data.id}/export`).expect(200)).text)).not.toHaveProperty('force_outgoing_ip');
      const refused = await as('post', `${EGGS}/import`).send({ nestId: nest.id, egg: { ...paperDoc(), force_outgoing_ip: 'yes' } }).expect(400);
      expect(refused.body.details).toEqual([{ field: 'force_outgoing_ip', message: 'force_outgoing_ip must be a boolean' }]);
      const bad = await as('patch', `${EGGS}/${imported.body.data.id}`).send({ forceOutgoingIp: 'yes' }).expect(400);
      expect(bad.body.details).toEqual([{ field: 'forceOutgoingIp', message: 'forceOutgoingIp must be a boolean value' }]);
    });

    it('should be byte-stable apart from exported_at when the export of a PTDL_v1 import is imported and exported again', async () => {
      const first = await as('post', `${EGGS}/import`).send({ nestId: nest.id, egg: v1Doc() }).expect(201);
      const text1 = (await as('get', `${EGGS}/${first.body.data.id}/export`).expect(200)).text;
      t.clock.advance(60_000);
      const second = await as('post', `${EGGS}/import`).send({ nestId: nest.id, egg: JSON.parse(text1) }).expect(201);
      const text2 = (await as('get', `${EGGS}/${second.body.data.id}/export`).expect(200)).text;
      const stamp = /"exported_at": "[^"]*"/;
      expect(text2).not.toBe(text1);
      expect(text2.replace(stamp, '')).toBe(text1.replace(stamp, ''));
    });
  });

  describe('import', () => {
    it('should answer 201 with the egg and its variables and leave an egg.imported entry when a PTDL_v2 document is imported', async () => {
      const doc = paperDoc();
      const before = await state();
      const res = await as('post', `${EGGS}/import`).send({ nestId: nest.id, egg: doc }).expect(201);
      const stored = (await loadEgg(res.body.data.id))!;
      const variables = await loadVariables(stored.id);
      expect(res.body).toEqual({ data: eggBody(stored, nest, variables) });
      expect(res.body.data).toMatchObject({
        name: 'Paper',
        author: 'parker@pterodactyl.io',
        dockerImage: 'ghcr.io/pterodactyl/yolks:java_21',
        dockerImages: Object.entries(doc.docker_images).map(([name, image]) => ({ name, image })),
        features: ['eula', 'java_version', 'pid_limit'],
        configFiles: doc.config.files,
        configStartup: { done: ')! For help, type ' },
        configStop: 'stop',
        scriptInstall: doc.scripts.installation.script,
        scriptContainer: 'ghcr.io/pterodactyl/installers:alpine',
        scriptEntry: 'ash',
        copyScriptFrom: null,
        updateUrl: null,
      });
      expect(variables.map((v) => [v.envVariable, v.defaultValue, v.userViewable, v.userEditable, v.rules])).toEqual(
        doc.variables.map((v: Json) => [v.env_variable, v.default_value, v.user_viewable, v.user_editable, v.rules]),
      );
      expect(await state()).toEqual({ eggs: before.eggs + 1, variables: before.variables + 4, audit: before.audit + 1 });
      expect(await auditOf('egg', stored.id)).toEqual([
        auditEntry(
          'egg.imported',
          { type: 'egg', id: stored.id },
          { after: { nestId: nest.id, name: 'Paper', variables: PAPER_ENVS } },
        ),
      ]);
    });

    it('should import a PTDL_v1 document with its image list when the document is sent bare with ?nestId=', async () => {
      const doc = v1Doc();
      const res = await as('post', `${EGGS}/import?nestId=${nest.id}`).send(doc).expect(201);
      expect(res.body.data).toMatchObject({
        nestId: nest.id,
        name: 'Insurgency',
        dockerImage: 'ghcr.io/pterodactyl/games:source',
        dockerImages: [{ name: 'ghcr.io/pterodactyl/games:source', image: 'ghcr.io/pterodactyl/games:source' }],
        configStop: 'quit',
        scriptEntry: 'bash',
      });
      expect(res.body.data.variables.map((v: Json) => v.envVariable)).toEqual(['SRCDS_APPID', 'SRCDS_MAP']);
    });

    it.each([
      ['PTDL_v3', { version: 'PTDL_v3', update_url: null }, '"PTDL_v3"'],
      ['no version', { update_url: null }, 'null'],
    ])('should answer 400 EGG_IMPORT_UNSUPPORTED_VERSION and add nothing when the document has %s', async (_label, meta, shown) => {
      const before = await state();
      const res = await as('post', `${EGGS}/import`).send({ nestId: nest.id, egg: { ...paperDoc(), meta } });
      expectError(
        res,
        400,
        'EGG_IMPORT_UNSUPPORTED_VERSION',
        `Only PTDL_v1 and PTDL_v2 egg documents can be imported (meta.version is ${shown})`,
      );
      expect(await state()).toEqual(before);
    });

    it('should answer 400 VALIDATION_FAILED listing every problem and add nothing when the document is malformed', async () => {
      const doc = paperDoc();
      const bad = {
        ...doc,
        name: '',
        startup: 42,
        config: { ...doc.config, files: '{broken' },
        variables: [
          { ...doc.variables[0], env_variable: 'SERVER_MEMORY' },
          { ...doc.variables[1], rules: 'required|frobnicate' },
          { ...doc.variables[2], env_variable: 'BUILD_NUMBER' },
          doc.variables[3],
        ],
      };
      const before = await state();
      const res = await as('post', `${EGGS}/import`).send({ nestId: nest.id, egg: bad });
      expectValidation(res, [
        { field: 'name', message: 'name must not be empty' },
        { field: 'startup', message: 'startup must be a string' },
        { field: 'config.files', message: 'config.files must hold valid JSON' },
        { field: 'variables.0.env_variable', message: 'envVariable SERVER_MEMORY is reserved: Wings sets it for every server' },
        { field: 'variables.1.rules', message: expect.stringContaining('frobnicate') },
        { field: 'variables.3.env_variable', message: 'env_variable BUILD_NUMBER appears twice' },
      ]);
      expect(await state()).toEqual(before);
    });

    it('should answer 400 VALIDATION_FAILED naming the variable and add nothing when an imported pattern needs backtracking', async () => {
      const before = await state();
      const res = await as('post', `${EGGS}/import`).send({ nestId: nest.id, egg: backrefDoc() });
      expectValidation(res, [{ field: 'variables.1.rules', message: `rules of SERVER_JARFILE: ${BACKREF_REFUSAL}` }]);
      expect(await state()).toEqual(before);
    });

    it('should answer 400 VALIDATION_FAILED and add nothing when the document has no images', async () => {
      const before = await state();
      const res = await as('post', `${EGGS}/import`).send({ nestId: nest.id, egg: { ...paperDoc(), docker_images: {} } });
      expectValidation(res, [{ field: 'docker_images', message: 'docker_images must map at least one name to a non-empty image' }]);
      expect(await state()).toEqual(before);
    });

    it.each([
      ['no nestId', (doc: Json) => [`${EGGS}/import`, doc], [{ field: 'nestId', message: 'nestId must be a UUID (in the body with `egg`, or as ?nestId=)' }]],
      [
        'a nestId that is not a UUID',
        (doc: Json) => [`${EGGS}/import`, { nestId: '12', egg: doc }],
        [{ field: 'nestId', message: 'nestId must be a UUID (in the body with `egg`, or as ?nestId=)' }],
      ],
      [
        'an unknown wrapper field',
        (doc: Json) => [`${EGGS}/import`, { nestId: MISSING_UUID, egg: doc, force: true }],
        [{ field: 'force', message: 'property force should not exist' }],
      ],
    ])('should answer 400 VALIDATION_FAILED and add nothing when the import has %s', async (_label, build, details) => {
      const [path, body] = build(paperDoc()) as [string, Json];
      const before = await state();
      expectValidation(await as('post', path).send(body), details);
      expect(await state()).toEqual(before);
    });

    it('should answer 404 NEST_NOT_FOUND and add nothing when the import names a missing nest', async () => {
      const before = await state();
      expectError(await as('post', `${EGGS}/import`).send({ nestId: MISSING_UUID, egg: paperDoc() }), 404, 'NEST_NOT_FOUND', 'Nest not found');
      expect(await state()).toEqual(before);
    });
  });

  describe('authorization', () => {
    /** Every egg write, against rows that exist, with a valid body. */
    const writes = async (): Promise<[Method, string, unknown][]> => {
      const egg = await createEgg(t.app, nest.id);
      const variable = await createEggVariable(t.app, egg.id);
      return [
        ['post', EGGS, newEggBody(nest.id)],
        ['patch', `${EGGS}/${egg.id}`, { name: 'Hijacked' }],
        ['delete', `${EGGS}/${egg.id}`, undefined],
        ['post', `${EGGS}/import`, { nestId: nest.id, egg: paperDoc() }],
        ['post', `${EGGS}/import-url`, { nestId: nest.id, url: 'https://eggs.example.test/paper.json' }],
        ['post', `${EGGS}/${egg.id}/variables`, { name: 'X', envVariable: 'X_VAR' }],
        ['patch', `${EGGS}/${egg.id}/variables/${variable.id}`, { name: 'Hijacked' }],
        ['delete', `${EGGS}/${egg.id}/variables/${variable.id}`, undefined],
      ];
    };
    const reads = async (): Promise<[Method, string][]> => {
      const egg = await createEgg(t.app, nest.id);
      return [
        ['get', EGGS],
        ['get', `${EGGS}/${egg.id}`],
        ['get', `${EGGS}/${egg.id}/export`],
        ['get', `${EGGS}/${egg.id}/variables`],
      ];
    };

    it('should answer 403 ADMIN_REQUIRED on every egg route and change nothing when the session is not an admin', async () => {
      const user = await createUser(t.app);
      const userCookie = await signIn(t, user.email);
      const routes = [...(await writes()), ...(await reads()).map(([m, p]) => [m, p, undefined] as [Method, string, unknown])];
      const before = await state();
      for (const [method, path, body] of routes) {
        const res = await as(method, path, userCookie).send(body as object);
        expect([method, path, res.status, res.body]).toEqual([method, path, 403, ADMIN_REQUIRED]);
      }
      expect(await state()).toEqual(before);
    });

    it('should answer 401 UNAUTHENTICATED on every egg write when the caller is anonymous', async () => {
      const routes = await writes();
      const before = await state();
      for (const [method, path, body] of routes) {
        const res = await t.http()[method](path).set('Origin', TEST_ORIGIN).send(body as object);
        expect([method, path, res.status, res.body]).toEqual([method, path, 401, UNAUTHENTICATED]);
      }
      expect(await state()).toEqual(before);
    });

    it('should answer 403 UNTRUSTED_ORIGIN on every egg write and change nothing when a cookie write comes from another origin', async () => {
      const routes = await writes();
      const before = await state();
      for (const [method, path, body] of routes) {
        const res = await t.http()[method](path).set('Cookie', cookie).set('Origin', 'https://evil.example').send(body as object);
        expect([method, path, res.status, res.body]).toEqual([
          method,
          path,
          403,
          denial(403, 'UNTRUSTED_ORIGIN', 'This panel expects requests from http://panel.test (APP_URL); this request came from https://evil.example. Set APP_URL to the address you open the panel at.'),
        ]);
      }
      expect(await state()).toEqual(before);
    });

    it('should allow reads but answer 403 MISSING_SCOPE on every write and change nothing when an admin key holds only eggs.read', async () => {
      const { key } = await createKey(['eggs.read']);
      for (const [method, path] of await reads()) {
        const res = await withKey(method, path, key);
        expect([method, path, res.status]).toEqual([method, path, 200]);
      }
      const routes = await writes();
      const before = await state();
      for (const [method, path, body] of routes) {
        const res = await withKey(method, path, key).send(body as object);
        expect([method, path, res.status, res.body]).toEqual([method, path, 403, missingScope('eggs.write')]);
      }
      expect(await state()).toEqual(before);
    });

    it('should answer 403 MISSING_SCOPE eggs.read on every read when an admin key holds only eggs.write', async () => {
      const { key } = await createKey(['eggs.write']);
      for (const [method, path] of await reads()) {
        const res = await withKey(method, path, key);
        expect([method, path, res.status, res.body]).toEqual([method, path, 403, missingScope('eggs.read')]);
      }
    });

    it('should answer 403 MISSING_SCOPE on egg routes when an admin key holds only other scopes', async () => {
      const { key } = await createKey(['users.read', 'users.write', 'servers.read', 'servers.write', 'nodes.read', 'nodes.write']);
      expect((await withKey('get', EGGS, key)).body).toEqual(missingScope('eggs.read'));
      expect((await withKey('post', EGGS, key).send(newEggBody(nest.id))).body).toEqual(missingScope('eggs.write'));
    });

    it('should store eggs:read as eggs.read and let the key list eggs when the key is created with the eggs:read spelling', async () => {
      const { key, permissions } = await createKey(['eggs:read']);
      expect(permissions).toEqual(['eggs.read']);
      const res = await t.http().get(EGGS).set('Authorization', `Bearer ${key}`).expect(200);
      expect(res.body.meta.pagination.total).toBe(await t.app.get(DataSource).getRepository(EggEntity).count());
    });

    it('should record the key as api-key:<identifier> in the audit entries when an admin key with eggs.write makes changes', async () => {
      const { key, identifier } = await createKey(['eggs.write']);
      const created = await withKey('post', EGGS, key).send(newEggBody(nest.id, { name: 'By Key' })).expect(201);
      const id = created.body.data.id;
      await withKey('patch', `${EGGS}/${id}`, key).send({ name: 'By Key 2' }).expect(200);
      const variable = await withKey('post', `${EGGS}/${id}/variables`, key).send({ name: 'V', envVariable: 'V_VAR' }).expect(201);
      await withKey('delete', `${EGGS}/${id}/variables/${variable.body.data.id}`, key).expect(204);
      await withKey('delete', `${EGGS}/${id}`, key).expect(204);
      const via = `api-key:${identifier}`;
      const eggEntries = await auditOf('egg', id);
      expect(eggEntries.map((e) => [e.action, e.actor])).toEqual([
        ['egg.deleted', { id: admin.id, username: admin.username, via }],
        ['egg.updated', { id: admin.id, username: admin.username, via }],
        ['egg.created', { id: admin.id, username: admin.username, via }],
      ]);
      const variableEntries = await auditOf('egg_variable', variable.body.data.id);
      expect(variableEntries.map((e) => [e.action, e.actor.via])).toEqual([
        ['egg.variable.deleted', via],
        ['egg.variable.created', via],
      ]);
    });

    it('should answer 403 ADMIN_REQUIRED when the API key belongs to a non-admin', async () => {
      const user = await createUser(t.app);
      const userCookie = await signIn(t, user.email);
      const res = await t.http().post('/api/account/api-keys').set('Cookie', userCookie).set('Origin', TEST_ORIGIN).send({ name: 'k' }).expect(201);
      expect((await withKey('get', EGGS, res.body.data.key)).body).toEqual(ADMIN_REQUIRED);
    });
  });
});

/** The test documents of the import-by-URL cases: good, too big, not JSON, redirected, ... */
const serveTestEggs = (req: http.IncomingMessage, res: http.ServerResponse): void => {
  const paper = JSON.stringify(paperDoc(), null, 4);
  switch (req.url ?? '') {
    case '/egg.json':
      res.writeHead(200, { 'content-type': 'application/json' }).end(paper);
      return;
    case '/egg-paper.json':
      res.writeHead(200, { 'content-type': 'application/json' }).end(stockPaper ?? '');
      return;
    case '/exactly-1mib.json': {
      // A valid document padded with trailing whitespace to the cap exactly.
      const body = Buffer.concat([Buffer.from(paper), Buffer.alloc(MIB - Buffer.byteLength(paper), ' ')]);
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length }).end(body);
      return;
    }
    case '/big.json': {
      const body = Buffer.concat([Buffer.from(paper), Buffer.alloc(MIB + 1 - Buffer.byteLength(paper), ' ')]);
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length }).end(body);
      return;
    }
    case '/big-chunked.json':
      // No Content-Length: the cap must hold while streaming.
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write(paper);
      for (let i = 0; i < 20; i++) {
        res.write(Buffer.alloc(64 * 1024, ' '));
      }
      res.end();
      return;
    case '/backref.json':
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(backrefDoc()));
      return;
    case '/not-json':
      res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>not an egg</body></html>');
      return;
    case '/lone-surrogate.json':
      // JSON.stringify writes the lone surrogate as the escape "\ud800".
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ...JSON.parse(paper), features: ['eula', '\ud800'] }));
      return;
    case '/v3.json':
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ...JSON.parse(paper), meta: { version: 'PTDL_v3' } }));
      return;
    case '/moved':
      res.writeHead(302, { location: '/egg.json' }).end();
      return;
    default:
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
  }
};

describe.each(dbKinds(['postgres']))('egg import from a URL, production outbound policy (%s)', (db) => {
  let t: TestApp;
  let cookie: string;
  let nest: NestEntity;
  let server: EggHost;
  const { state } = eggSuite(() => t);
  const importUrl = (body: Json) => t.http().post(`${EGGS}/import-url`).set('Cookie', cookie).set('Origin', TEST_ORIGIN).send(body);

  beforeAll(async () => {
    server = new EggHost(serveTestEggs);
    await server.start();
    t = await createTestApp({ db });
    const admin = await createUser(t.app, { admin: true });
    cookie = await signIn(t, admin.email);
    nest = await createNest(t.app);
  });

  afterAll(async () => {
    await t?.close();
    await server?.stop();
  });

  it('should answer 400 OUTBOUND_URL_REFUSED, never call the server and add nothing when the URL is a loopback address', async () => {
    const [before, seen] = [await state(), server.requests.length];
    const res = await importUrl({ nestId: nest.id, url: server.url('/egg.json') });
    expectError(res, 400, 'OUTBOUND_URL_REFUSED', 'The URL points at a private, loopback or link-local address');
    expect(server.requests).toHaveLength(seen);
    expect(await state()).toEqual(before);
  });

  it.each([
    'http://localhost:1/egg.json',
    'http://10.0.0.1/egg.json',
    'http://169.254.169.254/latest/meta-data',
    'http://192.168.1.10/egg.json',
    'http://metadata.google.internal/egg.json',
  ])('should answer 400 OUTBOUND_URL_REFUSED and add nothing when the URL is %s', async (url) => {
    const before = await state();
    expectError(await importUrl({ nestId: nest.id, url }), 400, 'OUTBOUND_URL_REFUSED', 'The URL points at a private, loopback or link-local address');
    expect(await state()).toEqual(before);
  });

  it.each(['file:///etc/passwd', 'ftp://127.0.0.1/egg.json', 'gopher://example.test/', 'not a url'])(
    'should answer 400 VALIDATION_FAILED and add nothing when the URL is %s',
    async (url) => {
      const [before, seen] = [await state(), server.requests.length];
      expectValidation(await importUrl({ nestId: nest.id, url }), [{ field: 'url', message: 'url must be a URL address' }]);
      expect(server.requests).toHaveLength(seen);
      expect(await state()).toEqual(before);
    },
  );

  it('should answer 400 VALIDATION_FAILED when nestId is missing or an unknown field is sent', async () => {
    expectValidation(await importUrl({ url: 'https://example.test/egg.json' }), [{ field: 'nestId', message: 'nestId must be a UUID' }]);
    expectValidation(await importUrl({ nestId: nest.id, url: 'https://example.test/egg.json', egg: {} }), [
      { field: 'egg', message: 'property egg should not exist' },
    ]);
  });
});

describe.each(dbKinds(['postgres']))('egg import from a URL, private addresses allowed (%s)', (db) => {
  let t: TestApp;
  let admin: UserEntity;
  let cookie: string;
  let nest: NestEntity;
  let server: EggHost;
  const { state, loadEgg } = eggSuite(() => t);
  const importUrl = (body: Json) => t.http().post(`${EGGS}/import-url`).set('Cookie', cookie).set('Origin', TEST_ORIGIN).send(body);

  beforeAll(async () => {
    server = new EggHost(serveTestEggs);
    await server.start();
    t = await createTestApp({ db, overrides: [{ provide: OutboundPolicy, useValue: new OutboundPolicy(true) }] });
    admin = await createUser(t.app, { admin: true });
    cookie = await signIn(t, admin.email);
    nest = await createNest(t.app);
  });

  afterAll(async () => {
    await t?.close();
    await server?.stop();
  });

  it('should answer 400 VALIDATION_FAILED and add nothing when the document holds a lone surrogate', async () => {
    const before = await state();
    expectValidation(await importUrl({ nestId: nest.id, url: server.url('/lone-surrogate.json') }), [
      { field: 'features.1', message: 'features.1 must not contain a lone surrogate (\\ud800 to \\udfff without its pair): it is not valid Unicode text' },
    ]);
    expect(await state()).toEqual(before);
  });

  it('should answer 201 with the imported egg and leave an egg.imported entry naming the URL when the URL serves a PTDL document', async () => {
    const before = await state();
    const url = server.url('/egg.json');
    const res = await importUrl({ nestId: nest.id, url }).expect(201);
    expect(server.requests).toContain('/egg.json');
    const stored = (await loadEgg(res.body.data.id))!;
    expect(res.body.data).toMatchObject({ id: stored.id, nestId: nest.id, name: 'Paper', author: 'parker@pterodactyl.io' });
    expect(res.body.data.variables).toHaveLength(4);
    expect(await state()).toEqual({ eggs: before.eggs + 1, variables: before.variables + 4, audit: before.audit + 1 });
    const audit = await t.http().get(`${AUDIT}?targetType=egg&targetId=${stored.id}`).set('Cookie', cookie).expect(200);
    expect(audit.body.data).toEqual([
      {
        id: expect.any(String),
        actor: { id: admin.id, username: admin.username, via: 'session' },
        action: 'egg.imported',
        target: { type: 'egg', id: stored.id, name: stored.name, parentId: null },
        changes: { after: { nestId: nest.id, name: 'Paper', variables: PAPER_ENVS, source: url } },
        ip: expect.stringMatching(LOOPBACK),
        createdAt: t.clock.now().toISOString(),
      },
    ]);
  });

  (stockPaper ? it : it.skip)('should import the stock Paper egg with its four variables when the URL serves egg-paper.json', async () => {
    const stock = JSON.parse(stockPaper!);
    const before = await state();
    const res = await importUrl({ nestId: nest.id, url: server.url('/egg-paper.json') }).expect(201);
    expect(res.body.data).toMatchObject({ name: 'Paper', author: stock.author, startup: stock.startup, configFiles: stock.config.files });
    expect(res.body.data.variables.map((v: Json) => v.envVariable)).toEqual(stock.variables.map((v: Json) => v.env_variable));
    expect(await state()).toEqual({ eggs: before.eggs + 1, variables: before.variables + stock.variables.length, audit: before.audit + 1 });
  });

  it('should import a document of exactly 1 MiB', async () => {
    const res = await importUrl({ nestId: nest.id, url: server.url('/exactly-1mib.json') }).expect(201);
    expect(res.body.data.name).toBe('Paper');
  });

  it('should follow a redirect when the URL redirects to a document', async () => {
    const res = await importUrl({ nestId: nest.id, url: server.url('/moved') }).expect(201);
    expect(res.body.data.name).toBe('Paper');
  });

  it.each([
    ['larger than 1 MiB with a Content-Length', '/big.json', 413, 'OUTBOUND_TOO_LARGE', 'The response from 127.0.0.1:PORT is larger than 1048576 bytes'],
    ['larger than 1 MiB without a Content-Length', '/big-chunked.json', 413, 'OUTBOUND_TOO_LARGE', 'The response from 127.0.0.1:PORT is larger than 1048576 bytes'],
    ['not JSON', '/not-json', 400, 'EGG_IMPORT_NOT_JSON', 'The URL did not return a JSON document'],
    ['a 404', '/missing.json', 502, 'OUTBOUND_FETCH_FAILED', '127.0.0.1:PORT answered with HTTP 404'],
    ['a PTDL_v3 document', '/v3.json', 400, 'EGG_IMPORT_UNSUPPORTED_VERSION', 'Only PTDL_v1 and PTDL_v2 egg documents can be imported (meta.version is "PTDL_v3")'],
  ])('should answer the error and add no egg nor audit entry when the response is %s', async (_label, path, status, code, message) => {
    const before = await state();
    const url = server.url(path);
    const res = await importUrl({ nestId: nest.id, url });
    expectError(res, status, code, message.replace('PORT', new URL(url).port));
    expect(server.requests).toContain(path);
    expect(await state()).toEqual(before);
  });

  it('should answer 400 VALIDATION_FAILED naming the variable and add nothing when the served egg has a pattern that needs backtracking', async () => {
    const before = await state();
    const res = await importUrl({ nestId: nest.id, url: server.url('/backref.json') });
    expectValidation(res, [{ field: 'variables.1.rules', message: `rules of SERVER_JARFILE: ${BACKREF_REFUSAL}` }]);
    expect(server.requests).toContain('/backref.json');
    expect(await state()).toEqual(before);
  });

  it('should answer 502 OUTBOUND_FETCH_FAILED and add nothing when nothing listens on the port', async () => {
    const port = await freePort();
    const before = await state();
    const res = await importUrl({ nestId: nest.id, url: `http://127.0.0.1:${port}/egg.json` });
    expectError(res, 502, 'OUTBOUND_FETCH_FAILED', `Could not fetch from 127.0.0.1:${port}`);
    expect(await state()).toEqual(before);
  });

  it('should answer 404 NEST_NOT_FOUND and add nothing when the nest does not exist', async () => {
    const before = await state();
    expectError(await importUrl({ nestId: MISSING_UUID, url: server.url('/egg.json') }), 404, 'NEST_NOT_FOUND', 'Nest not found');
    expect(await state()).toEqual(before);
  });
});
