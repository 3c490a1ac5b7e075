// What the browser tests' setup hands its workers, and the panel's HTTP API it uses (test/utils/panel-api.ts).
export { PanelApi, type Session } from 'test/utils/panel-api';

/** What global-setup.ts made, handed to the workers through the environment. */
export interface E2eEnv {
  baseURL: string;
  /** Playwright storageState files of the signed-in admin and owner. */
  adminState: string;
  ownerState: string;
  admin: { email: string; password: string; cookie: string };
  /** `cookie`: a session of the owner's own for API calls (never sign the owner in again: see global-setup.ts). */
  owner: { id: string; email: string; password: string; cookie: string };
  nodeId: string;
  /** The shared simulator's data directory: a server's files are in `volumes/<uuid>` below it. */
  simDataDir: string;
  /** Unset when the egg fixtures are missing (outside CI); createServer then skips its test. */
  eggId?: string;
  /** docs/screenshots when `npm run docs:screenshots` runs the walks (HATCHERY_DOC_SCREENSHOTS=1), else null: `npm test` takes none. */
  screenshotsDir: string | null;
  /**
   * The test MariaDB (TEST_MYSQL_URL, default root@127.0.0.1:3306), a global database host of the panel
   * when reachable: 'available', or why not (outside CI; in CI global setup fails instead).
   */
  mariadb: string;
}

export const E2E_ENV = 'HATCHERY_E2E';

/** How long the panel signs console tokens for in the browser tests: web/e2e/console.spec.ts waits for a renewal. */
export const CONSOLE_TOKEN_TTL_SECONDS = 12;

export const e2eEnv = (): E2eEnv => {
  const raw = process.env[E2E_ENV];
  if (!raw) {
    throw new Error('the browser tests run through web/playwright.config.ts, whose global setup starts the panel');
  }
  return JSON.parse(raw) as E2eEnv;
};
