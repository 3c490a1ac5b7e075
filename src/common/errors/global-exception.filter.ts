import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus, Logger } from '@nestjs/common';
import { AppException } from 'src/common/errors/app.exception';
import { CommonError, ErrorDef } from 'src/common/errors/error-codes';
import { HttpReply, HttpRequest, pathOf } from 'src/common/http/http';
import { isPterodactylPath, pterodactylError } from 'src/common/errors/pterodactyl-error-body';

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

/** Fastify's own errors (FST_ERR_CTP_BODY_TOO_LARGE and the like) carry a `code` and a `statusCode`. */
interface FrameworkError {
  code?: unknown;
  statusCode?: unknown;
  message?: string;
}

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

  catch(exception: unknown, host: ArgumentsHost): void {
    const ctx = host.switchToHttp();
    const req = ctx.getRequest<HttpRequest>();
    const res = ctx.getResponse<HttpReply>();
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
    const fw = exception as FrameworkError | null;
    if (fw && typeof fw === 'object' && typeof fw.code === 'string' && fw.code.startsWith('FST_') && typeof fw.statusCode === 'number') {
      if (fw.statusCode === Number(HttpStatus.PAYLOAD_TOO_LARGE)) {
        return fromDef(CommonError.PAYLOAD_TOO_LARGE, fw.statusCode);
      }
      if (fw.statusCode >= 400 && fw.statusCode < 500) {
        return fromDef(CommonError.BAD_REQUEST, fw.statusCode, fw.message);
      }
    }
    // Unknown: the stack goes to the server log only.
    this.logger.error({ err: exception }, 'Unhandled error');
    return fromDef(CommonError.INTERNAL_ERROR, HttpStatus.INTERNAL_SERVER_ERROR);
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
    return fromDef(CommonError.BAD_REQUEST, status, exception.message);
  }
}
