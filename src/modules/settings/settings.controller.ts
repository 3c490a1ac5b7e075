import { Controller, Get } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiData } from 'src/common/http/api-responses';
import { Public } from 'src/common/auth/authenticated.decorator';
import { AppConfigService } from 'src/config/app-config.service';
import { PublicSettingsDto } from 'src/modules/settings/dto/public-settings.dto';

@ApiTags('settings')
@Controller('api/settings')
export class SettingsController {
  constructor(private readonly config: AppConfigService) {}

  /** The panel's public settings, read by the web pages before sign-in. */
  @Get()
  @Public()
  @ApiData(PublicSettingsDto)
  settings(): { data: PublicSettingsDto } {
    const { captcha } = this.config;
    return {
      data: {
        appName: this.config.appName,
        registrationEnabled: this.config.auth.registrationEnabled,
        fileEditMaxMiB: this.config.files.editMaxBytes / (1024 * 1024),
        captcha: captcha ? { provider: captcha.provider, siteKey: captcha.siteKey } : null,
      },
    };
  }
}
