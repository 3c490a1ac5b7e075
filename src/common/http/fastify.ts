import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { bearerToken, isPterodactylKeyShape } from 'src/common/auth/bearer';
import { AppException } from 'src/common/errors/app.exception';
import { CommonError } from 'src/common/errors/error-codes';
import { GlobalExceptionFilter } from 'src/common/errors/global-exception.filter';
import { scanJson, textFaults, textRefusal, tooDeepRefusal } from 'src/common/http/hostile-input';
import { pathOf } from 'src/common/http/http';
import type { AppConfigService } from 'src/config/app-config.service';

/** JSON bodies are capped at 1 MiB; streamed uploads are not JSON and have their own cap. */
export const JSON_BODY_LIMIT = 1024 * 1024;

/** Route config (`@RouteConfig(STREAMS_BODY)`) of a route that reads its own request stream, e.g. file uploads. */
export const STREAMS_BODY = { streamsBody: true };

const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Each request's id, chosen before anything else runs (body parsing included) so every error body
 * and log line can carry it. A caller's own `x-request-id` is kept when it is safe to echo.
 */
const requestIdOf = (req: IncomingMessage): string => {
  const incoming = req.headers['x-request-id'];
  return typeof incoming === 'string' && SAFE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
};

/**
 * Bots and libraries that kept a Pterodactyl panel's URL after it moved to Hatchery
 * (docs/migrate-from-pterodactyl.md) call the client API at Pterodactyl's own path, `/api/client`,
 * which is Hatchery's client API. A request there with a Pterodactyl key, which Hatchery's own API
 * could only refuse, is served by the Pterodactyl client API at `/pterodactyl/api/client`.
 */
const rewriteUrl = (req: IncomingMessage): string => {
  const url = req.url ?? '/';
  if (!/^\/api\/client(?:[/?]|$)/.test(url)) {
    return url;
  }
  const bearer = bearerToken(req.headers.authorization);
  return bearer !== undefined && isPterodactylKeyShape(bearer) ? `/pterodactyl${url}` : url;
};

/**
 * The HTTP server: Fastify, whose router and reply path cost a fraction of Express' on every
 * request. A proxy's `X-Forwarded-For` is believed only from TRUSTED_PROXIES.
 */
export const createHttpAdapter = (config: AppConfigService): FastifyAdapter => {
  const proxies = config.http.trustedProxies;
  const errors = new GlobalExceptionFilter(config.db);
  return new FastifyAdapter({
    trustProxy: proxies.length > 0 ? proxies : false,
    bodyLimit: JSON_BODY_LIMIT,
    genReqId: requestIdOf,
    rewriteUrl,
    routerOptions: { ignoreTrailingSlash: true },
    logger: false,
    // A URL the router cannot decode (`%E0%A4%A`) or a path parameter over its length never reaches a route:
    // answered here in the error shape, not Fastify's.
    frameworkErrors: (error: Error, req: FastifyRequest, reply: FastifyReply) => {
      void reply.header('x-request-id', req.id);
      errors.reply(error, req, reply);
    },
  });
};

/**
 * Every route registered from now on (the web UI's files, the API docs, Nest's routes) answers what fails in
 * Fastify's own steps (body parsing, hooks, a static file's send) through the global filter: the error shape,
 * and a 4xx such an error carries kept as that 4xx. A route-level handler, so that Nest can still set the
 * instance's own (it does, on init) without a second setErrorHandler on the same instance.
 */
export const installErrorHandler = (fastify: FastifyInstance, config: AppConfigService): void => {
  const errors = new GlobalExceptionFilter(config.db);
  fastify.addHook('onRoute', (route) => {
    route.errorHandler ??= (error, req, reply) => errors.reply(error, req, reply);
  });
};

/**
 * Path parameters and query strings are refused with the same 400 when a value (or query key) holds a NUL (or a lone
 * surrogate, which a URL cannot carry today: the decoders leave malformed UTF-8 as it came): they are decoded from
 * `%00` and reach guards, which look records up by them, before any pipe runs.
 */
const installInputChecks = (fastify: FastifyInstance): void => {
  fastify.addHook('preValidation', (req, _reply, done) => {
    const faults = [...textFaults(req.params), ...textFaults(req.query)];
    done(faults.length > 0 ? textRefusal(faults) : undefined);
  });
};

/**
 * Request bodies as the API has always read them: JSON objects and arrays only (anything else is
 * 400 INVALID_JSON), an empty JSON body is `{}`, and on the daemon's callbacks the literal `null`
 * Wings sends for "no body" is `{}` too. Hostile bodies get a 400 before any route
 * sees them: nested deeper than MAX_JSON_DEPTH (JSON_TOO_DEEP), or with a NUL or a lone surrogate (`"\ud800"`)
 * in any string or key (VALIDATION_FAILED, as for path parameters and query strings). Any other content type gives the
 * route no body: left unread for the routes that stream it (file uploads), read and dropped elsewhere.
 */
export const installBodyParsers = (fastify: FastifyInstance): void => {
  fastify.removeAllContentTypeParsers();
  const parseJson = fastify.getDefaultJsonParser('error', 'error');
  fastify.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: JSON_BODY_LIMIT }, (req, body, done) => {
    const text = body as string;
    if (text.length === 0) {
      done(null, {});
      return;
    }
    const trimmed = text.trim();
    if (trimmed === 'null' && pathOf(req).startsWith('/api/remote/')) {
      done(null, {});
      return;
    }
    if (trimmed[0] !== '{' && trimmed[0] !== '[') {
      done(new AppException(CommonError.INVALID_JSON), undefined);
      return;
    }
    // Before parsing: a body nested thousands deep costs stack and CPU in every recursive step after it.
    const scan = scanJson(text);
    if (scan.tooDeep) {
      done(tooDeepRefusal(), undefined);
      return;
    }
    void parseJson(req, text, (err, value) => {
      if (err) {
        done(new AppException(CommonError.INVALID_JSON), undefined);
        return;
      }
      const faults = scan.hasNul || scan.hasSurrogate ? textFaults(value) : [];
      done(faults.length > 0 ? textRefusal(faults) : null, faults.length > 0 ? undefined : value);
    });
  });
  // Any other body is left unread only on a route that streams it (STREAMS_BODY); elsewhere it is read to the JSON
  // cap and dropped, so validation says what the route needs. A reply sent over an unread body ends the connection
  // while the client is still sending, and the client never sees the answer.
  fastify.addContentTypeParser('*', (req, payload, done) => {
    if ((req.routeOptions.config as { streamsBody?: boolean } | undefined)?.streamsBody) {
      done(null, undefined);
      return;
    }
    let size = 0;
    payload.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > JSON_BODY_LIMIT) {
        payload.removeAllListeners('data');
        payload.removeAllListeners('end');
        done(new AppException(CommonError.PAYLOAD_TOO_LARGE), undefined);
      }
    });
    payload.on('end', () => done(null, undefined));
  });
  installInputChecks(fastify);
};

/** How long requests still running when the panel starts closing may go on; then their connections are cut. */
const HTTP_CLOSE_GRACE_MS = 10_000;

/**
 * Closing ends, soon. Fastify's close waits for every connection to end, and a keep-alive connection
 * busy with a request when it began stays open after its answer until the idle timeout (72 s,
 * longer than a container runtime waits before it kills). While the panel closes, each answer says
 * `Connection: close`, a connection is closed as soon as it falls idle, and what is still open after
 * `graceMs` (a download, an answer that never comes) is cut.
 */
export const installGracefulClose = (fastify: FastifyInstance, graceMs = HTTP_CLOSE_GRACE_MS): void => {
  let closing = false;
  let sweep: NodeJS.Timeout | undefined;
  let deadline: NodeJS.Timeout | undefined;
  fastify.addHook('preClose', (done) => {
    closing = true;
    const server = fastify.server;
    sweep = setInterval(() => server.closeIdleConnections(), 50).unref();
    deadline = setTimeout(() => server.closeAllConnections(), graceMs).unref();
    done();
  });
  fastify.addHook('onSend', (_req, reply, payload, done) => {
    if (closing) {
      void reply.header('connection', 'close');
    }
    done(null, payload);
  });
  fastify.addHook('onClose', (_instance, done) => {
    clearInterval(sweep);
    clearTimeout(deadline);
    done();
  });
};
