import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type Migration } from 'typeorm';
import type { PostgresConnectionOptions } from 'typeorm/driver/postgres/PostgresConnectionOptions';
import { AppConfigService } from 'src/config/app-config.service';
import { AdvisoryLocks, DatabaseLock } from 'src/database/db-lock';

@Injectable()
export class MigrationRunner implements OnModuleInit {
  private readonly logger = new Logger(MigrationRunner.name);

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly locks: AdvisoryLocks,
    private readonly config: AppConfigService,
  ) {}

  async onModuleInit(): Promise<void> {
    if (!this.config.db.runMigrations) {
      this.logger.log('Migrations skipped (DB_RUN_MIGRATIONS=false)');
      return;
    }
    const applied = await this.locks.run(DatabaseLock.Migrations, () => this.migrate());
    if (applied.length > 0) {
      this.logger.log(`Applied ${applied.length} migration(s): ${applied.map((m) => m.name).join(', ')}`);
    }
  }

  /**
   * Behind a pooler in transaction mode (DATABASE_DIRECT_URL set) the migrations run on a connection of
   * their own to PostgreSQL itself, opened for them and closed after: schema changes do not go through a
   * pool that hands each statement outside a transaction to another session.
   */
  private async migrate(): Promise<Migration[]> {
    const db = this.config.db;
    if (db.kind !== 'postgres' || !db.pooled) {
      return this.dataSource.runMigrations({ transaction: 'each' });
    }
    const options = this.dataSource.options as PostgresConnectionOptions;
    const direct = new DataSource({ ...options, url: db.directUrl, poolSize: 1, applicationName: 'hatchery-migrations', extra: { options: '-c jit=off' } });
    await direct.initialize();
    try {
      return await direct.runMigrations({ transaction: 'each' });
    } finally {
      await direct.destroy();
    }
  }
}
