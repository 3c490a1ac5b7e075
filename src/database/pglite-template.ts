import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';

/**
 * The embedded database's first boot, made cheap.
 *
 * A new PGlite data directory needs initdb: ≈ 2.5 s of WebAssembly, and it grows PGlite's
 * WebAssembly memory to ≈ 650 MiB, which is never given back while the process lives. So initdb
 * runs once per PGlite version, in a child process, into a template directory (`npm run build`
 * makes it; a boot that finds none makes it first), and every new data directory is a copy of that
 * template: ≈ 0.15 s, after which PGlite opens it as it opens any existing database.
 *
 * The template is PGlite's own initdb output, closed cleanly, and depends on nothing but the PGlite
 * version (PGlite rewrites postgresql.conf from its options on every start).
 */

const PGLITE_ENTRY = require.resolve('@electric-sql/pglite');

/** The installed PGlite version (its package.json is not exported, so it is read beside its entry). */
export const pgliteVersion = (): string => {
  const pkg = JSON.parse(readFileSync(join(dirname(PGLITE_ENTRY), '..', 'package.json'), 'utf8')) as { version: string };
  return pkg.version;
};

/** `node_modules/.cache/hatchery/pglite-<version>`, where build tools keep what they make from node_modules. */
export const defaultTemplateDir = (): string => {
  const nodeModules = PGLITE_ENTRY.slice(0, PGLITE_ENTRY.lastIndexOf(`node_modules`) + 'node_modules'.length);
  return join(nodeModules, '.cache', 'hatchery', `pglite-${pgliteVersion()}`);
};

// Runs in a child process: initdb into argv[2], then a clean shutdown. The memory initdb grew goes with the child.
const INITDB_CHILD = `
const [entry, dir] = process.argv.slice(1);
const { PGlite } = require(entry);
(async () => {
  const db = new PGlite({ dataDir: dir });
  await db.waitReady;
  await db.close();
})().catch((e) => { console.error(e); process.exit(1); });
`;

const messageOf = (e: unknown): string => {
  const message = (e as { message?: unknown } | null)?.message;
  return typeof message === 'string' ? message : String(e);
};

const holdsDatabase = (dir: string): boolean => existsSync(join(dir, 'PG_VERSION'));

/**
 * Makes `dir` by running `make` on a sibling temporary directory and renaming it into place, so
 * that `dir` either does not exist or is whole. Another process that made `dir` first wins.
 */
const atomically = async (dir: string, make: (tmp: string) => Promise<void> | void): Promise<void> => {
  mkdirSync(dirname(dir), { recursive: true });
  const tmp = `${dir}.tmp-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  try {
    await make(tmp);
    if (!holdsDatabase(tmp)) {
      throw new Error(`initdb left no database in ${tmp}`);
    }
    try {
      renameSync(tmp, dir);
    } catch (e) {
      if (!holdsDatabase(dir)) {
        throw e;
      }
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
};

const initdbInChild = (dir: string): Promise<void> =>
  atomically(dir, async (tmp) => {
    await promisify(execFile)(process.execPath, ['-e', INITDB_CHILD, PGLITE_ENTRY, tmp], { timeout: 120_000 });
  });

/** Makes the template if it is missing (initdb in a child process); returns whether it had to. */
export const ensureTemplate = async (templateDir: string = defaultTemplateDir()): Promise<boolean> => {
  if (holdsDatabase(templateDir)) {
    return false;
  }
  await initdbInChild(templateDir);
  return true;
};

/**
 * How a data directory got its database: it had one, a copy of the template (made first, or not),
 * or initdb straight into it because the template could not be made (`templateError` says why).
 */
export type Prepared = { by: 'existing' | 'template' | 'new-template' } | { by: 'initdb'; templateError: string };

/**
 * Gives a new data directory its database before PGlite opens it: a copy of the template (made
 * first when missing). An existing database is left alone, and so is `memory://`. A directory that
 * holds files but no database is refused rather than written into. When the template cannot be
 * made (a read-only node_modules, say), initdb runs in a child process straight into the data directory.
 */
export const prepareEmbeddedDataDir = async (dataDir: string, templateDir: string = defaultTemplateDir()): Promise<Prepared> => {
  if (dataDir === 'memory://' || holdsDatabase(dataDir)) {
    return { by: 'existing' };
  }
  if (existsSync(dataDir)) {
    if (readdirSync(dataDir).length > 0) {
      throw new Error(`The embedded database directory ${dataDir} holds files but no database: empty it or point PGLITE_DIR elsewhere`);
    }
    rmSync(dataDir, { recursive: true });
  }
  let made: boolean;
  try {
    made = await ensureTemplate(templateDir);
  } catch (e) {
    await initdbInChild(dataDir);
    return { by: 'initdb', templateError: messageOf(e) };
  }
  await atomically(dataDir, (tmp) => cpSync(templateDir, tmp, { recursive: true }));
  return { by: made ? 'new-template' : 'template' };
};

// `node dist/database/pglite-template.js` (npm run build): make the template now, not on the first boot.
if (require.main === module) {
  ensureTemplate().then(
    (made) => process.stdout.write(made ? `Embedded database template made in ${defaultTemplateDir()}\n` : ''),
    (e: unknown) => {
      process.stderr.write(`Could not make the embedded database template: ${messageOf(e)}\n`);
      process.exitCode = 1;
    },
  );
}
