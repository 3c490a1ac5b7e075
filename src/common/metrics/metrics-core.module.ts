import { Global, Module } from '@nestjs/common';
import { PanelMetrics } from 'src/common/metrics/panel-metrics';

/** The process's metrics registry, for every module that counts something (docs/configuration.md#metrics). */
@Global()
@Module({ providers: [PanelMetrics], exports: [PanelMetrics] })
export class MetricsCoreModule {}
