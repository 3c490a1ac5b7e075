import type { NextFunction, Request, Response } from 'express';
import { AppException } from 'src/common/errors/app.exception';
import { CommonError } from 'src/common/errors/error-codes';

/** Turns body-parser's failures into our errors before Nest maps them to bare 400s. */
export const bodyParserErrors = (err: unknown, _req: Request, _res: Response, next: NextFunction): void => {
  const type = (err as { type?: unknown } | null)?.type;
  if (type === 'entity.parse.failed') {
    next(new AppException(CommonError.INVALID_JSON));
  } else if (type === 'entity.too.large') {
    next(new AppException(CommonError.PAYLOAD_TOO_LARGE));
  } else {
    next(err);
  }
};
