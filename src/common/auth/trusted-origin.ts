import type { Request } from 'express';

const originOf = (value: string | undefined): string | undefined => {
  if (!value) {
    return undefined;
  }
  try {
    return new URL(value).origin;
  } catch {
    return undefined;
  }
};

/** The request's Origin, or the origin of its Referer when Origin is absent. */
export const requestOrigin = (req: Request): string | undefined =>
  originOf(req.get('origin') ?? undefined) ?? originOf(req.get('referer') ?? undefined);

export const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
