import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { pterodactylAdminRedirect } from 'src/common/http/pterodactyl-admin-paths';

/** Route config of the web UI's routes: the rate limiter leaves them alone (app.setup.ts). */
const WEB_APP = { webApp: true };

const ONE_YEAR_MS = 365 * 24 * 60 * 60 * 1000;

/** `/api`, `/pterodactyl` and everything under them are the API's, found or not: never the web UI. */
export const isApiPath = (url: string): boolean =>
  [/^\/api(?:[/?]|$)/, /^\/pterodactyl(?:[/?]|$)/].some((prefix) => prefix.test(url));

/** Whether the request matched one of the web UI's routes (an unknown /api path matches its catch-all too). */
export const isWebAppRoute = (req: FastifyRequest): boolean => (req.routeOptions.config as { webApp?: boolean } | undefined)?.webApp === true;

/**
 * The content-security policy of the web UI's page for this request (the daemons its caller may reach),
 * or undefined to keep the one every response has.
 */
type PageCsp = (req: FastifyRequest) => Promise<string | undefined>;

/**
 * Serves the built web UI (`npm run build` → dist/web) from the panel itself:
 * - `/assets/*`: Vite's content-hashed files, cached for a year (`immutable`), pre-compressed
 *   `.br`/`.gz` siblings sent to browsers that accept them;
 * - the other files of the directory's top level (theme.js, favicon) revalidated on each use;
 * - `index.html` for every other GET that is not under `/api`, so a reload on `/server/1/files` works;
 *   never cached, so a new build is picked up at once, with `pageCsp`'s policy: the page is where the
 *   console's WebSocket to a node is opened from, so only it names nodes in connect-src;
 * - a 302 from Pterodactyl's admin addresses (`/admin/servers/view/{id}`…) to ours.
 * Unknown `/api/*` paths still get the API's JSON 404. Without `dir/index.html` (no web build), nothing
 * is registered and the panel is the API alone.
 */
export const registerWebApp = async (app: NestFastifyApplication, dir: string, pageCsp: PageCsp): Promise<boolean> => {
  if (!existsSync(join(dir, 'index.html'))) {
    return false;
  }
  const topLevel = new Set(
    readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isFile() && e.name !== 'index.html' && !/\.(br|gz)$/.test(e.name))
      .map((e) => e.name),
  );
  await app.register(fastifyStatic, { root: dir, serve: false, preCompressed: true });
  const fastify = app.getHttpAdapter().getInstance();

  const sendIndex = async (req: FastifyRequest, reply: FastifyReply) => {
    const csp = await pageCsp(req);
    if (csp !== undefined) {
      void reply.header('content-security-policy', csp);
    }
    void reply.header('cache-control', 'no-cache');
    return reply.sendFile('index.html', { cacheControl: false });
  };

  fastify.get('/assets/*', { config: WEB_APP }, (req, reply) => {
    const file = (req.params as { '*': string })['*'];
    return reply.sendFile(`assets/${file}`, { maxAge: ONE_YEAR_MS, immutable: true });
  });
  fastify.get('/*', { config: WEB_APP }, async (req, reply) => {
    if (isApiPath(req.url)) {
      return reply.callNotFound();
    }
    const name = (req.params as { '*': string })['*'];
    if (topLevel.has(name)) {
      void reply.header('cache-control', 'no-cache');
      return reply.sendFile(name, { cacheControl: false });
    }
    // Pterodactyl's admin addresses (billing modules link to them) go to ours before the SPA sees them.
    const ours = pterodactylAdminRedirect(req.url);
    if (ours) {
      return reply.redirect(ours, 302);
    }
    return sendIndex(req, reply);
  });
  return true;
};
