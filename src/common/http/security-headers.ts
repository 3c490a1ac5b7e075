import fastifyHelmet from '@fastify/helmet';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { CaptchaProvider } from 'src/config/env.schema';

/** The Content-Security-Policy of every response, before the per-request additions below. */
const CONTENT_SECURITY_POLICY: Record<string, string[]> = {
  'default-src': ["'self'"],
  'base-uri': ["'self'"],
  'connect-src': ["'self'"],
  'font-src': ["'self'", 'data:'],
  'form-action': ["'self'"],
  'frame-ancestors': ["'none'"],
  'frame-src': ["'none'"],
  // Swagger UI draws its icons from data: URIs in its stylesheet; the web UI's avatars and QR codes too.
  'img-src': ["'self'", 'data:'],
  'object-src': ["'none'"],
  // Swagger UI and the web UI load only their own bundled scripts; nothing inline (the web UI's
  // colour-scheme script is the file /theme.js for that reason).
  'script-src': ["'self'"],
  'script-src-attr': ["'none'"],
  // Swagger UI's page carries <style> blocks and style attributes; Mantine writes its CSS variables in one.
  'style-src': ["'self'", "'unsafe-inline'"],
};

/** What each CAPTCHA provider's widget loads: its script, its frame, and for hCaptcha its styles and calls. */
const CAPTCHA_SOURCES: Record<CaptchaProvider, Partial<Record<'script-src' | 'frame-src' | 'style-src' | 'connect-src', string[]>>> = {
  turnstile: { 'script-src': ['https://challenges.cloudflare.com'], 'frame-src': ['https://challenges.cloudflare.com'] },
  hcaptcha: {
    'script-src': ['https://hcaptcha.com', 'https://*.hcaptcha.com'],
    'frame-src': ['https://hcaptcha.com', 'https://*.hcaptcha.com'],
    'style-src': ['https://hcaptcha.com', 'https://*.hcaptcha.com'],
    'connect-src': ['https://hcaptcha.com', 'https://*.hcaptcha.com'],
  },
  recaptcha: {
    'script-src': ['https://www.google.com/recaptcha/', 'https://www.gstatic.com/recaptcha/'],
    'frame-src': ['https://www.google.com/recaptcha/', 'https://recaptcha.google.com/recaptcha/'],
  },
};

interface CspSources {
  /** The configured CAPTCHA provider, whose widget the sign-in pages load. */
  captcha?: CaptchaProvider | null;
}

/** The header with these origins added to connect-src; a page's own (PagePolicy). */
type PagePolicy = (connect: readonly string[]) => string;

/** Distinct connect-src lists whose header is kept built; past it the kept ones are dropped and built again. */
const MAX_BUILT_POLICIES = 1_000;

/** The directives for a CAPTCHA provider, before the nodes' origins join connect-src. */
const cspDirectives = (captcha: CaptchaProvider | null | undefined): Record<string, string[]> => {
  const directives = Object.fromEntries(Object.entries(CONTENT_SECURITY_POLICY).map(([k, v]) => [k, [...v]]));
  for (const [name, values] of Object.entries(captcha ? CAPTCHA_SOURCES[captcha] : {})) {
    directives[name] = [...directives[name].filter((v) => v !== "'none'"), ...values];
  }
  return directives;
};

/** The header value, written as helmet writes it (`name value value;name value`). */
const serializeCsp = (directives: Record<string, string[]>): string =>
  Object.entries(directives)
    .map(([name, values]) => [name, ...values].join(' '))
    .join(';');

/**
 * Security headers (nosniff, CSP, frame and referrer policies...) on every response, errors and
 * rate-limit refusals included. Registered before any other onRequest hook that may answer early.
 * The CSP is written by us, not helmet, built once instead of parsed per response. Every response
 * gets connect-src 'self' only: no node's address is named to a caller that has no use for it (the
 * API's JSON, anonymous pages). The web UI's page replaces it with the returned PagePolicy's header
 * for the daemons its caller's console reaches (src/common/http/web-app.ts).
 */
export const registerSecurityHeaders = async (app: NestFastifyApplication, sources: CspSources): Promise<PagePolicy> => {
  await app.register(fastifyHelmet, { contentSecurityPolicy: false, frameguard: { action: 'deny' } });
  // Not helmet's defaults: they add upgrade-insecure-requests, which breaks a panel reached over plain http on a LAN.
  const base = cspDirectives(sources.captcha);
  const header = serializeCsp(base);
  const built = new Map<string, string>();
  const pagePolicy: PagePolicy = (connect) => {
    if (connect.length === 0) {
      return header;
    }
    const key = connect.join(' ');
    let value = built.get(key);
    if (value === undefined) {
      if (built.size >= MAX_BUILT_POLICIES) {
        built.clear();
      }
      value = serializeCsp({ ...base, 'connect-src': [...base['connect-src'], ...connect] });
      built.set(key, value);
    }
    return value;
  };
  app
    .getHttpAdapter()
    .getInstance()
    .addHook('onRequest', (_req, reply, done) => {
      void reply.header('content-security-policy', header);
      done();
    });
  return pagePolicy;
};
