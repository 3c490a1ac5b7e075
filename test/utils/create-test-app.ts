import type { INestApplication, Type } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Test } from '@nestjs/testing';
import type { DestinationStream } from 'pino';
import request from 'supertest';
import { AppModule } from 'src/app.module';
import { setupApp } from 'src/app.setup';
import { Clock } from 'src/common/clock';
import { createHttpAdapter } from 'src/common/http/fastify';
import { LOG_STREAM } from 'src/common/logging/logging.module';
import { AppConfigService } from 'src/config/app-config.service';
import { FakeClock } from 'test/utils/fake-clock';
import { copyPgliteTemplate } from 'test/setup/pglite-template';
import { createTestDatabase, DbKind } from 'test/utils/test-db';

const TEST_APP_URL = 'http://panel.test';
export const TEST_ORIGIN = TEST_APP_URL;

export interface TestAppOptions {
  /** `external`: the caller passes DATABASE_URL in `env` and owns that database. */
  db?: DbKind | 'external';
  env?: Record<string, string>;
  logStream?: DestinationStream;
  /** Extra controllers, for tests of the global guard and filter themselves. */
  controllers?: Type[];
  /** Providers replaced by a value, e.g. an `OutboundPolicy` that may reach a local test server. */
  overrides?: { provide: unknown; useValue: unknown }[];
  /** Sees every answer (Fastify's onResponse hook), e.g. to learn which routes a test reached. */
  onResponse?: (req: FastifyRequest, reply: FastifyReply) => void;
}

export interface TestApp {
  app: INestApplication;
  clock: FakeClock;
  http: () => ReturnType<typeof request>;
  close: () => Promise<void>;
}

/** Boots the real AppModule with setupApp, on its own database, with a hand-moved clock. */
export const createTestApp = async (options: TestAppOptions = {}): Promise<TestApp> => {
  const db = options.db ?? 'postgres';
  const database = db === 'postgres' ? await createTestDatabase() : undefined;
  // A copy of the migrated embedded database made by global setup (test/setup/pglite-template.ts).
  const embedded = db === 'pglite' && !options.env?.PGLITE_DIR ? copyPgliteTemplate() : undefined;
  const env: Record<string, string> = {
    NODE_ENV: 'test',
    APP_URL: TEST_APP_URL,
    APP_KEY: 'test-app-key-0123456789-abcdefghijklmnop',
    LOG_LEVEL: options.logStream ? 'info' : (process.env.HATCHERY_TEST_LOG_LEVEL ?? 'silent'),
    ...(database ? { DATABASE_URL: database.url, DB_RUN_MIGRATIONS: 'false' } : {}),
    ...(embedded ? { PGLITE_DIR: embedded.dir } : {}),
    // Tests sign in many times from one address; the rate-limit tests turn the limits back on.
    RATE_LIMIT_ENABLED: 'false',
    // Cheap argon2id (the defaults cost ~100 ms of CPU per sign-in); password.hasher.spec checks the defaults.
    PASSWORD_HASH_MEMORY_KIB: '1024',
    PASSWORD_HASH_TIME_COST: '1',
    PASSWORD_HASH_PARALLELISM: '1',
    ...options.env,
  };
  const clock = new FakeClock();
  const config = AppConfigService.fromEnv(env);
  let builder = Test.createTestingModule({ imports: [AppModule], controllers: options.controllers ?? [] })
    .overrideProvider(AppConfigService)
    .useValue(config)
    .overrideProvider(Clock)
    .useValue(clock);
  if (options.logStream) {
    builder = builder.overrideProvider(LOG_STREAM).useValue(options.logStream);
  }
  for (const { provide, useValue } of options.overrides ?? []) {
    builder = builder.overrideProvider(provide).useValue(useValue);
  }
  const moduleRef = await builder.compile();
  const app = moduleRef.createNestApplication<NestFastifyApplication>(createHttpAdapter(config), { bodyParser: false, bufferLogs: true });
  await setupApp(app);
  if (options.onResponse) {
    const observe = options.onResponse;
    app.getHttpAdapter().getInstance().addHook('onResponse', (req, reply, done) => {
      observe(req, reply);
      done();
    });
  }
  await app.init();
  await app.getHttpAdapter().getInstance().ready();
  const server = app.getHttpServer();
  return {
    app,
    clock,
    http: () => request(server),
    close: async () => {
      await app.close();
      await database?.drop();
      embedded?.remove();
    },
  };
};
