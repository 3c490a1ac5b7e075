import { Global, Module, OnApplicationShutdown } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AppConfigService } from 'src/config/app-config.service';
import { createDataSourceOptions } from 'src/database/data-source';
import { MigrationRunner } from 'src/database/migration-runner';
import { EmbeddedDatabaseLock } from 'src/database/pglite-driver';

const embeddedLock = (config: AppConfigService): EmbeddedDatabaseLock | null =>
  config.db.kind === 'pglite' && config.db.dataDir !== 'memory://' ? new EmbeddedDatabaseLock(config.db.dataDir) : null;

@Global()
@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [AppConfigService],
      useFactory: (config: AppConfigService) => {
        embeddedLock(config)?.acquire();
        // A server may still be starting (compose); the embedded database either opens or never will.
        return { ...createDataSourceOptions(config), retryAttempts: config.db.kind === 'pglite' ? 0 : 10, retryDelay: 3000 };
      },
    }),
  ],
  providers: [MigrationRunner],
})
export class DatabaseModule implements OnApplicationShutdown {
  constructor(private readonly config: AppConfigService) {}

  onApplicationShutdown(): void {
    embeddedLock(this.config)?.release();
  }
}
