import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { defaultTemplateDir } from 'src/database/pglite-template';
import { UserEntity } from 'src/modules/users/user.entity';
import { createUser } from 'test/factories/user.factory';
import { signIn } from 'test/utils/auth';
import { createTestApp, TestApp } from 'test/utils/create-test-app';

// The embedded database on disk, as `npm start` runs it (the other PGlite tests use memory://).
describe('the embedded database in a directory', () => {
  let dir: string;
  let t: TestApp | undefined;

  const boot = () => createTestApp({ db: 'pglite', env: { DATA_DIR: dir, PGLITE_DIR: join(dir, 'pglite'), DB_RUN_MIGRATIONS: 'true' } });

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'hatchery-embedded-'));
  });

  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('should make a new database from the initdb template on the first boot, migrate it and serve', async () => {
    const said = jest.spyOn(Logger.prototype, 'log');
    try {
      t = await boot();
      expect(said.mock.calls.map(([message]) => String(message)).filter((m) => m.startsWith('New embedded database'))).toEqual([
        expect.stringMatching(new RegExp(`^New embedded database in ${dir}/pglite(, copied from|: made) the initdb template`)),
      ]);
    } finally {
      said.mockRestore();
    }
    expect(existsSync(join(defaultTemplateDir(), 'PG_VERSION'))).toBe(true);
    await t.http().get('/api/health').expect(200);
    const user = await createUser(t.app, { username: 'survivor' });
    await signIn(t, user.email);
    expect(readdirSync(dir).sort()).toEqual(['pglite', 'pglite.lock']);
  });

  it('should open the same database on the next boot, without a copy', async () => {
    const said = jest.spyOn(Logger.prototype, 'log');
    try {
      t = await boot();
      expect(said.mock.calls.filter(([message]) => String(message).startsWith('New embedded database'))).toEqual([]);
    } finally {
      said.mockRestore();
    }
    const users = await t.app.get(DataSource).getRepository(UserEntity).findBy({ username: 'survivor' });
    expect(users).toHaveLength(1);
    await signIn(t, users[0].email);
  });
});
