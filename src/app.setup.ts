import type { NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import cookieParser from 'cookie-parser';
import { Logger } from 'nestjs-pino';
import { SESSION_COOKIE } from 'src/common/auth/authenticated.decorator';
import { bodyParserErrors } from 'src/common/http/body-parser-errors';
import { requestIdMiddleware } from 'src/common/http/request-id.middleware';
import { GlobalExceptionFilter } from 'src/common/errors/global-exception.filter';
import { createValidationPipe } from 'src/common/validation/validation.pipe';
import { AppConfigService } from 'src/config/app-config.service';

/** Everything global about the HTTP app; shared by main.ts and every e2e test. */
export const setupApp = (app: NestExpressApplication): NestExpressApplication => {
  const config = app.get(AppConfigService);
  app.useLogger(app.get(Logger));
  app.set('trust proxy', config.http.trustedProxies.length > 0 ? config.http.trustedProxies : false);
  app.disable('x-powered-by');
  app.use(requestIdMiddleware);
  app.use(cookieParser());
  app.useBodyParser('json', { limit: '1mb' });
  app.use(bodyParserErrors);
  app.useGlobalPipes(createValidationPipe());
  app.useGlobalFilters(new GlobalExceptionFilter());
  app.enableShutdownHooks();

  const document = SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle('Hatchery')
      .setDescription('The Hatchery game-server panel API')
      .setVersion('1')
      .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'API key' })
      .addApiKey({ type: 'apiKey', in: 'header', name: 'x-api-key' }, 'api-key')
      .addCookieAuth(SESSION_COOKIE)
      .build(),
  );
  SwaggerModule.setup('api/docs', app, document, { jsonDocumentUrl: 'api/docs.json', yamlDocumentUrl: 'api/docs.yaml' });
  return app;
};
