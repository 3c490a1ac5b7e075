import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiData } from 'src/common/http/api-responses';
import type { AuthContext } from 'src/common/auth/auth-context';
import { Authenticated } from 'src/common/auth/authenticated.decorator';
import { Actor, CurrentActor } from 'src/common/auth/current-actor.decorator';
import { CurrentAuth } from 'src/common/auth/current-auth.decorator';
import { DisableTwoFactorDto, EnableTwoFactorDto } from 'src/modules/two-factor/dto/two-factor.dto';
import { RecoveryCodesResponseDto, TwoFactorSetupResponseDto } from 'src/modules/two-factor/dto/two-factor-response.dto';
import { TwoFactorService } from 'src/modules/two-factor/two-factor.service';

@ApiTags('account')
@Controller('api/user/2fa')
export class TwoFactorController {
  constructor(private readonly service: TwoFactorService) {}

  /** A new TOTP secret and its otpauth:// URI; two-factor sign-in is not on until `enable`. Needs a fresh sign-in. */
  @Post('setup')
  @HttpCode(200)
  @Authenticated({ sessionOnly: true, freshSession: true, twoFactorSetup: true })
  @ApiData(TwoFactorSetupResponseDto)
  async setup(@CurrentAuth() auth: AuthContext): Promise<{ data: TwoFactorSetupResponseDto }> {
    return { data: await this.service.setup(auth.user) };
  }

  /** Confirms the secret with a current code and turns two-factor sign-in on; answers the recovery codes, once. */
  @Post('enable')
  @HttpCode(200)
  @Authenticated({ sessionOnly: true, twoFactorSetup: true })
  @ApiData(RecoveryCodesResponseDto)
  async enable(@CurrentAuth() auth: AuthContext, @CurrentActor() actor: Actor, @Body() dto: EnableTwoFactorDto): Promise<{ data: RecoveryCodesResponseDto }> {
    return { data: { recoveryCodes: await this.service.enable(auth.user, dto.code, actor) } };
  }

  @Post('disable')
  @HttpCode(204)
  @Authenticated({ sessionOnly: true })
  async disable(@CurrentAuth() auth: AuthContext, @CurrentActor() actor: Actor, @Body() dto: DisableTwoFactorDto): Promise<void> {
    await this.service.disable(auth.user, dto.password, actor);
  }
}
