/** A small JSON client for setting the bench up through the panel's API. */

/** An answer's parsed JSON, read loosely as the tests read supertest bodies. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;
interface Credentials {
  cookie?: string;
  bearer?: string;
  /** Sent as `Origin` (cookie-authenticated writes need the APP_URL). */
  origin?: string;
}

interface ApiResponse {
  status: number;
  body: Json;
  headers: Headers;
}

const api = async (base: string, method: string, path: string, creds: Credentials = {}, body?: unknown): Promise<ApiResponse> => {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) {
    headers['content-type'] = 'application/json';
  }
  if (creds.cookie) {
    headers.cookie = creds.cookie;
  }
  if (creds.bearer) {
    headers.authorization = `Bearer ${creds.bearer}`;
  }
  if (creds.origin) {
    headers.origin = creds.origin;
  }
  const res = await fetch(`${base}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text.length > 0 ? JSON.parse(text) : null;
  } catch {
    // not JSON: keep the text for the error message
  }
  return { status: res.status, body: parsed, headers: res.headers };
};

/** `api`, but anything other than `expected` is an error that shows the answer. */
export const expectApi = async (
  expected: number,
  base: string,
  method: string,
  path: string,
  creds: Credentials = {},
  body?: unknown,
): Promise<ApiResponse> => {
  const res = await api(base, method, path, creds, body);
  if (res.status !== expected) {
    throw new Error(`${method} ${path} answered ${res.status} (expected ${expected}): ${JSON.stringify(res.body).slice(0, 600)}`);
  }
  return res;
};
