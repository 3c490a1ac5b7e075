import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, getSchemaPath, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { SESSION_COOKIE } from 'src/common/auth/authenticated.decorator';
import { ErrorResponseDto } from 'src/common/errors/error-response';

/**
 * The OpenAPI document of the HTTP API: served at /api/docs.json (app.setup.ts) and printed by
 * `node dist/openapi-document.js`, from which `npm run gen:api` writes the web UI's client types.
 */
export const createOpenApiDocument = (app: INestApplication): OpenAPIObject =>
  SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle('Hatchery')
      .setDescription('The Hatchery game-server panel API')
      .setVersion('1')
      .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'API key' })
      .addApiKey({ type: 'apiKey', in: 'header', name: 'x-api-key' }, 'api-key')
      .addCookieAuth(SESSION_COOKIE)
      .addGlobalResponse(
        { status: '4XX', description: 'Refused: the error shape of docs/api.md#errors', schema: { $ref: getSchemaPath(ErrorResponseDto) } },
        { status: '5XX', description: 'Failed: the error shape of docs/api.md#errors', schema: { $ref: getSchemaPath(ErrorResponseDto) } },
      )
      .build(),
    { extraModels: [ErrorResponseDto] },
  );
