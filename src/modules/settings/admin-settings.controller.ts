import { Body, Controller, Get, Patch } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { AdminScope } from 'src/common/auth/admin-scope';
import { Authenticated } from 'src/common/auth/authenticated.decorator';
import { Actor, CurrentActor } from 'src/common/auth/current-actor.decorator';
import { ApiData } from 'src/common/http/api-responses';
import { AdminSettingsDto, UpdateAdminSettingsDto } from 'src/modules/settings/dto/admin-settings.dto';
import { PanelSettings } from 'src/modules/settings/panel-settings.service';

/** The settings administrators change at run time; the rest is the panel's configuration (docs/configuration.md). */
@ApiTags('admin: settings')
@Controller('api/admin/settings')
export class AdminSettingsController {
  constructor(private readonly settings: PanelSettings) {}

  @Get()
  @Authenticated({ admin: AdminScope.SETTINGS_READ })
  @ApiData(AdminSettingsDto)
  get(): { data: AdminSettingsDto } {
    return { data: { ...this.settings.current() } };
  }

  @Patch()
  @Authenticated({ admin: AdminScope.SETTINGS_WRITE })
  @ApiData(AdminSettingsDto)
  async update(@Body() dto: UpdateAdminSettingsDto, @CurrentActor() actor: Actor): Promise<{ data: AdminSettingsDto }> {
    return { data: { ...(await this.settings.update(dto, actor)) } };
  }
}
