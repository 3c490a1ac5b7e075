import { Module } from '@nestjs/common';
import { DaemonGatewayModule } from 'src/modules/daemon-gateway/daemon-gateway.module';
import { NodesModule } from 'src/modules/nodes/nodes.module';
import { ServersModule } from 'src/modules/servers/servers.module';
import { NodeUsageHistoryController, ServerUsageHistoryController } from 'src/modules/usage/usage-history.controller';
import { UsageHistoryService } from 'src/modules/usage/usage-history.service';
import { FleetAlerts } from 'src/modules/usage/fleet-alerts';
import { UsagePartitions } from 'src/modules/usage/usage-partitions';
import { UsageSamplerJob } from 'src/modules/usage/usage-sampler.job';
import { UsageRepository } from 'src/modules/usage/usage.repository';

/** Usage history: the sampler, its partitioned tables and the history routes (docs/api.md#usage-history). */
@Module({
  imports: [DaemonGatewayModule, NodesModule, ServersModule],
  controllers: [ServerUsageHistoryController, NodeUsageHistoryController],
  providers: [FleetAlerts, UsagePartitions, UsageRepository, UsageSamplerJob, UsageHistoryService],
  exports: [UsageHistoryService],
})
export class UsageModule {}
