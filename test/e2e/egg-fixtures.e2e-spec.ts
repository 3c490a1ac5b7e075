import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createUser } from 'test/factories/user.factory';
import { signIn } from 'test/utils/auth';
import { createTestApp, TEST_ORIGIN, TestApp } from 'test/utils/create-test-app';
import { EGG_FIXTURES_DIR, eggFixtureFiles } from 'test/utils/fixtures';
import { dbKinds } from 'test/utils/test-db';

const fixtures = eggFixtureFiles();

const withoutExportedAt = (text: string): string => text.replace(/"exported_at": "[^"]*"/, '"exported_at": "…"');

(fixtures.length > 0 ? describe : describe.skip).each(dbKinds(['postgres']))('egg fixtures: import, export, re-import (%s)', (db) => {
  let t: TestApp;
  let cookie: string;
  let nestId: string;

  const post = (path: string) => t.http().post(path).set('Cookie', cookie).set('Origin', TEST_ORIGIN);

  beforeAll(async () => {
    t = await createTestApp({ db });
    const admin = await createUser(t.app, { admin: true });
    cookie = await signIn(t, admin.email);
    nestId = (await post('/api/admin/nests').send({ name: 'Fixtures' }).expect(201)).body.data.id;
  });

  afterAll(async () => {
    await t.close();
  });

  it('should have all 14 stock eggs to test with', () => {
    expect(fixtures).toHaveLength(14);
  });

  it.each(fixtures)('should round-trip %s: export → import → export is identical apart from exported_at', async (file) => {
    const original = JSON.parse(readFileSync(join(EGG_FIXTURES_DIR, file), 'utf8'));
    const imported = await post(`/api/admin/eggs/import?nestId=${nestId}`).send(original).expect(201);
    const egg = imported.body.data;
    expect(egg).toMatchObject({ nestId, nestName: 'Fixtures', name: original.name, author: original.author, startup: original.startup });
    expect(egg.variables.map((v: { envVariable: string }) => v.envVariable)).toEqual(
      original.variables.map((v: { env_variable: string }) => v.env_variable),
    );

    const first = await t.http().get(`/api/admin/eggs/${egg.id}/export`).set('Cookie', cookie).expect(200);
    expect(first.headers['content-type']).toMatch(/^application\/json/);
    expect(first.headers['content-disposition']).toMatch(/^attachment; filename="egg-[a-z0-9-]+\.json"$/);
    const exported = JSON.parse(first.text);

    // What the export keeps of the original document.
    expect(exported.meta).toEqual({ version: 'PTDL_v2', update_url: original.meta.update_url });
    expect(exported.exported_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$/);
    for (const key of ['name', 'author', 'description', 'features', 'file_denylist', 'startup', 'config', 'scripts']) {
      expect([key, exported[key]]).toEqual([key, original[key] ?? null]);
    }
    const images: Record<string, string> =
      original.docker_images ?? Object.fromEntries((original.images as string[]).map((image) => [image, image]));
    expect(exported.docker_images).toEqual(images);
    expect(exported.variables).toEqual(
      original.variables.map((v: Record<string, unknown>) => ({ ...v, field_type: 'text' })),
    );

    const again = await post('/api/admin/eggs/import').send({ nestId, egg: exported }).expect(201);
    const second = await t.http().get(`/api/admin/eggs/${again.body.data.id}/export`).set('Cookie', cookie).expect(200);
    expect(withoutExportedAt(second.text)).toBe(withoutExportedAt(first.text));
  });
});
