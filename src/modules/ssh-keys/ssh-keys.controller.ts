import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiData } from 'src/common/http/api-responses';
import type { AuthContext } from 'src/common/auth/auth-context';
import { Authenticated } from 'src/common/auth/authenticated.decorator';
import { CurrentAuth } from 'src/common/auth/current-auth.decorator';
import { CreateSshKeyDto, SshKeyResponseDto } from 'src/modules/ssh-keys/dto/ssh-key.dto';
import { SshKeysService } from 'src/modules/ssh-keys/ssh-keys.service';

/** The caller's SSH public keys, used for SFTP public-key sign-in. */
@ApiTags('account')
@Controller('api/account/ssh-keys')
export class SshKeysController {
  constructor(private readonly service: SshKeysService) {}

  @Get()
  @Authenticated({ credentials: true })
  @ApiData(SshKeyResponseDto, { isArray: true })
  async list(@CurrentAuth() auth: AuthContext): Promise<{ data: SshKeyResponseDto[] }> {
    return { data: await this.service.list(auth.user) };
  }

  @Post()
  @Authenticated({ credentials: true })
  @ApiData(SshKeyResponseDto, { status: 201 })
  async add(@CurrentAuth() auth: AuthContext, @Body() dto: CreateSshKeyDto): Promise<{ data: SshKeyResponseDto }> {
    return { data: await this.service.add(auth.user, dto.name, dto.publicKey) };
  }

  @Delete(':fingerprint')
  @HttpCode(204)
  @Authenticated({ credentials: true })
  async remove(@CurrentAuth() auth: AuthContext, @Param('fingerprint') fingerprint: string): Promise<void> {
    await this.service.remove(auth.user, fingerprint);
  }
}
