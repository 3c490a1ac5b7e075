import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { Agent, Dispatcher, errors as undiciErrors, request } from 'undici';
import { AppException } from 'src/common/errors/app.exception';
import { ErrorCategory } from 'src/common/errors/error-codes';
import { DaemonOutcome, PanelMetrics } from 'src/common/metrics/panel-metrics';
import { withinGrace } from 'src/common/shutdown/within-grace';
import { DaemonError } from 'src/modules/daemon-gateway/daemon.errors';
import { errorMessage } from 'src/common/errors/error-message';

/** What the client needs to reach one node. */
export interface DaemonTarget {
  nodeId: string;
  baseUrl: string;
  allowInsecure: boolean;
  /** The Authorization header value to send. */
  authorization: string;
}

export interface DaemonRequest {
  method: Dispatcher.HttpMethod;
  path: string;
  query?: Record<string, string | number>;
  body?: unknown;
  /** Sent as is instead of a JSON `body` (Wings' `files/write` takes the file itself as the body). */
  rawBody?: string | Buffer;
  timeoutMs?: number;
  /** The largest answer read into memory; past it the call fails with DAEMON_RESPONSE_TOO_LARGE. */
  maxBodyBytes?: number;
}

const DEFAULT_TIMEOUT_MS = 15_000;
/** No daemon answer the panel reads whole is legitimately larger than this. */
const DEFAULT_MAX_BODY_BYTES = 64 * 1024 * 1024;
const CONNECT_TIMEOUT_MS = 5_000;
/** How long shutdown lets daemon requests in flight finish before it cuts them. */
const AGENT_CLOSE_GRACE_MS = 5_000;
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'EPIPE', 'UND_ERR_SOCKET']);

/** How a failed call ended, for the metrics. */
const outcomeOf = (e: unknown): DaemonOutcome => {
  const code = e instanceof AppException ? e.code : undefined;
  if (code === DaemonError.TIMEOUT.code) {
    return 'timeout';
  }
  if (code === DaemonError.UNAVAILABLE.code) {
    return 'unreachable';
  }
  if (code === DaemonError.BAD_RESPONSE.code || code === DaemonError.RESPONSE_TOO_LARGE.code) {
    return 'bad_response';
  }
  return 'http_error';
};

/**
 * The one HTTP client that talks to Wings. One keep-alive agent per node, so a slow or dead node
 * never holds up requests to another; every call has its own timeout; the node token travels only
 * in the Authorization header and is never logged.
 */
@Injectable()
export class DaemonClient implements OnModuleDestroy {
  private readonly logger = new Logger(DaemonClient.name);
  private readonly agents = new Map<string, Agent>();
  /** Aborted at shutdown, once the grace for requests in flight has run out. */
  private readonly stopping = new AbortController();

  constructor(private readonly metrics: PanelMetrics) {}

  async json<T>(target: DaemonTarget, req: DaemonRequest): Promise<T> {
    const { status, text } = await this.send(target, req);
    if (text.length === 0) {
      return undefined as T;
    }
    try {
      return JSON.parse(text) as T;
    } catch {
      throw new AppException(DaemonError.BAD_RESPONSE, { details: { nodeId: target.nodeId, status } });
    }
  }

  /** One call, counted in the metrics by node and outcome. */
  async send(target: DaemonTarget, req: DaemonRequest): Promise<{ status: number; text: string }> {
    return this.counted(target, () => this.exchange(target, req));
  }

  private async exchange(target: DaemonTarget, req: DaemonRequest): Promise<{ status: number; text: string }> {
    const url = new URL(req.path, target.baseUrl);
    for (const [k, v] of Object.entries(req.query ?? {})) {
      url.searchParams.set(k, String(v));
    }
    const timeoutMs = req.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    let response: Dispatcher.ResponseData;
    try {
      response = await request(url, {
        method: req.method,
        dispatcher: this.agentFor(target),
        headers: {
          authorization: target.authorization,
          accept: 'application/json',
          'content-type': 'application/json',
          'user-agent': 'Hatchery',
        },
        body: req.rawBody ?? (req.body === undefined ? undefined : JSON.stringify(req.body)),
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
        signal: AbortSignal.any([AbortSignal.timeout(timeoutMs), this.stopping.signal]),
      });
    } catch (e) {
      throw this.transportError(target, req, e);
    }
    const text = await this.readBody(target, req, response);
    if (response.statusCode >= 400) {
      throw this.httpError(target, response.statusCode, text);
    }
    return { status: response.statusCode, text };
  }

  /**
   * Streams a request body to a signed-URL endpoint of the daemon (no Authorization header: the
   * token is in the URL). Nothing is buffered; the daemon's answer is mapped like any other.
   */
  async stream(
    target: Omit<DaemonTarget, 'authorization'>,
    url: string,
    body: NodeJS.ReadableStream,
    headers: Record<string, string>,
    timeoutMs = 15 * 60_000,
  ): Promise<{ status: number; text: string }> {
    const full: DaemonTarget = { ...target, authorization: '' };
    return this.counted(full, () => this.upload(full, url, body, headers, timeoutMs));
  }

  private async upload(full: DaemonTarget, url: string, body: NodeJS.ReadableStream, headers: Record<string, string>, timeoutMs: number): Promise<{ status: number; text: string }> {
    const req: DaemonRequest = { method: 'POST', path: new URL(url).pathname, timeoutMs };
    let response: Dispatcher.ResponseData;
    try {
      response = await request(url, {
        method: 'POST',
        dispatcher: this.agentFor(full),
        headers: { ...headers, 'user-agent': 'Hatchery' },
        body: body as unknown as Dispatcher.DispatchOptions['body'],
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
        signal: AbortSignal.any([AbortSignal.timeout(timeoutMs), this.stopping.signal]),
      });
    } catch (e) {
      throw this.transportError(full, req, e);
    }
    const text = await response.body.text().catch((e: unknown) => {
      throw this.transportError(full, req, e);
    });
    if (response.statusCode >= 400) {
      throw this.httpError(full, response.statusCode, text);
    }
    return { status: response.statusCode, text };
  }

  private async counted<T>(target: DaemonTarget, call: () => Promise<T>): Promise<T> {
    const started = performance.now();
    let outcome: DaemonOutcome = 'ok';
    try {
      return await call();
    } catch (e) {
      outcome = outcomeOf(e);
      throw e;
    } finally {
      this.metrics.daemonCall(target.nodeId, outcome, (performance.now() - started) / 1000);
    }
  }

  /** The body as text, refused without reading it when it is larger than the request allows. */
  private async readBody(target: DaemonTarget, req: DaemonRequest, response: Dispatcher.ResponseData): Promise<string> {
    const limit = req.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
    const tooLarge = () => {
      // Stop reading; destroying the stream makes it emit an abort error nobody else listens for.
      response.body.on('error', () => undefined).destroy();
      return new AppException(DaemonError.RESPONSE_TOO_LARGE, { details: { nodeId: target.nodeId, limitBytes: limit } });
    };
    const declared = Number(response.headers['content-length']);
    if (Number.isFinite(declared) && declared > limit) {
      throw tooLarge();
    }
    const chunks: Buffer[] = [];
    let size = 0;
    try {
      for await (const chunk of response.body) {
        size += (chunk as Buffer).length;
        if (size > limit) {
          throw tooLarge();
        }
        chunks.push(chunk as Buffer);
      }
    } catch (e) {
      throw e instanceof AppException ? e : this.transportError(target, req, e);
    }
    return Buffer.concat(chunks).toString('utf8');
  }

  /** Drops the agent of a node whose address or TLS setting changed. */
  forget(nodeId: string): void {
    for (const [key, agent] of this.agents) {
      if (key.startsWith(`${nodeId}|`)) {
        this.agents.delete(key);
        void agent.close();
      }
    }
  }

  /**
   * Lets requests in flight finish for a moment, then cuts them: `close()` alone waits for every
   * queued request, up to its own timeout (a stream upload's is 15 minutes), holding shutdown up.
   */
  async onModuleDestroy(): Promise<void> {
    const agents = [...this.agents.values()];
    this.agents.clear();
    const closed = Promise.all(agents.map((a) => a.close()));
    if (!(await withinGrace(closed, AGENT_CLOSE_GRACE_MS))) {
      this.logger.warn('Cut the daemon requests still in flight at shutdown');
      // An agent's destroy() does not reach requests once close() has begun; their signals do.
      this.stopping.abort(new Error('the panel is shutting down'));
      await closed;
    }
  }

  private agentFor(target: DaemonTarget): Agent {
    const key = `${target.nodeId}|${target.baseUrl}|${target.allowInsecure}`;
    let agent = this.agents.get(key);
    if (!agent) {
      agent = new Agent({
        connect: { timeout: CONNECT_TIMEOUT_MS, rejectUnauthorized: !target.allowInsecure },
        keepAliveTimeout: 30_000,
        connections: 32,
      });
      this.agents.set(key, agent);
    }
    return agent;
  }

  /** The daemon's status and message, with nodeId; its 401/403 as our 403 (docs/api.md#daemon-errors). */
  private httpError(target: DaemonTarget, status: number, text: string): AppException {
    let message: string | undefined;
    let requestId: string | undefined;
    try {
      const body = JSON.parse(text) as { error?: unknown; request_id?: unknown };
      message = typeof body.error === 'string' ? body.error : undefined;
      requestId = typeof body.request_id === 'string' ? body.request_id : undefined;
    } catch {
      // Not JSON: the generic message below names the status.
    }
    const details = { nodeId: target.nodeId, status, ...(requestId ? { daemonRequestId: requestId } : {}) };
    // A file on the egg's denylist is a 403 about the file, not about our token.
    if (status === 403 && message !== undefined && /denylist/i.test(message)) {
      return new AppException({ code: 'DAEMON_HTTP_ERROR', category: ErrorCategory.FORBIDDEN, message }, { details, status });
    }
    if (status === 401 || status === 403) {
      return new AppException(DaemonError.AUTH_FAILED, {
        message: `daemon authentication failed: ${message ?? `the daemon answered HTTP ${status}`}`,
        details,
      });
    }
    const category = status >= 500 ? ErrorCategory.INTERNAL : ErrorCategory.BAD_REQUEST;
    return new AppException(
      { code: 'DAEMON_HTTP_ERROR', category, message: message ?? `The daemon answered HTTP ${status}` },
      { details, status },
    );
  }

  private transportError(target: DaemonTarget, req: DaemonRequest, e: unknown): AppException {
    const code = (e as { code?: string }).code ?? (e as { cause?: { code?: string } }).cause?.code;
    const name = (e as { name?: string }).name;
    const reason = errorMessage(e);
    this.logger.warn({ nodeId: target.nodeId, method: req.method, path: req.path, code, name }, 'daemon request failed');
    const details = { nodeId: target.nodeId };
    if (name === 'TimeoutError' || e instanceof undiciErrors.HeadersTimeoutError || e instanceof undiciErrors.BodyTimeoutError || code === 'UND_ERR_CONNECT_TIMEOUT') {
      return new AppException(DaemonError.TIMEOUT, { details });
    }
    if ((code !== undefined && NETWORK_CODES.has(code)) || e instanceof undiciErrors.SocketError) {
      return new AppException(DaemonError.UNAVAILABLE, { message: `daemon unavailable: ${code ?? reason}`, details });
    }
    if (e instanceof undiciErrors.UndiciError) {
      return new AppException(DaemonError.BAD_RESPONSE, { details });
    }
    return new AppException(DaemonError.UNEXPECTED, { details });
  }
}
