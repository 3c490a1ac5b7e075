import { Controller, Get } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiData } from 'src/common/http/api-responses';
import { Public } from 'src/common/auth/authenticated.decorator';
import { AppConfigService } from 'src/config/app-config.service';
import { CaptchaSettingsDto } from 'src/modules/captcha/dto/captcha-settings.dto';

@ApiTags('auth')
@Controller('api/auth')
export class CaptchaController {
  constructor(private readonly config: AppConfigService) {}

  /** What a sign-in page needs to show the CAPTCHA widget; never the secret key. */
  @Get('captcha')
  @Public()
  @ApiData(CaptchaSettingsDto)
  settings(): { data: CaptchaSettingsDto } {
    const captcha = this.config.captcha;
    return { data: { provider: captcha?.provider ?? null, siteKey: captcha?.siteKey ?? null } };
  }
}
