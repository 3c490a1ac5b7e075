import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { defaultTemplateDir, ensureTemplate, pgliteVersion, prepareEmbeddedDataDir } from 'src/database/pglite-template';

/** Opens `dataDir` with PGlite, runs `fn`, closes it. */
const withPGlite = async <T>(dataDir: string, fn: (db: PGlite) => Promise<T>): Promise<T> => {
  const db = new PGlite({ dataDir });
  try {
    await db.waitReady;
    return await fn(db);
  } finally {
    await db.close();
  }
};

const tableNames = (db: PGlite): Promise<string[]> =>
  db.query<{ tablename: string }>(`SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY 1`).then((r) => r.rows.map((row) => row.tablename));

describe('embedded database template', () => {
  let dir: string;
  let templateDir: string;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'hatchery-pglite-template-'));
    templateDir = join(dir, 'cache', `pglite-${pgliteVersion()}`);
  });

  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('should make the template once, by initdb in a child process, then give each new data directory its own copy', async () => {
    const first = join(dir, 'first');
    expect(await prepareEmbeddedDataDir(first, templateDir)).toEqual({ by: 'new-template' });
    expect(readFileSync(join(templateDir, 'PG_VERSION'), 'utf8').trim()).toMatch(/^\d+$/);
    // Nothing half-made is left beside them.
    expect(readdirSync(join(dir, 'cache'))).toEqual([`pglite-${pgliteVersion()}`]);
    expect(await ensureTemplate(templateDir)).toBe(false);
    await withPGlite(first, async (db) => {
      await db.exec('CREATE TABLE only_in_first (id int)');
      expect(await tableNames(db)).toEqual(['only_in_first']);
    });

    const second = join(dir, 'second');
    expect(await prepareEmbeddedDataDir(second, templateDir)).toEqual({ by: 'template' });
    expect(await withPGlite(second, tableNames)).toEqual([]);
    expect(await withPGlite(first, tableNames)).toEqual(['only_in_first']);
  });

  it('should leave an existing database, and memory://, alone', async () => {
    const existing = join(dir, 'existing');
    await prepareEmbeddedDataDir(existing, templateDir);
    await withPGlite(existing, (db) => db.exec('CREATE TABLE kept (id int)'));
    expect(await prepareEmbeddedDataDir(existing, templateDir)).toEqual({ by: 'existing' });
    expect(await withPGlite(existing, tableNames)).toEqual(['kept']);
    expect(await prepareEmbeddedDataDir('memory://', templateDir)).toEqual({ by: 'existing' });
  });

  it('should fill an empty directory, and refuse one that holds files but no database', async () => {
    const empty = join(dir, 'empty');
    mkdirSync(empty);
    expect(await prepareEmbeddedDataDir(empty, templateDir)).toEqual({ by: 'template' });
    expect(existsSync(join(empty, 'PG_VERSION'))).toBe(true);

    const cluttered = join(dir, 'cluttered');
    mkdirSync(cluttered);
    writeFileSync(join(cluttered, 'notes.txt'), 'mine');
    await expect(prepareEmbeddedDataDir(cluttered, templateDir)).rejects.toThrow(`The embedded database directory ${cluttered} holds files but no database`);
    expect(readdirSync(cluttered)).toEqual(['notes.txt']);
  });

  it('should run initdb straight into the data directory when the template cannot be made, and say why', async () => {
    const blocker = join(dir, 'not-a-directory');
    writeFileSync(blocker, '');
    const dataDir = join(dir, 'without-template');
    const prepared = await prepareEmbeddedDataDir(dataDir, join(blocker, 'pglite'));
    expect(prepared).toEqual({ by: 'initdb', templateError: expect.stringMatching(/^(EEXIST|ENOTDIR)\b.*not-a-directory/) });
    expect(await withPGlite(dataDir, tableNames)).toEqual([]);
  });

  it('should keep the template where build tools keep their caches, by PGlite version', () => {
    expect(defaultTemplateDir()).toMatch(new RegExp(`/node_modules/\\.cache/hatchery/pglite-${pgliteVersion().replace(/\./g, '\\.')}$`));
  });
});
