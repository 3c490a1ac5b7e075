import { Module } from '@nestjs/common';
import { Draining } from 'src/common/shutdown/draining';
import { EggsModule } from 'src/modules/eggs/eggs.module';
import { AdminOverviewController } from 'src/modules/health/admin-overview.controller';
import { AdminOverviewService } from 'src/modules/health/admin-overview.service';
import { HealthController } from 'src/modules/health/health.controller';
import { MailModule } from 'src/modules/mail/mail.module';
import { NodesModule } from 'src/modules/nodes/nodes.module';
import { ServersModule } from 'src/modules/servers/servers.module';
import { UsersModule } from 'src/modules/users/users.module';

@Module({
  imports: [UsersModule, NodesModule, EggsModule, ServersModule, MailModule],
  controllers: [HealthController, AdminOverviewController],
  providers: [AdminOverviewService, Draining],
  exports: [Draining],
})
export class HealthModule {}
