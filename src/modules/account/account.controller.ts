import { Body, Controller, Get, HttpCode, Put, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiData, ApiPage } from 'src/common/http/api-responses';
import { CursorPaginated, toCursorPage } from 'src/common/http/cursor';
import { Paginated, toPage } from 'src/common/http/pagination';
import { AuthContext, requireSession } from 'src/common/auth/auth-context';
import { Authenticated } from 'src/common/auth/authenticated.decorator';
import { Actor, CurrentActor } from 'src/common/auth/current-actor.decorator';
import { CurrentAuth } from 'src/common/auth/current-auth.decorator';
import { AccountService } from 'src/modules/account/account.service';
import { AccountActivityDto, AccountActivityQueryDto } from 'src/modules/account/dto/account-activity.dto';
import { ChangeEmailDto, ChangePasswordDto } from 'src/modules/account/dto/account.dto';
import { AccountResponseDto, toAccountResponse } from 'src/modules/account/dto/account-response.dto';

@ApiTags('account')
@Controller('api/account')
export class AccountController {
  constructor(private readonly service: AccountService) {}

  @Get()
  @Authenticated({ twoFactorSetup: true })
  @ApiData(AccountResponseDto)
  get(@CurrentAuth() auth: AuthContext): { data: AccountResponseDto } {
    return { data: toAccountResponse(auth.user) };
  }

  /** What the caller did to their own account (password, e-mail, two-factor…), newest first. */
  @Get('activity')
  @Authenticated()
  @ApiPage(AccountActivityDto, { cursor: true })
  activity(@CurrentAuth() auth: AuthContext, @Query() query: AccountActivityQueryDto): Promise<Paginated<AccountActivityDto> | CursorPaginated<AccountActivityDto>> {
    return this.service.activity(auth.user, toCursorPage(query, 'account-activity', ['timestamp', 'id']) ?? toPage(query), query.event);
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
