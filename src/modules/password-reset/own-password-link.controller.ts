import { Controller, HttpCode, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { AuthContext } from 'src/common/auth/auth-context';
import { Authenticated } from 'src/common/auth/authenticated.decorator';
import { CurrentAuth } from 'src/common/auth/current-auth.decorator';
import { ApiData } from 'src/common/http/api-responses';
import { OwnPasswordLinkResponseDto } from 'src/modules/password-reset/dto/password-reset.dto';
import { PasswordResetService } from 'src/modules/password-reset/password-reset.service';

@ApiTags('account')
@Controller('api/account/password')
export class OwnPasswordLinkController {
  constructor(private readonly service: PasswordResetService) {}

  /**
   * For an account without a password (made through single sign-on): mails its address a one-hour
   * link to choose one (the password-reset page). 409 when the account has a password.
   */
  @Post('link')
  @HttpCode(200)
  @Authenticated({ sessionOnly: true })
  @ApiData(OwnPasswordLinkResponseDto)
  async create(@CurrentAuth() auth: AuthContext): Promise<{ data: OwnPasswordLinkResponseDto }> {
    return { data: await this.service.ownLink(auth.user.id) };
  }
}
