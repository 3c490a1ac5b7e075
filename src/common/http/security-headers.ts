import fastifyHelmet from '@fastify/helmet';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';

/**
 * The Content-Security-Policy of every response: the one place to widen when the web UI arrives
 * (its console will need the daemons' wss:// origins in connect-src, for instance).
 */
const CONTENT_SECURITY_POLICY: Record<string, string[]> = {
  'default-src': ["'self'"],
  'base-uri': ["'self'"],
  'connect-src': ["'self'"],
  'font-src': ["'self'", 'data:'],
  'form-action': ["'self'"],
  'frame-ancestors': ["'none'"],
  // Swagger UI draws its icons from data: URIs in its stylesheet.
  'img-src': ["'self'", 'data:'],
  'object-src': ["'none'"],
  // Swagger UI loads only its own bundled scripts; nothing inline.
  'script-src': ["'self'"],
  'script-src-attr': ["'none'"],
  // Swagger UI's page carries <style> blocks and style attributes.
  'style-src': ["'self'", "'unsafe-inline'"],
};

/**
 * Security headers (nosniff, CSP, frame and referrer policies...) on every response, errors and
 * rate-limit refusals included. Registered before any other onRequest hook that may answer early.
 */
export const registerSecurityHeaders = async (app: NestFastifyApplication): Promise<void> => {
  await app.register(fastifyHelmet, {
    contentSecurityPolicy: {
      // Not helmet's defaults: they add upgrade-insecure-requests, which breaks a panel reached over plain http on a LAN.
      useDefaults: false,
      directives: CONTENT_SECURITY_POLICY,
    },
    frameguard: { action: 'deny' },
  });
};
