import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Authenticated } from 'src/common/auth/authenticated.decorator';
import { ApiData } from 'src/common/http/api-responses';
import type { AuthContext } from 'src/common/auth/auth-context';
import { CurrentAuth } from 'src/common/auth/current-auth.decorator';
import {
  CreateApplicationKeyDto,
  CreateClientKeyDto,
  CreatedPterodactylKeyResponseDto,
  PterodactylKeyResponseDto,
  toPterodactylKeyResponse,
} from 'src/modules/pterodactyl/keys/dto/pterodactyl-key.dto';
import { PterodactylKeyType } from 'src/modules/pterodactyl/keys/pterodactyl-key.entity';
import { PterodactylKeysService } from 'src/modules/pterodactyl/keys/pterodactyl-keys.service';

/** A user's client keys (`ptlc_…`) for the Pterodactyl client API (docs/pterodactyl-compat.md). */
@ApiTags('account')
@Controller('api/account/pterodactyl-keys')
export class PterodactylClientKeysController {
  constructor(private readonly service: PterodactylKeysService) {}

  @Get()
  @Authenticated({ credentials: true })
  @ApiData(PterodactylKeyResponseDto, { isArray: true })
  async list(@CurrentAuth() auth: AuthContext): Promise<{ data: PterodactylKeyResponseDto[] }> {
    return { data: (await this.service.list(auth.user.id, PterodactylKeyType.CLIENT)).map(toPterodactylKeyResponse) };
  }

  @Post()
  @Authenticated({ credentials: true })
  @ApiData(CreatedPterodactylKeyResponseDto, { status: 201 })
  async create(@CurrentAuth() auth: AuthContext, @Body() dto: CreateClientKeyDto): Promise<{ data: CreatedPterodactylKeyResponseDto }> {
    const { key, secret } = await this.service.create(auth.user, PterodactylKeyType.CLIENT, { memo: dto.description, allowedIps: dto.allowedIps });
    return { data: { ...toPterodactylKeyResponse(key), key: secret } };
  }

  @Delete(':identifier')
  @HttpCode(204)
  @Authenticated({ credentials: true })
  async revoke(@CurrentAuth() auth: AuthContext, @Param('identifier') identifier: string): Promise<void> {
    await this.service.revoke(auth.user.id, PterodactylKeyType.CLIENT, identifier);
  }
}

/**
 * An administrator's application keys (`ptla_…`) for the Pterodactyl application API. An application
 * key reaches users, nodes and servers alike, so only a session or a key with all of its owner's
 * rights may make one (`credentials`).
 */
@ApiTags('admin: pterodactyl keys')
@Controller('api/admin/pterodactyl-keys')
export class PterodactylApplicationKeysController {
  constructor(private readonly service: PterodactylKeysService) {}

  @Get()
  @Authenticated({ anyAdmin: true, credentials: true })
  @ApiData(PterodactylKeyResponseDto, { isArray: true })
  async list(@CurrentAuth() auth: AuthContext): Promise<{ data: PterodactylKeyResponseDto[] }> {
    return { data: (await this.service.list(auth.user.id, PterodactylKeyType.APPLICATION)).map(toPterodactylKeyResponse) };
  }

  @Post()
  @Authenticated({ anyAdmin: true, credentials: true })
  @ApiData(CreatedPterodactylKeyResponseDto, { status: 201 })
  async create(@CurrentAuth() auth: AuthContext, @Body() dto: CreateApplicationKeyDto): Promise<{ data: CreatedPterodactylKeyResponseDto }> {
    const { key, secret } = await this.service.create(auth.user, PterodactylKeyType.APPLICATION, {
      memo: dto.description,
      allowedIps: dto.allowedIps,
      permissions: { ...dto.permissions },
    });
    return { data: { ...toPterodactylKeyResponse(key), key: secret } };
  }

  @Delete(':identifier')
  @HttpCode(204)
  @Authenticated({ anyAdmin: true, credentials: true })
  async revoke(@CurrentAuth() auth: AuthContext, @Param('identifier') identifier: string): Promise<void> {
    await this.service.revoke(auth.user.id, PterodactylKeyType.APPLICATION, identifier);
  }
}
