import { createHash, timingSafeEqual } from 'node:crypto';
import { Controller, Get, Headers, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Public } from 'src/common/auth/authenticated.decorator';
import { AppException } from 'src/common/errors/app.exception';
import { CommonError } from 'src/common/errors/error-codes';
import type { HttpReply } from 'src/common/http/http';
import { PanelMetrics } from 'src/common/metrics/panel-metrics';
import { AppConfigService } from 'src/config/app-config.service';
import { FleetMetrics } from 'src/modules/metrics/fleet-metrics';

const digest = (value: string): Buffer => createHash('sha256').update(value).digest();

/**
 * `GET /metrics` in the Prometheus text format (docs/configuration.md#metrics), for a scraper holding
 * METRICS_TOKEN; not there at all (404, as any unknown path) while that is unset. Outside the
 * OpenAPI document: it is not part of the JSON API.
 */
@ApiExcludeController()
@Controller('metrics')
export class MetricsController {
  private readonly token: Buffer | null;

  constructor(
    private readonly metrics: PanelMetrics,
    private readonly fleet: FleetMetrics,
    config: AppConfigService,
  ) {
    this.token = config.metrics.token === null ? null : digest(config.metrics.token);
  }

  @Get()
  @Public()
  async scrape(@Headers('authorization') authorization: string | undefined, @Res({ passthrough: true }) reply: HttpReply): Promise<string> {
    if (this.token === null) {
      throw new AppException(CommonError.ROUTE_NOT_FOUND);
    }
    const presented = /^Bearer (.+)$/.exec(authorization ?? '')?.[1];
    // Compared as digests, so neither the length nor the bytes of the token leak through the time taken.
    if (presented === undefined || !timingSafeEqual(digest(presented), this.token)) {
      void reply.header('www-authenticate', 'Bearer realm="metrics"');
      throw new AppException(CommonError.UNAUTHENTICATED);
    }
    await this.fleet.refresh();
    void reply.header('content-type', this.metrics.registry.contentType);
    return this.metrics.registry.metrics();
  }
}
