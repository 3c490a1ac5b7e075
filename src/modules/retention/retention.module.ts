import { Module } from '@nestjs/common';
import { AuditModule } from 'src/modules/audit/audit.module';
import { EmbeddedVacuumJob } from 'src/modules/retention/embedded-vacuum.job';
import { LogPartitions } from 'src/database/log-partitions';
import { LogRetentionCron } from 'src/modules/retention/log-retention.cron';
import { ServersModule } from 'src/modules/servers/servers.module';

/**
 * What keeps the database from growing without bound: retention of the audit log and the server activity
 * log (docs/configuration.md#log-retention), and on the embedded database the vacuum its missing
 * autovacuum would do.
 */
@Module({
  imports: [AuditModule, ServersModule],
  providers: [LogRetentionCron, LogPartitions, EmbeddedVacuumJob],
})
export class RetentionModule {}
