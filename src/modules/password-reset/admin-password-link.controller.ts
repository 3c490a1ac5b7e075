import { Controller, Header, Param, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { AdminScope } from 'src/common/auth/admin-scope';
import { Authenticated } from 'src/common/auth/authenticated.decorator';
import { ApiData } from 'src/common/http/api-responses';
import { DecimalIdPipe } from 'src/common/validation/decimal-id.pipe';
import { Actor, CurrentActor } from 'src/common/auth/current-actor.decorator';
import { PasswordLinkResponseDto } from 'src/modules/password-reset/dto/password-reset.dto';
import { PasswordResetService } from 'src/modules/password-reset/password-reset.service';
import { UserError } from 'src/modules/users/users.errors';

@ApiTags('admin: users')
@Controller('api/admin/users')
export class AdminPasswordLinkController {
  constructor(private readonly service: PasswordResetService) {}

  /**
   * A one-time link with which the user chooses a password (24 hours; a newer link, or a password
   * set another way, ends it). For handing over by hand, when no e-mail reached the account.
   */
  @Post(':id/password-link')
  // The link is a credential: no cache keeps it.
  @Header('Cache-Control', 'no-store')
  @Authenticated({ admin: AdminScope.USERS_WRITE })
  @ApiData(PasswordLinkResponseDto, { status: 201 })
  async create(@Param('id', new DecimalIdPipe(UserError.NOT_FOUND)) id: string, @CurrentActor() actor: Actor): Promise<{ data: PasswordLinkResponseDto }> {
    return { data: await this.service.adminLink(id, actor) };
  }
}
