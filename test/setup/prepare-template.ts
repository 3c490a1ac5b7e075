import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { AppConfigService } from 'src/config/app-config.service';
import { createDataSourceOptions } from 'src/database/data-source';
import { dbUrl, isCi, PG_STATUS_ENV, runId, templateDb, TEST_PG_ADMIN_URL, withAdminClient } from 'test/setup/test-env';

/**
 * Builds one template database with the real migrations; each test file then clones it
 * (CREATE DATABASE ... TEMPLATE), so files run in parallel on their own data.
 * In CI a missing PostgreSQL fails the run; elsewhere the PostgreSQL tests skip with the reason printed.
 */
export async function prepareTemplate(): Promise<void> {
  runId();
  try {
    await withAdminClient(async (client) => {
      await client.query(`DROP DATABASE IF EXISTS ${templateDb()} WITH (FORCE)`);
      await client.query(`CREATE DATABASE ${templateDb()}`);
    });
  } catch (e) {
    const reason = `PostgreSQL at ${TEST_PG_ADMIN_URL} is not reachable (${(e as Error).message})`;
    if (isCi()) {
      throw new Error(`${reason}. CI requires it: start PostgreSQL (see .ci/run).`);
    }
    process.env[PG_STATUS_ENV] = `unavailable: ${reason}`;
    process.stdout.write(`\n[hatchery tests] ${reason}: PostgreSQL tests will be SKIPPED; the PGlite tests still run.\n`);
    return;
  }
  const config = AppConfigService.fromEnv({ DATABASE_URL: dbUrl(templateDb()), APP_KEY: 'x'.repeat(32), NODE_ENV: 'test' });
  const dataSource = new DataSource(createDataSourceOptions(config));
  await dataSource.initialize();
  try {
    await dataSource.runMigrations({ transaction: 'each' });
  } finally {
    await dataSource.destroy();
  }
  process.env[PG_STATUS_ENV] = 'available';
}
