import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { AdminScope } from 'src/common/auth/admin-scope';
import { Authenticated } from 'src/common/auth/authenticated.decorator';
import { Actor, CurrentActor } from 'src/common/auth/current-actor.decorator';
import { ApiData } from 'src/common/http/api-responses';
import { DecimalIdPipe } from 'src/common/validation/decimal-id.pipe';
import { AuthProvidersService } from 'src/modules/oauth/auth-providers.service';
import { AuthProviderDto, CreateAuthProviderDto, UpdateAuthProviderDto } from 'src/modules/oauth/dto/auth-provider.dto';
import { OAuthError } from 'src/modules/oauth/oauth.errors';

const providerId = new DecimalIdPipe(OAuthError.PROVIDER_NOT_FOUND);

/** Sign-in providers (docs/sso.md): OpenID Connect issuers and the Discord, GitHub and Google presets. */
@ApiTags('admin: auth providers')
@Controller('api/admin/auth-providers')
export class AuthProvidersController {
  constructor(private readonly service: AuthProvidersService) {}

  @Get()
  @Authenticated({ admin: AdminScope.SETTINGS_READ })
  @ApiData(AuthProviderDto, { isArray: true })
  async list(): Promise<{ data: AuthProviderDto[] }> {
    return { data: await this.service.list() };
  }

  /** An `oidc` provider's issuer is discovered first: a 400 AUTH_PROVIDER_DISCOVERY_FAILED when that fails. */
  @Post()
  @Authenticated({ admin: AdminScope.SETTINGS_WRITE })
  @ApiData(AuthProviderDto, { status: 201 })
  async create(@Body() dto: CreateAuthProviderDto, @CurrentActor() actor: Actor): Promise<{ data: AuthProviderDto }> {
    return { data: await this.service.create(dto, actor) };
  }

  @Get(':id')
  @Authenticated({ admin: AdminScope.SETTINGS_READ })
  @ApiData(AuthProviderDto)
  async get(@Param('id', providerId) id: string): Promise<{ data: AuthProviderDto }> {
    return { data: await this.service.get(id) };
  }

  @Patch(':id')
  @Authenticated({ admin: AdminScope.SETTINGS_WRITE })
  @ApiData(AuthProviderDto)
  async update(@Param('id', providerId) id: string, @Body() dto: UpdateAuthProviderDto, @CurrentActor() actor: Actor): Promise<{ data: AuthProviderDto }> {
    return { data: await this.service.update(id, dto, actor) };
  }

  /** Its linked identities go with it. */
  @Delete(':id')
  @HttpCode(204)
  @Authenticated({ admin: AdminScope.SETTINGS_WRITE })
  async delete(@Param('id', providerId) id: string, @CurrentActor() actor: Actor): Promise<void> {
    await this.service.delete(id, actor);
  }
}
