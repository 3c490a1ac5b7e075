import { Injectable } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { IntervalJob } from 'src/common/background/interval-job';
import { JobQueue } from 'src/common/background/job-queue';
import { AppConfigService } from 'src/config/app-config.service';
import { DrainsService } from 'src/modules/servers/transfers/drains.service';
import { TransfersService } from 'src/modules/servers/transfers/transfers.service';

/**
 * The transfer sweeper: every scheduler tick it fails transfers silent past TRANSFER_TIMEOUT_S and
 * moves running drains on. Every process ticks; each transfer is ended by a conditional update of
 * its row under its server's lock, so only one process undoes it.
 */
@Injectable()
export class TransfersCron extends IntervalJob {
  static readonly JOB = 'transfers.sweep';

  constructor(
    private readonly transfers: TransfersService,
    private readonly drains: DrainsService,
    registry: SchedulerRegistry,
    queue: JobQueue,
    config: AppConfigService,
  ) {
    super(TransfersCron.JOB, 'Transfer sweep', config.scheduler.tickMs, registry, config, { queue });
  }

  protected async run(): Promise<void> {
    const failed = await this.transfers.failStale();
    if (failed > 0) {
      this.logger.warn(`Failed ${failed} transfer(s) that timed out`);
    }
    await this.drains.advanceAll();
  }
}
