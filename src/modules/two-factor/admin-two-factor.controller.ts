import { Controller, Delete, Param } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { AdminScope } from 'src/common/auth/admin-scope';
import { Authenticated } from 'src/common/auth/authenticated.decorator';
import { ApiData } from 'src/common/http/api-responses';
import { DecimalIdPipe } from 'src/common/validation/decimal-id.pipe';
import { Actor, CurrentActor } from 'src/common/auth/current-actor.decorator';
import { TwoFactorService } from 'src/modules/two-factor/two-factor.service';
import { AdminUserResponseDto, toAdminUserResponse } from 'src/modules/users/dto/user-response.dto';
import { UserError } from 'src/modules/users/users.errors';

@ApiTags('admin: users')
@Controller('api/admin/users')
export class AdminTwoFactorController {
  constructor(private readonly service: TwoFactorService) {}

  /** Turns the user's two-factor sign-in off (secret and recovery codes deleted); 409 TWO_FACTOR_NOT_ENABLED when it is off. */
  @Delete(':id/two-factor')
  @Authenticated({ admin: AdminScope.USERS_WRITE })
  @ApiData(AdminUserResponseDto)
  async reset(@Param('id', new DecimalIdPipe(UserError.NOT_FOUND)) id: string, @CurrentActor() actor: Actor): Promise<{ data: AdminUserResponseDto }> {
    return { data: toAdminUserResponse(await this.service.resetByAdmin(id, actor)) };
  }
}
