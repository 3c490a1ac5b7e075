// The panel's HTTP API as the browser tests' setup uses it (Node fetch, session cookie, trusted Origin).

export interface Session {
  cookie: string;
}

export class PanelApi {
  constructor(readonly baseURL: string) {}

  /** Signs in by e-mail and returns the session cookie pair; throws with the answer when it fails. */
  async signIn(email: string, password: string): Promise<Session> {
    const res = await fetch(`${this.baseURL}/api/auth/sign-in/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: this.baseURL },
      body: JSON.stringify({ email, password }),
    });
    if (res.status !== 200) {
      throw new Error(`sign-in of ${email}: ${res.status} ${await res.text()}`);
    }
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('hatchery_session='));
    if (!cookie) {
      throw new Error(`sign-in of ${email} set no session cookie`);
    }
    return { cookie: cookie.split(';')[0] };
  }

  /** A JSON request as `session` (or with `apiKey`); returns the body's `data`, throws on an unexpected status. */
  async request<T = Record<string, unknown>>(
    method: string,
    path: string,
    options: { session?: Session; apiKey?: string; body?: unknown; expect?: number } = {},
  ): Promise<T> {
    const headers: Record<string, string> = { origin: this.baseURL };
    if (options.body !== undefined) {
      headers['content-type'] = 'application/json';
    }
    if (options.session) {
      headers.cookie = options.session.cookie;
    }
    if (options.apiKey) {
      headers.authorization = `Bearer ${options.apiKey}`;
    }
    const res = await fetch(`${this.baseURL}${path}`, { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) });
    const text = await res.text();
    const expected = options.expect ?? (res.status >= 200 && res.status < 300 ? res.status : 200);
    if (res.status !== expected) {
      throw new Error(`${method} ${path}: ${res.status} ${text}`);
    }
    return (text ? (JSON.parse(text) as { data?: T }).data : undefined) as T;
  }
}

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
