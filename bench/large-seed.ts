/**
 * Builds (or reuses) the large bench database, the one `npm run bench -- --large` uses, for EXPLAIN ANALYZE
 * by hand; bench/lib/large-seed.ts describes the data.
 *
 *   npm run bench:large-seed -- [database-url] [--rebuild] [--small]
 *   (or: node -r ts-node/register/transpile-only -r tsconfig-paths/register bench/large-seed.ts [database-url] [--rebuild] [--small])
 *
 * --small builds the 1/100 shape (the 1k database of `npm run bench -- --large`) instead of the 100k one.
 *
 * The default database is hatchery_bench_large on the bench's PostgreSQL server (BENCH_DATABASE_ADMIN_URL).
 * A panel started on it must use APP_KEY=LARGE_APP_KEY (printed at the end), and signs in with
 * admin@bench.test / owner@bench.test and the bench password.
 */
import 'test/setup/register-paths';
import { ensureLargeDatabase, LARGE, LARGE_APP_KEY, LARGE_DB_NAME, SMALL } from 'bench/lib/large-seed';
import { databaseUrl, PG_ADMIN_URL } from 'bench/lib/pg-admin';
import { PASSWORD } from 'bench/lib/seed';

const args = process.argv.slice(2);
const url = args.find((a) => !a.startsWith('--')) ?? databaseUrl(LARGE_DB_NAME);
const adminUrl = (() => {
  const u = new URL(url);
  u.pathname = new URL(PG_ADMIN_URL).pathname;
  return u.toString();
})();

ensureLargeDatabase(adminUrl, url, { rebuild: args.includes('--rebuild'), shape: args.includes('--small') ? SMALL : LARGE, log: (m) => process.stderr.write(`[large-seed] ${m}\n`) }).then(
  (info) => {
    process.stdout.write(
      `${JSON.stringify({ database: url, ...info.counts, reused: info.reused, seconds: info.buildSeconds })}\n` +
        `APP_KEY=${LARGE_APP_KEY}; sign in as admin@bench.test or owner@bench.test with ${PASSWORD}\n`,
    );
  },
  (e: unknown) => {
    process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exit(1);
  },
);
