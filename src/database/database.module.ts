import { Global, Logger, Module, OnApplicationShutdown } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AppConfigService } from 'src/config/app-config.service';
import { createDataSourceOptions } from 'src/database/data-source';
import { AdvisoryLocks } from 'src/database/db-lock';
import { MigrationRunner } from 'src/database/migration-runner';
import { EmbeddedDatabaseLock } from 'src/database/pglite-driver';
import { prepareEmbeddedDataDir } from 'src/database/pglite-template';

const logger = new Logger('EmbeddedDatabase');

/** A new embedded database is a copy of the initdb template (src/database/pglite-template.ts). */
const prepareEmbedded = async (dataDir: string): Promise<void> => {
  const started = Date.now();
  const prepared = await prepareEmbeddedDataDir(dataDir);
  const took = `${Date.now() - started} ms`;
  if (prepared.by === 'template') {
    logger.log(`New embedded database in ${dataDir}, copied from the initdb template (${took})`);
  } else if (prepared.by === 'new-template') {
    logger.log(`New embedded database in ${dataDir}: made the initdb template first, once per PGlite version (${took}; npm run build makes it ahead)`);
  } else if (prepared.by === 'initdb') {
    logger.warn(`New embedded database in ${dataDir} by initdb (${took}): the template could not be made: ${prepared.templateError}`);
  }
};

/** The embedded database's directory, when the panel keeps one on disk. */
const embeddedDataDir = ({ db }: AppConfigService): string | null => (db.kind === 'pglite' && db.dataDir !== 'memory://' ? db.dataDir : null);

@Global()
@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [AppConfigService],
      useFactory: async (config: AppConfigService) => {
        const dataDir = embeddedDataDir(config);
        if (dataDir !== null) {
          new EmbeddedDatabaseLock(dataDir).acquire();
          await prepareEmbedded(dataDir);
        }
        // A server may still be starting (compose); the embedded database either opens or never will.
        return { ...createDataSourceOptions(config), retryAttempts: config.db.kind === 'pglite' ? 0 : 10, retryDelay: 3000 };
      },
    }),
  ],
  providers: [MigrationRunner, AdvisoryLocks],
  exports: [AdvisoryLocks],
})
export class DatabaseModule implements OnApplicationShutdown {
  constructor(private readonly config: AppConfigService) {}

  onApplicationShutdown(): void {
    const dataDir = embeddedDataDir(this.config);
    if (dataDir !== null) {
      new EmbeddedDatabaseLock(dataDir).release();
    }
  }
}
