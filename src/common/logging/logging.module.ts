import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Global, Module } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import pino, { type DestinationStream } from 'pino';
import { AppConfigService } from 'src/config/app-config.service';

/** Where log lines go; tests override it to read what would have been written. */
export const LOG_STREAM = Symbol('LOG_STREAM');

const SECRET_QUERY = /([?&](?:token|key|api_key|apikey|signature|password|secret|code)=)[^&#]*/gi;

/** Header and field paths whose values never reach a log line. */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-api-key"]',
  'req.headers["x-captcha-response"]',
  'res.headers["set-cookie"]',
  'password',
  'newPassword',
  'currentPassword',
  'token',
  'secret',
  'key',
  '*.password',
  '*.newPassword',
  '*.currentPassword',
  '*.token',
  '*.secret',
  '*.key',
  '*.apiKey',
  '*.tokenSecret',
];

export const redactUrl = (url: string): string => url.replace(SECRET_QUERY, '$1[Redacted]');

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
            redact: { paths: REDACTED_PATHS, censor: '[Redacted]' },
            // requestIdMiddleware (app.setup.ts) has already chosen the id.
            genReqId: (req: IncomingMessage) => req.id ?? randomUUID(),
            serializers: {
              req: (req: { id: unknown; method: string; url: string; headers: Record<string, unknown>; remoteAddress?: string }) => ({
                id: req.id,
                method: req.method,
                url: redactUrl(req.url),
                headers: req.headers,
                remoteAddress: req.remoteAddress,
              }),
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
