import { spawn } from 'node:child_process';
import { createWriteStream, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..', '..');

export const freePort = (): Promise<number> =>
  new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => done(typeof address === 'object' && address ? address.port : 0));
    });
  });

export interface PanelProcess {
  baseURL: string;
  /** Stops the panel (SIGTERM) and waits for it to exit. */
  stop: () => Promise<void>;
}

/**
 * The built panel (`node dist/main.js`) on a fresh embedded PGlite database in `work`, with the
 * browser tests' settings plus `env` (an administrator account, CAPTCHA settings...); resolves once
 * /api/health answers. Its output goes to `work`/panel.log, quoted when it fails to start. It listens
 * on 127.0.0.1; `hostname` is the name its APP_URL (and baseURL) gives it, e.g. `localhost`, which
 * WebAuthn accepts as a relying party id where it refuses an IP address.
 */
export const startPanel = async (work: string, env: Record<string, string>, { hostname = '127.0.0.1' }: { hostname?: string } = {}): Promise<PanelProcess> => {
  const port = await freePort();
  const baseURL = `http://${hostname}:${port}`;
  const logFile = join(work, 'panel.log');
  const log = createWriteStream(logFile);
  const panel = spawn(process.execPath, [join(ROOT, 'dist', 'main.js')], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      HOST: '127.0.0.1',
      PORT: String(port),
      APP_URL: baseURL,
      APP_KEY: 'browser-tests-app-key-0123456789abcdefghij',
      DATA_DIR: join(work, 'data'),
      RATE_LIMIT_ENABLED: 'false',
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  panel.stdout?.pipe(log);
  panel.stderr?.pipe(log);
  const stop = async () => {
    if (panel.exitCode === null) {
      const exited = new Promise((r) => panel.once('exit', r));
      panel.kill('SIGTERM');
      await exited;
    }
    log.end();
  };

  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (panel.exitCode !== null) {
      await stop();
      throw new Error(`the panel exited (${panel.exitCode}) while starting:\n${readFileSync(logFile, 'utf8')}`);
    }
    const ok = await fetch(`http://127.0.0.1:${port}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) {
      return { baseURL, stop };
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  await stop();
  throw new Error(`the panel did not answer /api/health within 90 s:\n${readFileSync(logFile, 'utf8')}`);
};
