import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import type { Actor } from 'src/common/auth/current-actor.decorator';
import { Clock } from 'src/common/clock';
import { HotCaches } from 'src/common/hot-cache/hot-caches';
import { Reloader } from 'src/common/hot-cache/reloader';
import { AuditService, changedFields } from 'src/modules/audit/audit.service';
import { DEFAULT_PANEL_SETTINGS, heldForTwoFactorSetup, PanelSettingValues, SETTING_KEYS, settingsFromRows } from 'src/modules/settings/panel-settings';
import { PanelSettingsRepository } from 'src/modules/settings/panel-settings.repository';
import { errorMessage } from 'src/common/errors/error-message';

/**
 * The run-time settings, held in memory by every process so that a request reads them without a
 * query (the two-factor policy is read on every authenticated request): loaded at boot, and reloaded
 * after every change to `panel_setting` this process or another makes (HotCaches.onChange: the
 * TypeORM subscriber here, the change feed from the others, and again whenever the feed reconnects).
 */
@Injectable()
export class PanelSettings implements OnApplicationBootstrap {
  private readonly logger = new Logger(PanelSettings.name);
  private values: Readonly<PanelSettingValues> = DEFAULT_PANEL_SETTINGS;
  private readonly loads = new Reloader(
    async () => {
      const { values, invalid } = settingsFromRows(await this.repo.findAll());
      if (invalid.length > 0) {
        this.logger.warn(`invalid stored settings read as their defaults: ${invalid.join(', ')}`);
      }
      this.values = Object.freeze(values);
    },
    (err: unknown) => this.logger.warn(`settings not reloaded: ${errorMessage(err)}`),
  );

  constructor(
    private readonly repo: PanelSettingsRepository,
    private readonly audit: AuditService,
    private readonly clock: Clock,
    caches: HotCaches,
  ) {
    caches.onChange('panel_setting', () => void this.reload());
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.reload();
  }

  current(): Readonly<PanelSettingValues> {
    return this.values;
  }

  /** Whether the two-factor policy in force holds `user` at setup (heldForTwoFactorSetup). */
  holdsForTwoFactorSetup(user: Parameters<typeof heldForTwoFactorSetup>[1]): boolean {
    return heldForTwoFactorSetup(this.values.twoFactorPolicy, user);
  }

  /** Applies the given settings in one transaction with their audit entry; answers the settings now in force. */
  async update(patch: Partial<PanelSettingValues>, actor: Actor): Promise<Readonly<PanelSettingValues>> {
    const keys = SETTING_KEYS.filter((key) => patch[key] !== undefined);
    await this.repo.transaction(async (manager) => {
      const before = settingsFromRows(await this.repo.findAllForUpdate(manager)).values;
      const after: PanelSettingValues = { ...before, ...patch };
      const changes = changedFields(before, after, keys);
      if (Object.keys(changes.after).length === 0) {
        return;
      }
      const now = this.clock.now();
      await this.repo.save(
        Object.keys(changes.after).map((key) => ({ key, value: after[key as keyof PanelSettingValues], updatedAt: now })),
        manager,
      );
      await this.audit.record(manager, actor, { action: 'settings.updated', targetType: 'settings', targetId: 'panel', changes });
    });
    await this.loads.refresh();
    return this.values;
  }

  /** Resolves once no load is running (tests: after a change another process made). */
  settled(): Promise<void> {
    return this.loads.settled();
  }

  /** Loads the settings again (one load at a time); a failed load keeps the last values and is logged. */
  reload(): Promise<void> {
    return this.loads.reload();
  }
}
