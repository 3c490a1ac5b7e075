import { defineConfig } from '@playwright/test';

// Browser tests in real Chromium (Debian's, no download) against the built panel and the Wings
// simulator that web/e2e/global-setup.ts starts. Run `npm run build` first (`npm run test:browser` does).
export default defineConfig({
  testDir: './e2e',
  globalSetup: './e2e/global-setup.ts',
  fullyParallel: true,
  workers: 2,
  timeout: 45_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  outputDir: '../test-results/web-e2e',
  use: {
    launchOptions: { executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium-headless-shell' },
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
});
