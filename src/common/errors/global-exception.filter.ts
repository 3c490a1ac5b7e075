import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus, Logger } from '@nestjs/common';
import { AppException } from 'src/common/errors/app.exception';
import { CommonError, ErrorDef } from 'src/common/errors/error-codes';
import { HttpReply, HttpRequest, pathOf } from 'src/common/http/http';
import { isPterodactylPath, pterodactylError } from 'src/common/errors/pterodactyl-error-body';
import { databasePorts, isDatabaseUnavailable } from 'src/database/pg-errors';
import type { DatabaseConfig } from 'src/config/app-config.service';
import { errorMessage } from 'src/common/errors/error-message';

interface ErrorBody {
  statusCode: number;
  code: string;
  message: string;
  details?: unknown;
  requestId?: string;
}

const fromDef = (def: ErrorDef, status: number, message?: string): ErrorBody => ({
  statusCode: status,
  code: def.code,
  message: message ?? def.message,
});

/**
 * Errors the HTTP stack raises carry their status: Fastify's own (`FST_ERR_BAD_URL`,
 * `FST_ERR_CTP_BODY_TOO_LARGE`...: a `code` and a `statusCode`), and the http-errors of the static
 * file server (`statusCode` and `expose`: a path outside its root is 403, a range past the end 416).
 */
interface FrameworkError {
  code?: unknown;
  statusCode?: unknown;
  expose?: unknown;
  message?: string;
}

/** The 4xx a framework error carries, or undefined when it carries none (then it is ours to answer as a 500). */
const frameworkClientStatus = (exception: unknown): number | undefined => {
  if (exception === null || typeof exception !== 'object') {
    return undefined;
  }
  const { statusCode } = exception as FrameworkError;
  return typeof statusCode === 'number' && Number.isInteger(statusCode) && statusCode >= 400 && statusCode < 500 ? statusCode : undefined;
};

/** Statuses the HTTP stack answers with that no feature raises: each gets a code of its own. */
const CLIENT_STATUS_CODES = new Map<number, { code: string; message: string }>([
  [HttpStatus.METHOD_NOT_ALLOWED, { code: 'METHOD_NOT_ALLOWED', message: 'Method not allowed' }],
  [HttpStatus.NOT_ACCEPTABLE, { code: 'NOT_ACCEPTABLE', message: 'Not acceptable' }],
  [HttpStatus.LENGTH_REQUIRED, { code: 'LENGTH_REQUIRED', message: 'The request needs a Content-Length' }],
  [HttpStatus.PRECONDITION_FAILED, { code: 'PRECONDITION_FAILED', message: 'Precondition failed' }],
  [HttpStatus.URI_TOO_LONG, { code: 'URI_TOO_LONG', message: 'The URL is too long' }],
  [HttpStatus.UNSUPPORTED_MEDIA_TYPE, { code: 'UNSUPPORTED_MEDIA_TYPE', message: 'Unsupported media type' }],
  [HttpStatus.REQUESTED_RANGE_NOT_SATISFIABLE, { code: 'RANGE_NOT_SATISFIABLE', message: 'The requested range is not satisfiable' }],
]);

/** Nest's own HttpExceptions (unknown route, and the like) in our error shape. */
const BUILTIN_STATUS = new Map<number, ErrorDef>([
  [HttpStatus.NOT_FOUND, CommonError.ROUTE_NOT_FOUND],
  [HttpStatus.PAYLOAD_TOO_LARGE, CommonError.PAYLOAD_TOO_LARGE],
  [HttpStatus.UNAUTHORIZED, CommonError.UNAUTHENTICATED],
  [HttpStatus.FORBIDDEN, CommonError.FORBIDDEN],
]);

/** The daemon's callbacks; their errors also carry the array Wings reads, body parsing's included. */
const isDaemonCallback = (req: HttpRequest): boolean => pathOf(req).startsWith('/api/remote/');

@Catch()
export class GlobalExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('ExceptionFilter');

  /** Where the panel's PostgreSQL is listening, to tell its outage from a bug. */
  private readonly databasePorts: ReadonlySet<number>;

  constructor(db: DatabaseConfig) {
    this.databasePorts = databasePorts(db);
  }

  catch(exception: unknown, host: ArgumentsHost): void {
    const ctx = host.switchToHttp();
    this.reply(exception, ctx.getRequest<HttpRequest>(), ctx.getResponse<HttpReply>());
  }

  /**
   * Answers `exception` in the error shape. Also Fastify's error handler (app.setup.ts) and its
   * `frameworkErrors` (fastify.ts), for what fails outside Nest's routes: the web UI's files, an
   * unreadable URL.
   */
  reply(exception: unknown, req: HttpRequest, res: HttpReply): void {
    const body = this.toBody(exception);
    body.requestId = req.id;
    if (res.sent || res.raw.headersSent) {
      return;
    }
    if (isPterodactylPath(req.url)) {
      // The Pterodactyl-compatible layer answers in Pterodactyl's shape, whatever raised the error.
      void res.header('content-type', 'application/json');
      const answer = pterodactylError(body.statusCode, body.code, body.message, body.details);
      res.status(answer.status).send(answer.body);
      return;
    }
    if (isDaemonCallback(req)) {
      // Wings parses `errors: [{code, status, detail}]` from a panel's failures and logs it.
      res.status(body.statusCode).send({ errors: [{ code: body.code, status: String(body.statusCode), detail: body.message }], ...body });
      return;
    }
    res.status(body.statusCode).send(body);
  }

  private toBody(exception: unknown): ErrorBody {
    if (exception instanceof AppException) {
      const body: ErrorBody = { statusCode: exception.status, code: exception.code, message: exception.message };
      if (exception.details !== undefined) {
        body.details = exception.details;
      }
      if (exception.status >= 500) {
        this.logger.error({ err: exception, code: exception.code }, exception.message);
      }
      return body;
    }
    if (exception instanceof HttpException) {
      return this.fromHttpException(exception);
    }
    const clientStatus = frameworkClientStatus(exception);
    if (clientStatus !== undefined) {
      return this.fromClientStatus(clientStatus, exception as FrameworkError);
    }
    if (isDatabaseUnavailable(exception, this.databasePorts)) {
      // An outage, not a bug: said without a stack (every request meets it until the database is back).
      this.logger.error(`The database is unavailable: ${errorMessage(exception)}`);
      return fromDef(CommonError.DATABASE_UNAVAILABLE, HttpStatus.SERVICE_UNAVAILABLE);
    }
    // Unknown: the stack goes to the server log only.
    this.logger.error({ err: exception }, 'Unhandled error');
    return fromDef(CommonError.INTERNAL_ERROR, HttpStatus.INTERNAL_SERVER_ERROR);
  }

  /**
   * A 4xx of the HTTP stack, whatever raised it. The message is the error's own only where it was
   * written for the client (Fastify's, and http-errors marked `expose`); else the status's.
   */
  private fromClientStatus(status: number, fw: FrameworkError): ErrorBody {
    const known = BUILTIN_STATUS.get(status);
    if (known) {
      return fromDef(known, status);
    }
    const own = (typeof fw.code === 'string' && fw.code.startsWith('FST_')) || fw.expose === true ? fw.message : undefined;
    const named = CLIENT_STATUS_CODES.get(status);
    return named ? { statusCode: status, code: named.code, message: own || named.message } : fromDef(CommonError.BAD_REQUEST, status, own || undefined);
  }

  private fromHttpException(exception: HttpException): ErrorBody {
    const status: number = exception.getStatus();
    const known = BUILTIN_STATUS.get(status);
    if (known) {
      return fromDef(known, status);
    }
    if (status >= 500) {
      this.logger.error({ err: exception }, 'HTTP exception');
      return fromDef(CommonError.INTERNAL_ERROR, status);
    }
    const named = CLIENT_STATUS_CODES.get(status);
    return named ? { statusCode: status, code: named.code, message: exception.message || named.message } : fromDef(CommonError.BAD_REQUEST, status, exception.message);
  }
}
