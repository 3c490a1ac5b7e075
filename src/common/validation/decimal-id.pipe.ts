import { Injectable, PipeTransform } from '@nestjs/common';
import { AppException } from 'src/common/errors/app.exception';
import { ErrorDef } from 'src/common/errors/error-codes';

/** An integer id as it travels: a decimal string with no leading zero, at most 18 digits. */
export const DECIMAL_ID = /^[1-9]\d{0,17}$/;

export const isDecimalId = (value: unknown): value is string => typeof value === 'string' && DECIMAL_ID.test(value);

/**
 * Integer ids travel as decimal strings. Anything else cannot name a row, so it is the
 * resource's 404 rather than a database cast error.
 */
@Injectable()
export class DecimalIdPipe implements PipeTransform<string, string> {
  constructor(private readonly notFound: ErrorDef) {}

  transform(value: string): string {
    if (!isDecimalId(value)) {
      throw new AppException(this.notFound);
    }
    return value;
  }
}
