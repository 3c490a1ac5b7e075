import { Module } from '@nestjs/common';
import { AuditModule } from 'src/modules/audit/audit.module';
import { LogRetentionCron } from 'src/modules/retention/log-retention.cron';
import { ServersModule } from 'src/modules/servers/servers.module';

/** Retention of the audit log and the server activity log (docs/configuration.md#log-retention). */
@Module({
  imports: [AuditModule, ServersModule],
  providers: [LogRetentionCron],
})
export class RetentionModule {}
