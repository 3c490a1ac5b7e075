import { Body, Controller, Get, HttpCode, Put } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiData } from 'src/common/http/api-responses';
import { AuthContext, requireSession } from 'src/modules/auth/auth-context';
import { Authenticated } from 'src/common/auth/authenticated.decorator';
import { Actor, CurrentActor } from 'src/modules/auth/current-actor.decorator';
import { CurrentAuth } from 'src/modules/auth/current-auth.decorator';
import { AccountService } from 'src/modules/account/account.service';
import { ChangeEmailDto, ChangePasswordDto } from 'src/modules/account/dto/account.dto';
import { AccountResponseDto, toAccountResponse } from 'src/modules/account/dto/account-response.dto';

@ApiTags('account')
@Controller('api/account')
export class AccountController {
  constructor(private readonly service: AccountService) {}

  @Get()
  @Authenticated()
  @ApiData(AccountResponseDto)
  get(@CurrentAuth() auth: AuthContext): { data: AccountResponseDto } {
    return { data: toAccountResponse(auth.user) };
  }

  @Put('password')
  @HttpCode(204)
  @Authenticated({ sessionOnly: true, freshSession: true })
  async changePassword(@CurrentAuth() current: AuthContext, @CurrentActor() actor: Actor, @Body() dto: ChangePasswordDto): Promise<void> {
    const auth = requireSession(current);
    await this.service.changePassword(auth.user, auth.session.id, dto.currentPassword, dto.newPassword, actor);
  }

  @Put('email')
  @Authenticated({ sessionOnly: true, freshSession: true })
  @ApiData(AccountResponseDto)
  async changeEmail(@CurrentAuth() auth: AuthContext, @CurrentActor() actor: Actor, @Body() dto: ChangeEmailDto): Promise<{ data: AccountResponseDto }> {
    return { data: toAccountResponse(await this.service.changeEmail(auth.user, dto.email, dto.password, actor)) };
  }
}
