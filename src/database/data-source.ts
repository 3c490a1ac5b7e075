import { DataSourceOptions } from 'typeorm';
import { AppConfigService } from 'src/config/app-config.service';
import { ENTITIES } from 'src/database/entities';
import { MIGRATIONS } from 'src/database/migrations';
import { createExclusivePGliteDriver } from 'src/database/pglite-driver';

/**
 * What the app's pool is given beside TypeORM's own settings: node-postgres passes `options` to the
 * server at connect and keeps the rest in the pool's options, where queryPrepared reads `namedStatements`.
 */
export interface PoolExtra {
  options?: string;
  namedStatements: boolean;
}

/** The DataSource options shared by the app, the TypeORM CLI (ormconfig.ts) and the tests. */
export const createDataSourceOptions = (config: AppConfigService): DataSourceOptions => {
  const common = {
    type: 'postgres' as const,
    entities: ENTITIES,
    migrations: MIGRATIONS,
    migrationsTableName: 'migrations',
    synchronize: false,
    migrationsRun: false, // run by MigrationRunner under an advisory lock
    logging: false,
    // gen_random_uuid() is built into PostgreSQL 13+ and PGlite: no extension to install.
    uuidExtension: 'pgcrypto' as const,
    installExtensions: false,
  };
  if (config.db.kind === 'postgres') {
    // JIT off: the estimated cost of a list query over many rows made PostgreSQL compile it on every
    // call, which took longer than running it (the embedded PGlite has no JIT). A pooler in transaction
    // mode hands each transaction another server session: it takes no startup options (jit is then set
    // on the database, docs/production.md) and keeps no prepared statement (queryPrepared then sends the
    // text as an unnamed statement).
    const extra: PoolExtra = config.db.pooled ? { namedStatements: false } : { options: '-c jit=off', namedStatements: true };
    return { ...common, url: config.db.url, poolSize: config.db.poolMax, applicationName: 'hatchery', extra };
  }
  return {
    ...common,
    driver: createExclusivePGliteDriver(config.db.dataDir),
  };
};
