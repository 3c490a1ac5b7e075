import { Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ArrayMaxSize, IsArray, IsString, MaxLength, MinLength, ValidateBy } from 'class-validator';
import ipaddr from 'ipaddr.js';
import { AppException } from 'src/common/errors/app.exception';
import { Optional } from 'src/common/validation/decorators';
import type { AuthContext } from 'src/common/auth/auth-context';
import { ClientAccountRoute, ClientAuth } from 'src/modules/pterodactyl/client/client-access';
import { PTERODACTYL_PERMISSIONS } from 'src/modules/pterodactyl/client/client-permissions';
import { accountItem, apiKeyItem, sshKeyItem } from 'src/modules/pterodactyl/client/client-transformers';
import { FractalItem, FractalList, list } from 'src/modules/pterodactyl/common/fractal';
import { PterodactylBody } from 'src/modules/pterodactyl/common/pterodactyl-body';
import { PterodactylController } from 'src/modules/pterodactyl/common/pterodactyl-route';
import { PterodactylKeyType } from 'src/modules/pterodactyl/keys/pterodactyl-key.entity';
import { PterodactylKeysService } from 'src/modules/pterodactyl/keys/pterodactyl-keys.service';
import { SshKeysService } from 'src/modules/ssh-keys/ssh-keys.service';

const isIpOrCidr = (value: unknown): boolean =>
  typeof value === 'string' && value.length <= 64 && (value.includes('/') ? ipaddr.isValidCIDR(value) : ipaddr.isValid(value));

class StoreApiKeyBody {
  @IsString()
  @MinLength(1)
  @MaxLength(500)
  description!: string;

  @Optional()
  @IsArray()
  @ArrayMaxSize(50)
  @ValidateBy({ name: 'ip', validator: { validate: isIpOrCidr } }, { each: true, message: 'each allowed ip must be an IP address or a CIDR range' })
  allowed_ips?: string[];
}

class StoreSshKeyBody {
  @IsString()
  @MinLength(1)
  @MaxLength(191)
  name!: string;

  @IsString()
  @MaxLength(16_384)
  public_key!: string;
}

class RemoveSshKeyBody {
  @IsString()
  @MaxLength(191)
  fingerprint!: string;
}

/**
 * `/pterodactyl/api/client`: the caller's account (AccountController@index, ApiKeyController, SSHKeyController,
 * ClientController@permissions); e-mail, password, two-factor and activity are PterodactylClientAccountSecurityController's.
 */
@PterodactylController()
@Controller('pterodactyl/api/client')
export class PterodactylClientAccountController {
  constructor(
    private readonly keys: PterodactylKeysService,
    private readonly sshKeys: SshKeysService,
  ) {}

  @Get('permissions')
  @ClientAccountRoute()
  permissions(): { object: string; attributes: { permissions: typeof PTERODACTYL_PERMISSIONS } } {
    return { object: 'system_permissions', attributes: { permissions: PTERODACTYL_PERMISSIONS } };
  }

  @Get('account')
  @ClientAccountRoute()
  account(@ClientAuth() auth: AuthContext): FractalItem {
    return accountItem(auth.user);
  }

  @Get('account/api-keys')
  @ClientAccountRoute()
  async apiKeys(@ClientAuth() auth: AuthContext): Promise<FractalList> {
    return list((await this.keys.list(auth.user.id, PterodactylKeyType.CLIENT)).map(apiKeyItem));
  }

  @Post('account/api-keys')
  @HttpCode(200)
  @ClientAccountRoute()
  async createApiKey(@ClientAuth() auth: AuthContext, @PterodactylBody(StoreApiKeyBody) body: StoreApiKeyBody): Promise<FractalItem & { meta: { secret_token: string } }> {
    const { key, secret } = await this.keys.create(auth.user, PterodactylKeyType.CLIENT, { memo: body.description, allowedIps: body.allowed_ips ?? [] });
    return { ...apiKeyItem(key), meta: { secret_token: secret } };
  }

  @Delete('account/api-keys/:identifier')
  @HttpCode(204)
  @ClientAccountRoute()
  async deleteApiKey(@ClientAuth() auth: AuthContext, @Param('identifier') identifier: string): Promise<void> {
    await this.keys.revoke(auth.user.id, PterodactylKeyType.CLIENT, identifier);
  }

  @Get('account/ssh-keys')
  @ClientAccountRoute()
  async sshKeyList(@ClientAuth() auth: AuthContext): Promise<FractalList> {
    return list((await this.sshKeys.list(auth.user)).map(sshKeyItem));
  }

  @Post('account/ssh-keys')
  @HttpCode(200)
  @ClientAccountRoute()
  async addSshKey(@ClientAuth() auth: AuthContext, @PterodactylBody(StoreSshKeyBody) body: StoreSshKeyBody): Promise<FractalItem> {
    return sshKeyItem(await this.sshKeys.add(auth.user, body.name, body.public_key));
  }

  /** Pterodactyl answers 204 whether or not the key existed. */
  @Post('account/ssh-keys/remove')
  @HttpCode(204)
  @ClientAccountRoute()
  async removeSshKey(@ClientAuth() auth: AuthContext, @PterodactylBody(RemoveSshKeyBody) body: RemoveSshKeyBody): Promise<void> {
    try {
      await this.sshKeys.remove(auth.user, body.fingerprint);
    } catch (e) {
      if (!(e instanceof AppException && e.status === 404)) {
        throw e;
      }
    }
  }
}
