import { defineConfig } from '@playwright/test';
import { findChromium, isCi } from './e2e/chromium';

// Browser tests (`npm run test:browser`): real Chromium against the built panel (`node dist/main.js`,
// started by e2e/global-setup.ts on an embedded PGlite database) and the Wings simulator.
const executablePath = findChromium();
if (!executablePath) {
  const reason = `Chromium not found (${process.env.CHROMIUM_PATH ?? '/usr/bin/chromium-headless-shell, /usr/bin/chromium'}); install chromium-headless-shell or set CHROMIUM_PATH`;
  if (isCi()) {
    throw new Error(`browser tests: ${reason}`);
  }
  process.stdout.write(`browser tests skipped: ${reason}\n`);
}

// The usage-history walk mostly waits for the sampler's real minutes (about 75 s); started last, as
// its file name once had it, it ran alone at the end with the other worker idle. It is started first.
const WAITS = '**/usage-history.spec.ts';
// Without Chromium every test is left out (the reason is printed above; CI has failed already).
const NONE_WITHOUT_CHROMIUM = executablePath ? [] : ['**/*'];

export default defineConfig({
  testDir: './e2e',
  testMatch: '**/*.spec.ts',
  // Projects are dealt out in this order (a project's testIgnore replaces the top level's).
  projects: [
    { name: 'waits', testMatch: WAITS, testIgnore: NONE_WITHOUT_CHROMIUM },
    { name: 'walks', testIgnore: [...NONE_WITHOUT_CHROMIUM, WAITS] },
  ],
  globalSetup: executablePath ? './e2e/global-setup.ts' : undefined,
  workers: 2,
  fullyParallel: true,
  forbidOnly: isCi(),
  // One retry in CI: with two workers on two cores the longest walks (the wizard, schedules, the
  // console's node-down case) have timed out near their end; a test that fails twice still fails.
  retries: isCi() ? 1 : 0,
  // A limit only catches a test that hangs; speed is not asserted here. When other work shares the two
  // cores (as Jest did until 29 November) the long walks take two to three times their time alone (the
  // roles walk: 29 s alone, 45 s beside Jest), so CI gives every test twice the room.
  timeout: isCi() ? 120_000 : 60_000,
  expect: { timeout: 10_000 },
  outputDir: '../node_modules/.cache/hatchery/playwright',
  reporter: [['list'], ['./e2e/summary-reporter.ts']],
  use: {
    browserName: 'chromium',
    headless: true,
    launchOptions: { executablePath, args: ['--no-sandbox', '--disable-background-networking'] },
    // A trace records every action's DOM snapshot and screencast frames, in Chromium and in the runner:
    // in CI only a retry records one (a failure is retried once), not every test that then passes.
    trace: isCi() ? 'on-first-retry' : 'retain-on-failure',
    screenshot: 'only-on-failure',
    locale: 'en-US',
    timezoneId: 'UTC',
  },
});
