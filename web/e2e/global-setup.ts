import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

const ROOT = resolve(__dirname, '..', '..');

/**
 * Starts test/web-e2e/stack.ts (database, built panel, simulator, seed, control API) and hands its
 * addresses to the specs in E2E_STACK. Without Chromium or a build the specs skip with the reason
 * (E2E_SKIP); under CI=true that is a failure instead.
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium-headless-shell';
  // The servers are made from Pterodactyl's Paper egg, like the Jest e2e tests' (test/utils/fixtures.ts).
  const eggs = process.env.HATCHERY_EGG_FIXTURES ?? resolve(ROOT, '..', 'shared', 'fixtures', 'eggs', 'pterodactyl');
  const missing = !existsSync(chromium)
    ? `no Chromium at ${chromium} (set CHROMIUM_PATH)`
    : !existsSync(resolve(ROOT, 'dist/main.js')) || !existsSync(resolve(ROOT, 'dist/web/index.html'))
      ? 'the panel is not built (run npm run build)'
      : !existsSync(resolve(eggs, 'egg-paper.json'))
        ? `egg fixtures not found at ${eggs} (set HATCHERY_EGG_FIXTURES)`
        : null;
  if (missing) {
    if (process.env.CI === 'true') {
      throw new Error(`browser tests cannot run: ${missing}`);
    }
    process.stdout.write(`[web e2e] skipping: ${missing}\n`);
    process.env.E2E_SKIP = missing;
    return () => Promise.resolve();
  }
  const child = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', '-r', 'tsconfig-paths/register', 'test/web-e2e/stack.ts'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, HATCHERY_EGG_FIXTURES: eggs, TS_NODE_PROJECT: resolve(ROOT, 'tsconfig.json') },
  });
  const stack = await new Promise<string>((done, fail) => {
    let buffered = '';
    child.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      const line = buffered.split('\n').find((l) => l.startsWith('STACK '));
      if (line) {
        done(line.slice('STACK '.length));
      }
    });
    child.once('exit', (code) => fail(new Error(`the test stack exited with ${code}: ${buffered}`)));
  });
  child.stdout.resume();
  process.env.E2E_STACK = stack;
  return async () => {
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  };
}
