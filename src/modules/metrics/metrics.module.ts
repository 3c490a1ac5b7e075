import { Module } from '@nestjs/common';
import { FleetMetrics } from 'src/modules/metrics/fleet-metrics';
import { MetricsController } from 'src/modules/metrics/metrics.controller';
import { NodesModule } from 'src/modules/nodes/nodes.module';
import { ServersModule } from 'src/modules/servers/servers.module';
import { UsageModule } from 'src/modules/usage/usage.module';

/** `GET /metrics` and the fleet's gauges (docs/configuration.md#metrics); the counters are MetricsCoreModule's. */
@Module({
  imports: [NodesModule, ServersModule, UsageModule],
  controllers: [MetricsController],
  providers: [FleetMetrics],
})
export class MetricsModule {}
