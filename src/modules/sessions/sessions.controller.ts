import { Controller, Delete, Get, HttpCode, Param, ParseUUIDPipe } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiData } from 'src/common/http/api-responses';
import type { AuthContext } from 'src/common/auth/auth-context';
import { Authenticated } from 'src/common/auth/authenticated.decorator';
import { CurrentAuth } from 'src/common/auth/current-auth.decorator';
import { AppException } from 'src/common/errors/app.exception';
import { SessionResponseDto, toSessionResponse } from 'src/modules/sessions/dto/session-response.dto';
import { SessionError } from 'src/modules/sessions/sessions.errors';
import { SessionsService } from 'src/modules/sessions/sessions.service';

const currentSessionId = (auth: AuthContext): string | undefined => (auth.method === 'session' ? auth.session.id : undefined);

@ApiTags('account')
@Controller('api/account/sessions')
export class SessionsController {
  constructor(private readonly service: SessionsService) {}

  @Get()
  @Authenticated({ credentials: true })
  @ApiData(SessionResponseDto, { isArray: true })
  async list(@CurrentAuth() auth: AuthContext): Promise<{ data: SessionResponseDto[] }> {
    const sessions = await this.service.list(auth.user.id);
    return { data: sessions.map((s) => toSessionResponse(s, currentSessionId(auth))) };
  }

  /** Revokes every session but the current one. */
  @Delete()
  @HttpCode(204)
  @Authenticated({ credentials: true })
  async revokeOthers(@CurrentAuth() auth: AuthContext): Promise<void> {
    await this.service.revokeAll(auth.user.id, currentSessionId(auth));
  }

  @Delete(':id')
  @HttpCode(204)
  @Authenticated({ credentials: true })
  async revoke(
    @CurrentAuth() auth: AuthContext,
    @Param('id', new ParseUUIDPipe({ exceptionFactory: () => new AppException(SessionError.NOT_FOUND) })) id: string,
  ): Promise<void> {
    await this.service.revoke(auth.user.id, id);
  }
}
