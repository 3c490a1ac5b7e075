import { DataSource } from 'typeorm';
import { createTestApp, TestApp } from 'test/utils/create-test-app';
import { dbKinds } from 'test/utils/test-db';

// Fails when an entity changed without a migration: generate one with `npm run migration:generate`.
describe.each(dbKinds(['postgres', 'pglite']))('migrations match the entities (%s)', (db) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ db });
  });

  afterAll(async () => {
    await t.close();
  });

  it('should leave nothing for the schema builder to change after all migrations ran', async () => {
    const dataSource = t.app.get(DataSource);
    const pending = await dataSource.showMigrations();
    expect(pending).toBe(false);
    const sql = await dataSource.driver.createSchemaBuilder().log();
    expect(sql.upQueries.map((q) => q.query)).toEqual([]);
  });

  it('should undo and redo the latest migration cleanly', async () => {
    const dataSource = t.app.get(DataSource);
    await dataSource.undoLastMigration({ transaction: 'each' });
    expect(await dataSource.showMigrations()).toBe(true);
    await dataSource.runMigrations({ transaction: 'each' });
    expect((await dataSource.driver.createSchemaBuilder().log()).upQueries).toEqual([]);
  });
});
