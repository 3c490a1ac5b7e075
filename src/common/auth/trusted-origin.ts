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

/** The request's Origin, or the origin of its Referer when Origin is absent. */
export const requestOrigin = (req: HttpRequest): string | undefined => originOf(headerOf(req, 'origin')) ?? originOf(headerOf(req, 'referer'));

export const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
