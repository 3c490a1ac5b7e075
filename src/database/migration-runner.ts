import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppConfigService } from 'src/config/app-config.service';
import { DatabaseLock, withAdvisoryLock } from 'src/database/db-lock';

@Injectable()
export class MigrationRunner implements OnModuleInit {
  private readonly logger = new Logger(MigrationRunner.name);

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly config: AppConfigService,
  ) {}

  async onModuleInit(): Promise<void> {
    if (!this.config.db.runMigrations) {
      this.logger.log('Migrations skipped (DB_RUN_MIGRATIONS=false)');
      return;
    }
    const applied = await withAdvisoryLock(this.dataSource, DatabaseLock.Migrations, () =>
      this.dataSource.runMigrations({ transaction: 'each' }),
    );
    if (applied.length > 0) {
      this.logger.log(`Applied ${applied.length} migration(s): ${applied.map((m) => m.name).join(', ')}`);
    }
  }
}
