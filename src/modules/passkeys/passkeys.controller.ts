import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { AuthContext } from 'src/common/auth/auth-context';
import { Authenticated } from 'src/common/auth/authenticated.decorator';
import { Actor, CurrentActor } from 'src/common/auth/current-actor.decorator';
import { CurrentAuth } from 'src/common/auth/current-auth.decorator';
import { ApiData } from 'src/common/http/api-responses';
import { DecimalIdPipe } from 'src/common/validation/decimal-id.pipe';
import { CreatePasskeyDto, PasskeyResponseDto, RenamePasskeyDto } from 'src/modules/passkeys/dto/passkey.dto';
import { PasskeyOptionsResponseDto } from 'src/modules/passkeys/dto/webauthn.dto';
import { PasskeyError } from 'src/modules/passkeys/passkeys.errors';
import { PasskeysService } from 'src/modules/passkeys/passkeys.service';

/**
 * The caller's passkeys (docs/api.md#passkeys). Signed-in sessions only; adding and removing one need
 * a fresh sign-in, as two-factor setup does. Listing and adding stay open to a session the two-factor
 * policy holds at setup: a passkey is a second factor that lifts the hold.
 */
@ApiTags('account')
@Controller('api/account/passkeys')
export class PasskeysController {
  constructor(private readonly service: PasskeysService) {}

  @Get()
  @Authenticated({ sessionOnly: true, twoFactorSetup: true })
  @ApiData(PasskeyResponseDto, { isArray: true })
  async list(@CurrentAuth() auth: AuthContext): Promise<{ data: PasskeyResponseDto[] }> {
    return { data: await this.service.list(auth.user) };
  }

  /** Options for `navigator.credentials.create()`: a new discoverable passkey; its challenge works once, for 5 minutes. */
  @Post('options')
  @HttpCode(200)
  @Authenticated({ sessionOnly: true, freshSession: true, twoFactorSetup: true })
  @ApiData(PasskeyOptionsResponseDto)
  async options(@CurrentAuth() auth: AuthContext): Promise<{ data: PasskeyOptionsResponseDto }> {
    return { data: { options: await this.service.registrationOptions(auth.user) } };
  }

  /** Verifies the browser's answer to the options and keeps the passkey. */
  @Post()
  @Authenticated({ sessionOnly: true, twoFactorSetup: true })
  @ApiData(PasskeyResponseDto, { status: 201 })
  async add(@CurrentAuth() auth: AuthContext, @CurrentActor() actor: Actor, @Body() dto: CreatePasskeyDto): Promise<{ data: PasskeyResponseDto }> {
    return { data: await this.service.register(auth.user, dto.name, dto.response, actor) };
  }

  @Patch(':id')
  @Authenticated({ sessionOnly: true })
  @ApiData(PasskeyResponseDto)
  async rename(
    @CurrentAuth() auth: AuthContext,
    @Param('id', new DecimalIdPipe(PasskeyError.NOT_FOUND)) id: string,
    @Body() dto: RenamePasskeyDto,
  ): Promise<{ data: PasskeyResponseDto }> {
    return { data: await this.service.rename(auth.user, id, dto.name) };
  }

  @Delete(':id')
  @HttpCode(204)
  @Authenticated({ sessionOnly: true, freshSession: true })
  async remove(@CurrentAuth() auth: AuthContext, @CurrentActor() actor: Actor, @Param('id', new DecimalIdPipe(PasskeyError.NOT_FOUND)) id: string): Promise<void> {
    await this.service.remove(auth.user, id, actor);
  }
}
