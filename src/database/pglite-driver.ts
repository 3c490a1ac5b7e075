import { linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import v8 from 'node:v8';
import { type Extension, types } from '@electric-sql/pglite';
import { PGliteDriver } from 'typeorm-pglite';

// PGlite's bundle of pg_trgm, by require: its subpath export is out of reach of `moduleResolution: node`.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { pg_trgm } = require('@electric-sql/pglite/contrib/pg_trgm') as { pg_trgm: Extension };

type ConnectCallback = (err: Error | null, client: unknown, release: (err?: unknown) => void) => void;
interface PoolLike {
  connect(cb: ConnectCallback): Promise<void>;
}
type PoolClass = new (...args: unknown[]) => PoolLike;

const ACQUIRE_TIMEOUT_MS = 30_000;

/**
 * PostgreSQL's stock 128 MB of shared buffers live inside the WebAssembly heap, in the panel's own
 * process, and once touched never go back: with 16 MB an idle embedded panel holds ≈ 260 MiB
 * instead of ≈ 395. The data files are cached by the operating system anyway, as for any local file.
 */
const PGLITE_SETTINGS = ['shared_buffers=16MB', 'wal_buffers=512kB', 'maintenance_work_mem=16MB'];

/**
 * PGlite is PostgreSQL compiled to WebAssembly. By default V8 compiles hot WebAssembly functions a
 * second time with its optimizing compiler, in the background: for PostgreSQL that is ≈ 50 MiB more
 * resident memory for good (compiled code and compiler memory), and CPU taken from requests while
 * it works. The baseline compiler alone (Liftoff) keeps an idle embedded panel ≈ 50 MiB smaller and
 * was as fast on a mixed insert and select load (within 5 % either way). Only processes that open
 * the embedded database set it; Wasm is otherwise used only by undici's HTTP parser.
 */
const useBaselineWasmCompiler = (): void => {
  v8.setFlagsFromString('--liftoff-only');
};

/**
 * node-postgres hands `bigint` columns over as decimal strings; PGlite as a JavaScript number (or a
 * BigInt past 2^53). Our `bigint` ids are typed `string`, and TypeORM matches the rows it reloads
 * (for example in `save` of an entity that has an id) by strict equality: with numbers, a saved row
 * looked new and was inserted a second time. The embedded database reads them as PostgreSQL does.
 */
const PG_COMPATIBLE_PARSERS = { [types.INT8]: (value: string): string => value };

/**
 * PGlite is one session. typeorm-pglite hands that one session to every TypeORM query runner at
 * once, so two concurrent transactions would interleave their statements. This driver lets one
 * query runner hold the session at a time; the others queue.
 */
export const createExclusivePGliteDriver = (dataDir: string): unknown => {
  useBaselineWasmCompiler();
  const base = new PGliteDriver({
    dataDir: dataDir === 'memory://' ? undefined : dataDir,
    postgresqlconf: PGLITE_SETTINGS,
    parsers: PG_COMPATIBLE_PARSERS,
    // The searches' trigram indexes (AddListIndexes creates the extension; every open must load it).
    extensions: { pg_trgm },
  }).driver as unknown as {
    Pool: PoolClass;
  };
  const BasePool = base.Pool;
  class ExclusivePool extends BasePool {
    private tail: Promise<void> = Promise.resolve();

    override async connect(cb: ConnectCallback): Promise<void> {
      let release!: () => void;
      const turn = new Promise<void>((resolve) => (release = resolve));
      const previous = this.tail;
      this.tail = previous.then(() => turn);
      let timer: NodeJS.Timeout | undefined;
      const timedOut = new Promise<'timeout'>((resolve) => {
        timer = setTimeout(() => resolve('timeout'), ACQUIRE_TIMEOUT_MS);
      });
      const outcome = await Promise.race([previous.then(() => 'ok' as const), timedOut]);
      clearTimeout(timer);
      if (outcome === 'timeout') {
        // Give our place up so the queue keeps moving once the holder releases.
        void previous.then(release);
        cb(new Error('Timed out waiting for the embedded database session (a query runner was not released)'), null, () => {});
        return;
      }
      let released = false;
      await super.connect((err, client) => {
        cb(err, client, () => {
          if (!released) {
            released = true;
            release();
          }
        });
      });
    }
  }
  return { Pool: ExclusivePool };
};

/**
 * PGlite must not be opened by two processes at once. A pid file beside the data directory turns
 * that mistake (for example the CLI while the panel runs) into a clear error instead of corruption.
 */
export class EmbeddedDatabaseLock {
  private readonly file: string;

  constructor(dataDir: string) {
    this.file = `${dataDir.replace(/\/+$/, '')}.lock`;
  }

  acquire(): void {
    mkdirSync(dirname(this.file), { recursive: true });
    // The pid is written first and the lock file appears by link(), so nobody ever reads a half-made lock.
    const tmp = `${this.file}.${process.pid}.tmp`;
    writeFileSync(tmp, String(process.pid), { mode: 0o600 });
    try {
      for (let attempt = 0; attempt < 3; attempt++) {
        try {
          linkSync(tmp, this.file);
          return;
        } catch (e) {
          if ((e as NodeJS.ErrnoException).code !== 'EEXIST') {
            throw e;
          }
        }
        const holder = this.holder();
        if (holder === process.pid) {
          return;
        }
        if (holder !== undefined && isAlive(holder)) {
          throw new Error(
            `The embedded database in ${dirname(this.file)} is in use by process ${holder}. ` +
              'Stop that process first (the embedded database serves one process), or set DATABASE_URL to use PostgreSQL.',
          );
        }
        rmSync(this.file, { force: true }); // stale: its process is gone
      }
      throw new Error(`Could not take the embedded database lock ${this.file}: another process keeps taking it`);
    } finally {
      rmSync(tmp, { force: true });
    }
  }

  private holder(): number | undefined {
    try {
      const pid = Number(readFileSync(this.file, 'utf8').trim());
      return Number.isInteger(pid) && pid > 0 ? pid : undefined;
    } catch {
      return undefined;
    }
  }

  /** Removes the pid file if this process holds it. */
  release(): void {
    if (this.holder() === process.pid) {
      rmSync(this.file, { force: true });
    }
  }
}

const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
};
