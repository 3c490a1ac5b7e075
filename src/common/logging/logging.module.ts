import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Global, Inject, Injectable, Module, type OnApplicationShutdown } from '@nestjs/common';
import { Logger, LoggerModule } from 'nestjs-pino';
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

// Most request URLs have no query string: those skip the regular expression (it ran on every request line).
const redactUrl = (url: string): string => (url.includes('=') ? url.replace(SECRET_QUERY, '$1[Redacted]') : url);

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

interface PrettyLine {
  msg?: string;
  context?: string;
  req?: { method?: string; url?: string };
  res?: { statusCode?: number };
  responseTime?: number;
}

/** One readable line: `GET /api/servers 200 3 ms` for a request, `[Context] message` for the rest. */
const prettyMessage = (line: PrettyLine): string => {
  if (line.req?.method && line.res?.statusCode !== undefined) {
    return `${line.req.method} ${line.req.url ?? ''} ${line.res.statusCode} ${line.responseTime ?? '?'} ms`;
  }
  return line.context ? `[${line.context}] ${line.msg ?? ''}` : (line.msg ?? '');
};

/**
 * Readable coloured lines for a developer's terminal (LOG_FORMAT=pretty, or auto on a terminal outside
 * production). pino-pretty is loaded only then: a production process never needs it. Each line is
 * formatted as it is written and goes to the same flushable standard output as the JSON lines: pino-pretty's
 * own stream passes lines through two stream stages first, and what was still between them when a SIGTERM
 * ended the process (the last lines, "Nest application successfully started" among them) was lost.
 */
export const prettyDestination = async (destination?: NodeJS.WritableStream): Promise<DestinationStream> => {
  const { prettyFactory } = await import('pino-pretty');
  const format = prettyFactory({
    colorize: true,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname,context,req,res,responseTime',
    messageFormat: (line) => prettyMessage(line),
    singleLine: true,
  });
  const out: DestinationStream & { flushSync?: () => void } = destination ?? stdoutDestination();
  return {
    write: (line: string) => out.write(format(line)),
    ...(out.flushSync ? { flushSync: () => out.flushSync!() } : {}),
  };
};

@Global()
@Module({
  providers: [
    {
      provide: LOG_STREAM,
      inject: [AppConfigService],
      useFactory: (config: AppConfigService) => (config.log.format === 'pretty' ? prettyDestination() : stdoutDestination()),
    },
  ],
  exports: [LOG_STREAM],
})
class LogStreamModule implements OnApplicationShutdown {
  constructor(@Inject(LOG_STREAM) private readonly stream: DestinationStream & { flushSync?: () => void }) {}

  /**
   * Nest ends a SIGTERM by sending the signal again once the app has closed, and a process killed by a
   * signal emits no 'exit': the lines still buffered are written here.
   */
  onApplicationShutdown(): void {
    try {
      this.stream.flushSync?.();
    } catch {
      // Nothing more can be done for log lines at exit.
    }
  }
}

/**
 * Nest's start-up chatter (a line per module, per controller and per route: about 400 here) is logged
 * at debug level, not info: at LOG_LEVEL=debug it is all still there.
 */
const START_UP_CONTEXTS = new Set(['InstanceLoader', 'RoutesResolver', 'RouterExplorer']);

@Injectable()
export class PanelLogger extends Logger {
  override log(message: unknown, ...optionalParams: unknown[]): void {
    const context = optionalParams.at(-1);
    if (typeof context === 'string' && START_UP_CONTEXTS.has(context)) {
      this.debug(message, ...optionalParams);
      return;
    }
    super.log(message, ...optionalParams);
  }
}

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
  providers: [PanelLogger],
  exports: [PanelLogger],
})
export class LoggingModule {}
