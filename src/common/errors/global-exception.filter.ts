import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { AppException } from 'src/common/errors/app.exception';
import { CommonError, ErrorDef } from 'src/common/errors/error-codes';

export interface ErrorBody {
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

/** Middleware errors (body-parser's 415 and the like) carry `status` and `expose` instead of being HttpExceptions. */
interface MiddlewareError {
  status?: number;
  statusCode?: number;
  expose?: boolean;
  message?: string;
}

/** Nest's own HttpExceptions (unknown route, and the like) in our error shape. */
const BUILTIN_STATUS = new Map<number, ErrorDef>([
  [HttpStatus.NOT_FOUND, CommonError.ROUTE_NOT_FOUND],
  [HttpStatus.PAYLOAD_TOO_LARGE, CommonError.PAYLOAD_TOO_LARGE],
  [HttpStatus.UNAUTHORIZED, CommonError.UNAUTHENTICATED],
  [HttpStatus.FORBIDDEN, CommonError.FORBIDDEN],
]);

/** The daemon's callbacks; their errors also carry the array Wings reads, body-parser's included. */
const isDaemonCallback = (req: Request): boolean => (req.originalUrl ?? req.url).startsWith('/api/remote/');

@Catch()
export class GlobalExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('ExceptionFilter');

  catch(exception: unknown, host: ArgumentsHost): void {
    const ctx = host.switchToHttp();
    const req = ctx.getRequest<Request & { id?: string }>();
    const res = ctx.getResponse<Response>();
    const body = this.toBody(exception);
    if (req.id !== undefined) {
      body.requestId = String(req.id);
    }
    if (res.headersSent) {
      return;
    }
    if (isDaemonCallback(req)) {
      // Wings parses `errors: [{code, status, detail}]` from a panel's failures and logs it (wings.md §1.11).
      res.status(body.statusCode).json({ errors: [{ code: body.code, status: String(body.statusCode), detail: body.message }], ...body });
      return;
    }
    res.status(body.statusCode).json(body);
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
    const mw = exception as MiddlewareError | null;
    const status = mw && typeof mw === 'object' ? (mw.status ?? mw.statusCode) : undefined;
    if (mw?.expose === true && typeof status === 'number' && status >= 400 && status < 500) {
      return fromDef(CommonError.BAD_REQUEST, status, mw.message);
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
