import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Global, Module } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import pino, { type DestinationStream } from 'pino';
import { AppConfigService } from 'src/config/app-config.service';

/** Where log lines go; tests override it to read what would have been written. */
export const LOG_STREAM = Symbol('LOG_STREAM');

const SECRET_QUERY = /([?&](?:token|key|api_key|apikey|signature|password|secret|code)=)[^&#]*/gi;

/**
 * Fields whose values never reach a log line: at the top of a log object or on a logged error.
 * Paths with wildcards (`*.password`) would make pino walk every object of every line, the request
 * lines included, for ~10 µs each; nothing the panel logs nests secrets deeper than these.
 */
const SECRET_FIELDS = ['password', 'newPassword', 'currentPassword', 'token', 'secret', 'key', 'apiKey', 'tokenSecret', 'challenge'];
const REDACTED_PATHS = [...SECRET_FIELDS, ...SECRET_FIELDS.map((f) => `err.${f}`)];

/** Request and response headers logged as `[Redacted]` (censored by the serializers below). */
const SECRET_HEADERS = new Set(['authorization', 'cookie', 'x-api-key', 'x-captcha-response', 'set-cookie']);
const CENSOR = '[Redacted]';

/**
 * Response headers that are the same on every answer (the security headers): not repeated in each
 * log line, where they would only add bytes to write.
 */
const CONSTANT_RESPONSE_HEADERS = new Set([
  'content-security-policy',
  'cross-origin-opener-policy',
  'cross-origin-resource-policy',
  'origin-agent-cluster',
  'referrer-policy',
  'strict-transport-security',
  'x-content-type-options',
  'x-dns-prefetch-control',
  'x-download-options',
  'x-frame-options',
  'x-permitted-cross-domain-policies',
  'x-xss-protection',
]);

const responseHeaders = (headers: Record<string, unknown> | undefined): Record<string, unknown> => {
  const out: Record<string, unknown> = {};
  for (const name of Object.keys(headers ?? {})) {
    if (!CONSTANT_RESPONSE_HEADERS.has(name)) {
      out[name] = SECRET_HEADERS.has(name) ? CENSOR : headers![name];
    }
  }
  return out;
};

const censorHeaders = (headers: Record<string, unknown> | undefined): Record<string, unknown> => {
  const out: Record<string, unknown> = {};
  for (const name of Object.keys(headers ?? {})) {
    out[name] = SECRET_HEADERS.has(name) ? CENSOR : headers![name];
  }
  return out;
};

const redactUrl = (url: string): string => url.replace(SECRET_QUERY, '$1[Redacted]');

/**
 * Standard output, written asynchronously: on Linux a write to a pipe (a container's log, a
 * process manager) is synchronous and would stall every request behind the reader. Whatever is
 * still buffered is flushed when the process exits.
 */
const stdoutDestination = (): DestinationStream => {
  const destination = pino.destination({ dest: 1, sync: false });
  process.once('exit', () => {
    try {
      destination.flushSync();
    } catch {
      // Nothing more can be done for log lines at exit.
    }
  });
  return destination;
};

@Global()
@Module({
  providers: [{ provide: LOG_STREAM, useFactory: stdoutDestination }],
  exports: [LOG_STREAM],
})
class LogStreamModule {}

@Module({
  imports: [
    LogStreamModule,
    LoggerModule.forRootAsync({
      inject: [AppConfigService, LOG_STREAM],
      useFactory: (config: AppConfigService, stream: DestinationStream) => ({
        pinoHttp: [
          {
            level: config.log.level,
            redact: { paths: REDACTED_PATHS, censor: CENSOR },
            // Fastify's genReqId (src/common/http/fastify.ts) has already chosen the id; middie copies it to the raw request.
            genReqId: (req: IncomingMessage) => req.id ?? randomUUID(),
            serializers: {
              req: (req: { id: unknown; method: string; url: string; headers: Record<string, unknown>; remoteAddress?: string }) => ({
                id: req.id,
                method: req.method,
                url: redactUrl(req.url),
                headers: censorHeaders(req.headers),
                remoteAddress: req.remoteAddress,
              }),
              res: (res: { statusCode: number; headers?: Record<string, unknown> }) => ({ statusCode: res.statusCode, headers: responseHeaders(res.headers) }),
            },
            customLogLevel: (_req: IncomingMessage, res: ServerResponse, err?: Error) =>
              err || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info',
          },
          stream,
        ],
      }),
    }),
  ],
})
export class LoggingModule {}
