import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';

const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Gives each request an id before anything else runs (body parsing included), so every error body
 * and log line can carry it. A caller's own `x-request-id` is kept when it is safe to echo.
 */
export const requestIdMiddleware = (req: Request & { id?: string }, res: Response, next: NextFunction): void => {
  const incoming = req.headers['x-request-id'];
  req.id = typeof incoming === 'string' && SAFE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
  res.setHeader('x-request-id', req.id);
  next();
};
