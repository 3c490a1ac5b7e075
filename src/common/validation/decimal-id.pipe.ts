import { Injectable, PipeTransform } from '@nestjs/common';
import { AppException } from 'src/common/errors/app.exception';
import { ErrorDef } from 'src/common/errors/error-codes';

/**
 * Integer ids travel as decimal strings. Anything else cannot name a row, so it is the
 * resource's 404 rather than a database cast error.
 */
@Injectable()
export class DecimalIdPipe implements PipeTransform<string, string> {
  constructor(private readonly notFound: ErrorDef) {}

  transform(value: string): string {
    if (!/^[1-9]\d{0,17}$/.test(value)) {
      throw new AppException(this.notFound);
    }
    return value;
  }
}
