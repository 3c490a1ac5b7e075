import { headerOf, HttpRequest } from 'src/common/http/http';

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

/**
 * The request's Origin, or the origin of its Referer when Origin is absent. An Origin that is sent
 * but names no origin (`null` from a sandboxed frame or a redirect, or garbage) is returned as sent,
 * so that it is refused as untrusted rather than read as absent.
 */
export const requestOrigin = (req: HttpRequest): string | undefined => {
  const origin = headerOf(req, 'origin');
  if (origin !== undefined) {
    return originOf(origin) ?? origin;
  }
  return originOf(headerOf(req, 'referer'));
};

export const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
