import type { NextFunction, Request, Response } from 'express';
import { AppException } from 'src/common/errors/app.exception';
import { CommonError } from 'src/common/errors/error-codes';

/** Turns body-parser's failures into our errors before Nest maps them to bare 400s. */
export const bodyParserErrors = (err: unknown, req: Request, _res: Response, next: NextFunction): void => {
  const type = (err as { type?: unknown } | null)?.type;
  const raw = (err as { body?: unknown } | null)?.body;
  if (type === 'entity.parse.failed' && req.path.startsWith('/api/remote/') && typeof raw === 'string' && raw.trim() === 'null') {
    // Wings sends the literal JSON `null` on its "no body" callbacks (wings.md §5.1), which the
    // strict parser refuses; for daemon callbacks it means no body.
    req.body = {};
    next();
  } else if (type === 'entity.parse.failed') {
    next(new AppException(CommonError.INVALID_JSON));
  } else if (type === 'entity.too.large') {
    next(new AppException(CommonError.PAYLOAD_TOO_LARGE));
  } else {
    next(err);
  }
};
