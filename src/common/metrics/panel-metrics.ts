import { Injectable } from '@nestjs/common';
import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';
import { AppConfigService } from 'src/config/app-config.service';

/** What became of one call to a node's daemon (`hatchery_daemon_requests_total`'s `outcome`). */
export type DaemonOutcome = 'ok' | 'http_error' | 'timeout' | 'unreachable' | 'bad_response';

/** Seconds: from a fast cache hit to a slow daemon call. */
const HTTP_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * The panel's Prometheus metrics (docs/configuration.md#metrics), one registry per process, served by
 * GET /metrics. The counters are cheap (a label lookup and an addition), and when METRICS_TOKEN is
 * unset nothing is counted at all: no scrape can read them. The fleet's gauges are read at scrape time
 * (src/modules/metrics/fleet-metrics.ts), from what the panel already keeps.
 */
@Injectable()
export class PanelMetrics {
  readonly registry = new Registry();
  readonly enabled: boolean;
  private readonly httpRequests = new Counter({
    name: 'hatchery_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
  });
  private readonly httpDuration = new Histogram({
    name: 'hatchery_http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by method and route pattern',
    labelNames: ['method', 'route'] as const,
    buckets: HTTP_BUCKETS,
    registers: [this.registry],
  });
  private readonly daemonRequests = new Counter({
    name: 'hatchery_daemon_requests_total',
    help: "Calls to a node's daemon (Wings), by node id and outcome",
    labelNames: ['node', 'outcome'] as const,
    registers: [this.registry],
  });
  private readonly daemonDuration = new Histogram({
    name: 'hatchery_daemon_request_duration_seconds',
    help: "Time a node's daemon took to answer, by node id",
    labelNames: ['node'] as const,
    buckets: HTTP_BUCKETS,
    registers: [this.registry],
  });
  private readonly scheduleRuns = new Counter({
    name: 'hatchery_schedule_runs_total',
    help: 'Schedule runs ended, by outcome (completed, failed, interrupted, skipped)',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  private readonly webhookAttempts = new Counter({
    name: 'hatchery_webhook_attempts_total',
    help: 'Webhook delivery attempts, by outcome (delivered, retrying, failed)',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  constructor(config: AppConfigService) {
    this.enabled = config.metrics.token !== null;
    if (this.enabled) {
      collectDefaultMetrics({ register: this.registry });
      // prom-client keeps these gauges also under `_total`, a suffix Prometheus reserves for counters
      // (promtool refuses them); the same values stay under nodejs_active_handles, _requests, _resources.
      for (const duplicate of ['nodejs_active_handles_total', 'nodejs_active_requests_total', 'nodejs_active_resources_total']) {
        this.registry.removeSingleMetric(duplicate);
      }
    }
  }

  httpRequest(method: string, route: string, status: number, seconds: number): void {
    this.httpRequests.inc({ method, route, status: String(status) });
    this.httpDuration.observe({ method, route }, seconds);
  }

  daemonCall(nodeId: string, outcome: DaemonOutcome, seconds: number): void {
    if (!this.enabled) {
      return;
    }
    this.daemonRequests.inc({ node: nodeId, outcome });
    this.daemonDuration.observe({ node: nodeId }, seconds);
  }

  scheduleRun(outcome: 'completed' | 'failed' | 'interrupted' | 'skipped'): void {
    if (this.enabled) {
      this.scheduleRuns.inc({ outcome });
    }
  }

  /** One attempt of a webhook delivery: delivered, to be tried again, or given up. */
  webhookAttempt(outcome: 'delivered' | 'retrying' | 'failed'): void {
    if (this.enabled) {
      this.webhookAttempts.inc({ outcome });
    }
  }
}
