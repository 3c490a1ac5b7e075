// Minimal HTTP plumbing: route table, request context and Wings-shaped error bodies.
import { IncomingMessage, ServerResponse } from 'node:http';
import { JsonRecord, isRecord } from 'test/wings-sim/config';
import { FsError, errorCode } from 'test/wings-sim/files';
import { SimServer } from 'test/wings-sim/sim-server';

export const GENERIC_ERROR = 'An unexpected error was encountered while processing this request';
const UNPARSABLE_BODY = 'The data passed in the request was not in a parsable format. Please try again.';

/** Thrown by handlers to answer with a Wings error body. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** Errors that pass through Wings' CaptureErrors middleware carry `request_id`; direct aborts do not. */
    readonly withRequestId = false,
  ) {
    super(message);
  }
}

/** An unclassified failure: Wings answers 500 with its generic message and the request id. */
export function internalError(): HttpError {
  return new HttpError(500, GENERIC_ERROR, true);
}

interface Responder {
  json(status: number, body: unknown): void;
  empty(status: number): void;
  error(status: number, message: string, withRequestId?: boolean): void;
}

export class RequestContext implements Responder {
  params: Record<string, string> = {};
  server: SimServer | undefined;
  private bodyPromise: Promise<Buffer> | undefined;

  constructor(
    readonly req: IncomingMessage,
    readonly res: ServerResponse,
    readonly url: URL,
    readonly requestId: string,
    private readonly breakJson: () => boolean,
  ) {}

  /** The server resolved by the ServerExists middleware. */
  get sim(): SimServer {
    if (!this.server) {
      throw internalError();
    }
    return this.server;
  }

  body(limitBytes = 64 * 1024 * 1024): Promise<Buffer> {
    this.bodyPromise ??= new Promise<Buffer>((resolve, reject) => {
      const chunks: Buffer[] = [];
      let size = 0;
      this.req.on('data', (c: Buffer) => {
        size += c.length;
        if (size > limitBytes) {
          reject(new HttpError(413, 'Request body too large.'));
          this.req.destroy();
          return;
        }
        chunks.push(c);
      });
      this.req.on('end', () => resolve(Buffer.concat(chunks)));
      this.req.on('error', reject);
    });
    return this.bodyPromise;
  }

  /** gin `BindJSON` into a struct: empty body and syntax/type errors both answer 400. */
  async bindJson(): Promise<JsonRecord> {
    const raw = (await this.body()).toString('utf8');
    if (raw.trim() === '') {
      throw new HttpError(400, UNPARSABLE_BODY);
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch {
      throw new HttpError(400, GENERIC_ERROR, true);
    }
    if (parsed === null) {
      return {};
    }
    if (!isRecord(parsed)) {
      throw new HttpError(400, GENERIC_ERROR, true);
    }
    return parsed;
  }

  json(status: number, body: unknown): void {
    if (this.res.headersSent) {
      return;
    }
    const text = this.breakJson() ? '{"error": "truncated' : JSON.stringify(body);
    this.res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(text) });
    this.res.end(text);
  }

  empty(status: number): void {
    if (this.res.headersSent) {
      return;
    }
    this.res.writeHead(status);
    this.res.end();
  }

  error(status: number, message: string, withRequestId = false): void {
    this.json(status, withRequestId ? { error: message, request_id: this.requestId } : { error: message });
  }
}

/** Type guards for JSON fields: Go's decoder fails the whole bind on a wrong type. */
export function optionalString(body: JsonRecord, key: string): string {
  const v = body[key];
  if (v === undefined || v === null) {
    return '';
  }
  if (typeof v !== 'string') {
    throw new HttpError(400, GENERIC_ERROR, true);
  }
  return v;
}

export function optionalBool(body: JsonRecord, key: string): boolean {
  const v = body[key];
  if (v === undefined || v === null) {
    return false;
  }
  if (typeof v !== 'boolean') {
    throw new HttpError(400, GENERIC_ERROR, true);
  }
  return v;
}

export function optionalArray(body: JsonRecord, key: string): unknown[] {
  const v = body[key];
  if (v === undefined || v === null) {
    return [];
  }
  if (!Array.isArray(v)) {
    throw new HttpError(400, GENERIC_ERROR, true);
  }
  return v;
}

export function stringArray(body: JsonRecord, key: string): string[] {
  return optionalArray(body, key).map((x) => {
    if (typeof x !== 'string') {
      throw new HttpError(400, GENERIC_ERROR, true);
    }
    return x;
  });
}

type Guard = 'public' | 'token' | 'server';

type Handler = (ctx: RequestContext) => Promise<void> | void;

interface Route {
  method: string;
  segments: string[];
  /** public = no Bearer check; token = RequireAuthorization; server = RequireAuthorization + ServerExists. */
  guard: Guard;
  handler: Handler;
}

function safeDecode(v: string): string {
  try {
    return decodeURIComponent(v);
  } catch {
    return v;
  }
}

export class RouteTable {
  private readonly routes: Route[] = [];

  add(method: string, pattern: string, guard: Guard, handler: Handler): void {
    this.routes.push({ method, segments: pattern.split('/').filter(Boolean), guard, handler });
  }

  match(method: string, pathname: string): { route: Route; params: Record<string, string> } | undefined {
    const parts = pathname.split('/').filter(Boolean);
    for (const route of this.routes) {
      if (route.method !== method || route.segments.length !== parts.length) {
        continue;
      }
      const params: Record<string, string> = {};
      const ok = route.segments.every((seg, i) => {
        if (seg.startsWith(':')) {
          params[seg.slice(1)] = safeDecode(parts[i]);
          return true;
        }
        return seg === parts[i];
      });
      if (ok) {
        return { route, params };
      }
    }
    return undefined;
  }
}

/** CaptureErrors → asFilesystemError: the classified filesystem errors, everything else a 500. */
export function toHttpError(err: unknown): HttpError {
  if (err instanceof HttpError) {
    return err;
  }
  if (err instanceof FsError) {
    switch (err.code) {
      case 'denylist':
        return new HttpError(403, 'This file cannot be modified: present in egg denylist.', true);
      case 'isdir':
        return new HttpError(400, 'Cannot perform that action: file is a directory.', true);
      case 'disk':
        return new HttpError(400, 'There is not enough disk space available to perform that action.', true);
      case 'badpath':
      case 'notdir':
      case 'exists':
        return internalError();
    }
  }
  if (errorCode(err) === 'ENAMETOOLONG') {
    return new HttpError(400, 'Cannot perform that action: file name is too long.', true);
  }
  return internalError();
}

/** Wings' SetAccessControlHeaders middleware. */
export function setCorsHeaders(req: IncomingMessage, res: ServerResponse, panelUrl: string, allowedOrigins: string[]): void {
  res.setHeader('Access-Control-Allow-Origin', panelUrl);
  res.setHeader('Access-Control-Allow-Credentials', 'true');
  res.setHeader('Access-Control-Allow-Methods', 'GET, POST, PATCH, PUT, DELETE, OPTIONS');
  res.setHeader(
    'Access-Control-Allow-Headers',
    'Accept, Accept-Encoding, Authorization, Cache-Control, Content-Type, Content-Length, Origin, X-Real-IP, X-CSRF-Token',
  );
  res.setHeader('Access-Control-Max-Age', '7200');
  const origin = req.headers.origin ?? '';
  if (origin !== panelUrl) {
    const allowed = allowedOrigins.find((o) => o === '*' || o === origin);
    if (allowed !== undefined) {
      res.setHeader('Access-Control-Allow-Origin', allowed);
    }
  }
}
