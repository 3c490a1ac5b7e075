import 'reflect-metadata';
import { accessSync, constants, cpSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { AppConfigService } from 'src/config/app-config.service';
import { createDataSourceOptions } from 'src/database/data-source';
import { prepareEmbeddedDataDir } from 'src/database/pglite-template';
import { runId } from 'test/setup/test-env';

const TEMPLATE_ENV = 'HATCHERY_TEST_PGLITE_TEMPLATE';

/** Memory-backed when the machine has /dev/shm (PGlite writes every page through the file system). */
const baseDir = (): string => {
  try {
    accessSync('/dev/shm', constants.W_OK);
    return '/dev/shm';
  } catch {
    return tmpdir();
  }
};

const prefix = (): string => `hatchery-test-pglite-${runId()}`;

/**
 * Builds one migrated embedded database on disk, the way the panel makes a new one (a copy of the
 * initdb template) followed by the real migrations; each PGlite test app then opens a copy of it
 * instead of running initdb and every migration in WASM at each boot.
 */
export async function preparePgliteTemplate(): Promise<void> {
  const dir = join(baseDir(), `${prefix()}-template`);
  rmSync(dir, { recursive: true, force: true });
  await prepareEmbeddedDataDir(dir);
  const config = AppConfigService.fromEnv({ PGLITE_DIR: dir, APP_KEY: 'x'.repeat(32), NODE_ENV: 'test' });
  const dataSource = new DataSource(createDataSourceOptions(config));
  await dataSource.initialize();
  try {
    await dataSource.runMigrations({ transaction: 'each' });
  } finally {
    await dataSource.destroy();
  }
  process.env[TEMPLATE_ENV] = dir;
}

/** A fresh copy of the migrated template for one test app, and how to remove it. */
export const copyPgliteTemplate = (): { dir: string; remove: () => void } => {
  const template = process.env[TEMPLATE_ENV];
  if (!template) {
    throw new Error(`${TEMPLATE_ENV} is not set: Jest's global setup (test/setup/global-setup.ts) makes the PGlite template`);
  }
  const dir = join(baseDir(), `${prefix()}-${process.pid}-${Math.random().toString(36).slice(2, 10)}`);
  cpSync(template, dir, { recursive: true });
  return {
    dir,
    remove: () => {
      rmSync(dir, { recursive: true, force: true });
      rmSync(`${dir}.lock`, { force: true });
    },
  };
};

/** Removes the template and any copy a crashed test left behind. */
export function removePgliteCopies(): void {
  const base = baseDir();
  for (const name of readdirSync(base)) {
    if (name.startsWith(prefix())) {
      rmSync(join(base, name), { recursive: true, force: true });
    }
  }
}
