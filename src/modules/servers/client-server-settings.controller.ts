import { Body, Controller, Get, HttpCode, Post, Put } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiAccepted, ApiData } from 'src/common/http/api-responses';
import { Actor, CurrentActor } from 'src/modules/auth/current-actor.decorator';
import { ClientServerSettingsService } from 'src/modules/servers/client-server-settings.service';
import { NetworkAllocationDto, RenameServerDto, StartupDto, StartupVariableDto, UpdateStartupVariableDto } from 'src/modules/servers/dto/server-settings.dto';
import { CurrentServer, ServerAccess, ServerRoute } from 'src/modules/servers/server-access';

@ApiTags('client: servers')
@Controller('api/client/servers/:server')
export class ClientServerSettingsController {
  constructor(private readonly service: ClientServerSettingsService) {}

  @Get('startup')
  @ServerRoute('server.startup.read')
  @ApiData(StartupDto)
  async startup(@CurrentServer() access: ServerAccess): Promise<{ data: StartupDto }> {
    return { data: await this.service.startup(access) };
  }

  @Put('startup/variable')
  @ServerRoute('server.startup.update')
  @ApiData(StartupVariableDto)
  async updateVariable(
    @CurrentServer() access: ServerAccess,
    @CurrentActor() actor: Actor,
    @Body() dto: UpdateStartupVariableDto,
  ): Promise<{ data: StartupVariableDto }> {
    return { data: await this.service.updateVariable(access, actor, dto.key, dto.value ?? null) };
  }

  @Post('settings/rename')
  @HttpCode(204)
  @ServerRoute('server.settings.rename')
  async rename(@CurrentServer() access: ServerAccess, @CurrentActor() actor: Actor, @Body() dto: RenameServerDto): Promise<void> {
    await this.service.rename(access, actor, dto.name, dto.description);
  }

  @Post('settings/reinstall')
  @HttpCode(202)
  @ServerRoute('server.settings.reinstall')
  @ApiAccepted('The node reinstalls in the background; the server shows installing until it reports back')
  async reinstall(@CurrentServer() access: ServerAccess, @CurrentActor() actor: Actor): Promise<void> {
    await this.service.reinstall(access, actor);
  }

  @Get('network/allocations')
  @ServerRoute('server.allocation.read')
  @ApiData(NetworkAllocationDto, { isArray: true })
  async allocations(@CurrentServer() access: ServerAccess): Promise<{ data: NetworkAllocationDto[] }> {
    return { data: await this.service.allocations(access) };
  }
}
