import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { AppModule } from 'src/app.module';
import { setupApp } from 'src/app.setup';
import { AppConfigService } from 'src/config/app-config.service';
import { ConfigValidationError } from 'src/config/load-config';

const bootstrap = async (): Promise<void> => {
  const app = await NestFactory.create<NestExpressApplication>(AppModule, {
    bufferLogs: true,
    bodyParser: false,
    abortOnError: false,
  });
  setupApp(app);
  const { host, port, appUrl } = app.get(AppConfigService).http;
  await app.listen(port, host);
  process.stdout.write(`Hatchery listening on ${host}:${port} (${appUrl})\n`);
};

bootstrap().catch((err: unknown) => {
  // A bad configuration is reported as the list of bad variables, without a stack.
  process.stderr.write(`${err instanceof ConfigValidationError ? err.message : err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
