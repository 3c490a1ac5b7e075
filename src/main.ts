import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppModule } from 'src/app.module';
import { setupApp } from 'src/app.setup';
import { createHttpAdapter } from 'src/common/http/fastify';
import { processConfig } from 'src/config/config.module';
import { ConfigValidationError } from 'src/config/load-config';

const bootstrap = async (): Promise<void> => {
  // Read and validated before anything boots: the HTTP server's options come from it too.
  const config = processConfig();
  const app = await NestFactory.create<NestFastifyApplication>(AppModule, createHttpAdapter(config), {
    bufferLogs: true,
    bodyParser: false,
    abortOnError: false,
  });
  await setupApp(app);
  const { host, port, appUrl } = config.http;
  await app.listen(port, host);
  process.stdout.write(`Hatchery listening on ${host}:${port} (${appUrl})\n`);
};

bootstrap().catch((err: unknown) => {
  // A bad configuration is reported as the list of bad variables, without a stack.
  process.stderr.write(`${err instanceof ConfigValidationError ? err.message : err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
