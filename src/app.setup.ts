import fastifyCookie from '@fastify/cookie';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { SwaggerModule } from '@nestjs/swagger';
import { PanelLogger } from 'src/common/logging/logging.module';
import { GlobalExceptionFilter } from 'src/common/errors/global-exception.filter';
import { installBodyParsers, installErrorHandler, installGracefulClose } from 'src/common/http/fastify';
import { registerSecurityHeaders } from 'src/common/http/security-headers';
import { FastifyWsAdapter } from 'src/common/http/ws-adapter';
import { isApiPath, isWebAppRoute, registerWebApp } from 'src/common/http/web-app';
import { Draining } from 'src/common/shutdown/draining';
import { AuthService } from 'src/modules/auth/auth.service';
import { ServerNodeOrigins } from 'src/modules/servers/server-node-origins';
import { RateLimitGuard } from 'src/modules/auth/rate-limit.guard';
import { isUnguarded } from 'src/common/rate-limit/rate-limit.rules';
import { createValidationPipe } from 'src/common/validation/validation.pipe';
import { AppConfigService } from 'src/config/app-config.service';
import { createOpenApiDocument } from 'src/openapi';
import { PanelMetrics } from 'src/common/metrics/panel-metrics';

/**
 * Everything global about the HTTP app; shared by main.ts and every e2e test. The app is created
 * with `createHttpAdapter` (src/common/http/fastify.ts) and `bodyParser: false`.
 */
export const setupApp = async (app: NestFastifyApplication): Promise<NestFastifyApplication> => {
  app.useLogger(app.get(PanelLogger));
  const fastify = app.getHttpAdapter().getInstance();
  const config = app.get(AppConfigService);
  // First: it covers the routes registered after it.
  installErrorHandler(fastify, config);
  installBodyParsers(fastify);
  installGracefulClose(fastify);
  await app.register(fastifyCookie);
  const pagePolicy = await registerSecurityHeaders(app, { captcha: config.captcha?.provider });
  fastify.addHook('onRequest', (req, reply, done) => {
    void reply.header('x-request-id', req.id);
    done();
  });
  // Requests by route and status for GET /metrics; not even looked at while METRICS_TOKEN is unset.
  const metrics = app.get(PanelMetrics);
  if (metrics.enabled) {
    fastify.addHook('onResponse', (req, reply, done) => {
      metrics.httpRequest(req.method, req.routeOptions.url ?? 'unmatched', reply.statusCode, reply.elapsedTime / 1000);
      done();
    });
  }
  // RateLimitGuard counts requests to controllers. Requests no guard runs for (no route matched, the
  // API docs, a body Fastify could not read) are counted here.
  const limiter = app.get(RateLimitGuard);
  fastify.addHook('onRequest', async (req, reply) => {
    // The web UI's files are not counted: one page load fetches a dozen of them. An /api path that
    // reached the web UI's catch-all route is an unknown API path, counted as such.
    if (isWebAppRoute(req) ? isApiPath(req.url) : isUnguarded(req.routeOptions.url)) {
      await limiter.countUnguarded(req, reply);
    }
  });
  fastify.addHook('onError', async (req, reply) => {
    // The request is refused already; a limit it goes over shows in the headers and on the next one.
    await limiter.countUnguarded(req, reply).catch(() => undefined);
  });
  // WebSocket upgrades (the live-status socket, /api/ws) are routed through Fastify like any request.
  app.useWebSocketAdapter(new FastifyWsAdapter(fastify));
  app.useGlobalPipes(createValidationPipe());
  app.useGlobalFilters(new GlobalExceptionFilter(config.db));
  app.get(Draining).listen(app, config.http.drainMs);

  // Built on the first request to /api/docs, not at boot: it is a large object few processes ever serve.
  const document = () => createOpenApiDocument(app);
  // Off: /api/docs, /api/docs.json and /api/docs.yaml are not registered and answer 404 like any unknown path.
  if (config.docs.enabled) {
    SwaggerModule.setup('api/docs', app, document, { jsonDocumentUrl: 'api/docs.json', yamlDocumentUrl: 'api/docs.yaml' });
  }
  // The web UI's page names the daemons of the servers its caller can open (the console connects to them);
  // anonymous, or when that cannot be read now, it keeps the policy every response has.
  const auth = app.get(AuthService);
  const serverNodes = app.get(ServerNodeOrigins);
  await registerWebApp(app, config.web.dir, async (req) => {
    const held = auth.heldCredential(req);
    const caller = held && (await auth.recheck(held).catch(() => null));
    return caller ? pagePolicy(await serverNodes.forCaller(caller).catch(() => [])) : undefined;
  });
  return app;
};
