import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { AppModule } from 'src/app.module';
import { createHttpAdapter } from 'src/common/http/fastify';
import { AppConfigService } from 'src/config/app-config.service';
import { createOpenApiDocument } from 'src/openapi';

// `node dist/openapi-document.js` prints the API's OpenAPI document (JSON) without a database or a
// port: preview mode registers every controller without creating any provider, so nothing connects.
// `npm run gen:api` (web/scripts/gen-api.mjs) turns it into the web UI's client types.
const print = async (): Promise<void> => {
  const app = await NestFactory.create(AppModule, createHttpAdapter(AppConfigService.fromEnv({})), { preview: true, logger: false, abortOnError: false });
  try {
    process.stdout.write(`${JSON.stringify(createOpenApiDocument(app), null, 2)}\n`);
  } finally {
    await app.close();
  }
};

print().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
