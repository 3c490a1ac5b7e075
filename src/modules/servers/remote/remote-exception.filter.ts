import { ArgumentsHost, Catch, ExceptionFilter } from '@nestjs/common';
import type { Response } from 'express';
import { GlobalExceptionFilter } from 'src/common/errors/global-exception.filter';

/**
 * Our error body, plus the `errors: [{code, status, detail}]` array that Wings parses from a
 * panel's failures (wings.md §1.11) and logs.
 */
@Catch()
export class RemoteExceptionFilter implements ExceptionFilter {
  private readonly inner = new GlobalExceptionFilter();

  catch(exception: unknown, host: ArgumentsHost): void {
    const res = host.switchToHttp().getResponse<Response>();
    const json = res.json.bind(res);
    res.json = (body: { statusCode: number; code: string; message: string }) =>
      json({ errors: [{ code: body.code, status: String(body.statusCode), detail: body.message }], ...body });
    this.inner.catch(exception, host);
  }
}
