import { Module } from '@nestjs/common';
import { SettingsController } from 'src/modules/settings/settings.controller';

/** The public settings route; it only reads the configuration. */
@Module({ controllers: [SettingsController] })
export class SettingsModule {}
