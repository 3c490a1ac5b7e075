import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditModule } from 'src/modules/audit/audit.module';
import { AdminSettingsController } from 'src/modules/settings/admin-settings.controller';
import { PanelSettingEntity } from 'src/modules/settings/panel-setting.entity';
import { PanelSettings } from 'src/modules/settings/panel-settings.service';
import { PanelSettingsRepository } from 'src/modules/settings/panel-settings.repository';
import { SettingsController } from 'src/modules/settings/settings.controller';

/**
 * The panel's settings: the public ones the web pages read before sign-in (from the configuration),
 * and those administrators change at run time (PanelSettings). Global: the auth guard reads the
 * two-factor policy on every request.
 */
@Global()
@Module({
  imports: [TypeOrmModule.forFeature([PanelSettingEntity]), AuditModule],
  controllers: [SettingsController, AdminSettingsController],
  providers: [PanelSettings, PanelSettingsRepository],
  exports: [PanelSettings],
})
export class SettingsModule {}
