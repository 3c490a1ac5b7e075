import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiData } from 'src/common/http/api-responses';
import type { AuthContext } from 'src/common/auth/auth-context';
import { Authenticated } from 'src/common/auth/authenticated.decorator';
import { CurrentAuth } from 'src/common/auth/current-auth.decorator';
import { ApiKeysService } from 'src/modules/api-keys/api-keys.service';
import { CreateApiKeyDto } from 'src/modules/api-keys/dto/create-api-key.dto';
import {
  ApiKeyResponseDto,
  CreatedApiKeyResponseDto,
  toApiKeyResponse,
  toCreatedApiKeyResponse,
} from 'src/modules/api-keys/dto/api-key-response.dto';

@ApiTags('account')
@Controller('api/account/api-keys')
export class ApiKeysController {
  constructor(private readonly service: ApiKeysService) {}

  @Get()
  @Authenticated({ credentials: true })
  @ApiData(ApiKeyResponseDto, { isArray: true })
  async list(@CurrentAuth() auth: AuthContext): Promise<{ data: ApiKeyResponseDto[] }> {
    return { data: (await this.service.list(auth.user.id)).map(toApiKeyResponse) };
  }

  @Post()
  @Authenticated({ credentials: true })
  @ApiData(CreatedApiKeyResponseDto, { status: 201 })
  async create(@CurrentAuth() auth: AuthContext, @Body() dto: CreateApiKeyDto): Promise<{ data: CreatedApiKeyResponseDto }> {
    const ceiling = auth.method === 'api-key' ? auth.scopes : this.service.scopesOf(auth.user);
    const { key, secret } = await this.service.create(auth.user, dto, ceiling);
    return { data: toCreatedApiKeyResponse(key, secret) };
  }

  @Delete(':identifier')
  @HttpCode(204)
  @Authenticated({ credentials: true })
  async revoke(@CurrentAuth() auth: AuthContext, @Param('identifier') identifier: string): Promise<void> {
    await this.service.revoke(auth.user.id, identifier);
  }
}

