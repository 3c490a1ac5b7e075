import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT, RssSampler } from 'bench/lib/panel-process';
import { databaseUrl, dropDatabase, recreateDatabase } from 'bench/lib/pg-admin';
import type { Row } from 'bench/lib/report';
import { newLaravelAppKey } from 'test/utils/laravel-encrypt';
import { createPterodactylSource, seedAtScale } from 'test/utils/pterodactyl-source';

/**
 * Scenario 8: `import:pterodactyl` of a large Pterodactyl panel (10,000 servers, 1,000 users, 10 nodes,
 * 1 million activity rows) from MariaDB into a new Hatchery, on the embedded database and on
 * PostgreSQL. The CLI runs as its own process (dist/cli.js); its wall time and peak RSS are measured.
 * Target (issue "Move a Pterodactyl panel to Hatchery in place"): ≤ 5 minutes and ≤ 500 MiB RSS.
 */

const IMPORT_SIZE = { users: 1_000, nodes: 10, servers: 10_000, activity: 1_000_000 };
const TARGET_MS = 5 * 60_000;
const TARGET_RSS_MIB = 500;
const IMPORT_DB_NAME = 'hatchery_bench_import';

interface ImportRun {
  ms: number;
  peakRssMiB: number;
  imported: Record<string, number>;
}

const runImport = (from: string, appKey: string, env: Record<string, string>): Promise<ImportRun> =>
  new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, ['dist/cli.js', 'import:pterodactyl', '--from', from, '--app-key', appKey, '--json'], {
      cwd: REPO_ROOT,
      env: { PATH: process.env.PATH, NODE_ENV: 'production', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const rss = new RssSampler(child.pid).start();
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const peakRssMiB = rss.stop();
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      if (code !== 0) {
        reject(new Error(`import exited with ${code}: ${stderr.slice(-2000)}`));
        return;
      }
      const report = JSON.parse(stdout) as { imported: Record<string, number> };
      resolve({ ms: Math.round(ms), peakRssMiB, imported: report.imported });
    });
  });

const row = (id: string, scenario: string, run: ImportRun): Row => {
  const parts = [run.ms <= TARGET_MS, run.peakRssMiB <= TARGET_RSS_MIB];
  return {
    id,
    scenario,
    p50Ms: run.ms,
    p99Ms: run.ms,
    peakRssMiB: run.peakRssMiB,
    target: { text: `≤ ${TARGET_MS / 60_000} min / RSS ≤ ${TARGET_RSS_MIB} MiB`, met: parts.every(Boolean), parts },
    extra: { imported: run.imported },
  };
};

/** Seeds the old panel once, then imports it into each selected target. */
export const importRows = async (selected: (id: string) => boolean, appKeyOfHatchery: string, log: (m: string) => void): Promise<Row[]> => {
  const rows: Row[] = [];
  const wanted = { pglite: selected('s8-import-pglite'), pg: selected('s8-import-pg') };
  if (!wanted.pglite && !wanted.pg) {
    return rows;
  }
  const appKey = newLaravelAppKey();
  const source = await createPterodactylSource();
  const workDir = mkdtempSync(join(tmpdir(), 'hatchery-bench-import-'));
  try {
    const seeding = Date.now();
    await seedAtScale(source, { appKey, ...IMPORT_SIZE, onProgress: (m) => log(`import seed: ${m}`) });
    log(`import seed: ${IMPORT_SIZE.servers} servers, ${IMPORT_SIZE.activity} activity rows in ${Math.round((Date.now() - seeding) / 1000)} s`);
    const hatchery = { APP_KEY: appKeyOfHatchery, DATA_DIR: workDir };
    if (wanted.pglite) {
      const run = await runImport(source.url, appKey, { ...hatchery, PGLITE_DIR: join(workDir, 'pglite') });
      rows.push(row('s8-import-pglite', '8. import:pterodactyl, 10k servers + 1M activity → PGlite', run));
      log(`import into PGlite: ${run.ms} ms, peak RSS ${run.peakRssMiB} MiB`);
    }
    if (wanted.pg) {
      await recreateDatabase(IMPORT_DB_NAME);
      try {
        const run = await runImport(source.url, appKey, { ...hatchery, DATABASE_URL: databaseUrl(IMPORT_DB_NAME) });
        rows.push(row('s8-import-pg', '8. import:pterodactyl, 10k servers + 1M activity → PostgreSQL', run));
        log(`import into PostgreSQL: ${run.ms} ms, peak RSS ${run.peakRssMiB} MiB`);
      } finally {
        await dropDatabase(IMPORT_DB_NAME);
      }
    }
  } finally {
    await source.drop();
    rmSync(workDir, { recursive: true, force: true });
  }
  return rows;
};
