import { ParseUUIDPipe } from '@nestjs/common';
import { AppException } from 'src/common/errors/app.exception';
import { ErrorDef } from 'src/common/errors/error-codes';

/** A path uuid; anything else cannot name a row, so it is the resource's 404. */
export const uuidParam = (notFound: ErrorDef): ParseUUIDPipe =>
  new ParseUUIDPipe({ exceptionFactory: () => new AppException(notFound) });
