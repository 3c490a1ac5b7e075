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

/**
 * The refusal of a write from an origin the panel does not trust, naming the address it expects:
 * the usual cause is a panel opened at another address than APP_URL (another port, a LAN address).
 * `trusted` is AppConfigService's list, APP_URL's origin first.
 */
export const untrustedOriginMessage = (trusted: readonly string[], origin: string | undefined): string => {
  const [app, ...others] = trusted;
  const expected = `${app} (APP_URL)${others.length > 0 ? ` or ${others.join(', ')} (TRUSTED_ORIGINS)` : ''}`;
  // The header as sent, cut short and printable: it is echoed back to the caller.
  const came = origin === undefined ? 'named no origin (no Origin or Referer header)' : `came from ${origin.slice(0, 200).replace(/[^\x20-\x7e]/g, '?')}`;
  return `This panel expects requests from ${expected}; this request ${came}. Set APP_URL to the address you open the panel at.`;
};
