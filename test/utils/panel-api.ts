// The panel's HTTP API as a client outside the panel's process uses it (Node fetch, session cookie, trusted
// Origin): the browser tests' setup and the fleet tests.

export interface Session {
  cookie: string;
}

export class PanelApi {
  /** `origin`: the panel's own address (APP_URL), when `baseURL` reaches it another way (one process of several). */
  constructor(
    readonly baseURL: string,
    readonly origin = baseURL,
  ) {}

  /** Signs in by e-mail and returns the session cookie pair; throws with the answer when it fails. */
  async signIn(email: string, password: string): Promise<Session> {
    const res = await fetch(`${this.baseURL}/api/auth/sign-in/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: this.origin },
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
    const headers: Record<string, string> = { origin: this.origin };
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
