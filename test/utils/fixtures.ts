import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { isCi } from 'test/setup/test-env';

/**
 * The stock Pterodactyl eggs live in the team's shared/ folder beside this repository, not in it
 * (their licence and the workplace keep such data there). Without it the egg-fixture tests are
 * skipped with the reason printed, except in CI, where they fail.
 */
export const EGG_FIXTURES_DIR = process.env.HATCHERY_EGG_FIXTURES ?? join(__dirname, '..', '..', '..', 'shared', 'fixtures', 'eggs', 'pterodactyl');

export const eggFixtureFiles = (): string[] => {
  if (!existsSync(EGG_FIXTURES_DIR)) {
    const reason = `egg fixtures not found at ${EGG_FIXTURES_DIR} (set HATCHERY_EGG_FIXTURES)`;
    if (isCi()) {
      throw new Error(reason);
    }
    process.stdout.write(`[hatchery tests] skipping egg fixture tests: ${reason}\n`);
    return [];
  }
  return readdirSync(EGG_FIXTURES_DIR)
    .filter((f) => f.endsWith('.json'))
    .sort();
};
