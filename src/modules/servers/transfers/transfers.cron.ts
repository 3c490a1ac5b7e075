import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { AppConfigService } from 'src/config/app-config.service';
import { DrainsService } from 'src/modules/servers/transfers/drains.service';
import { TransfersService } from 'src/modules/servers/transfers/transfers.service';

/**
 * The transfer sweeper: every scheduler tick it fails transfers silent past TRANSFER_TIMEOUT_S and
 * moves running drains on. Every process ticks; each transfer is ended by a conditional update of
 * its row under its server's lock, so only one process undoes it. Off with SCHEDULER_ENABLED=false
 * (the default under NODE_ENV=test, where tests call `tick`).
 */
@Injectable()
export class TransfersCron implements OnApplicationBootstrap, OnModuleDestroy {
  static readonly JOB = 'transfers.sweep';
  private readonly logger = new Logger(TransfersCron.name);
  private ticking = false;

  constructor(
    private readonly transfers: TransfersService,
    private readonly drains: DrainsService,
    private readonly registry: SchedulerRegistry,
    private readonly config: AppConfigService,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.config.scheduler.enabled) {
      return;
    }
    this.registry.addInterval(
      TransfersCron.JOB,
      setInterval(() => void this.tick(), this.config.scheduler.tickMs),
    );
  }

  onModuleDestroy(): void {
    if (this.registry.doesExist('interval', TransfersCron.JOB)) {
      this.registry.deleteInterval(TransfersCron.JOB);
    }
  }

  /** Never throws and never overlaps itself. */
  async tick(now?: Date): Promise<void> {
    if (this.ticking) {
      return;
    }
    this.ticking = true;
    try {
      const failed = await this.transfers.failStale(now);
      if (failed > 0) {
        this.logger.warn(`Failed ${failed} transfer(s) that timed out`);
      }
      await this.drains.advanceAll();
    } catch (e) {
      this.logger.error(`Transfer sweep failed: ${e instanceof Error ? e.message : String(e)}`);
    } finally {
      this.ticking = false;
    }
  }
}
