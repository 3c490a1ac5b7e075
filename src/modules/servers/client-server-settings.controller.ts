import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiAccepted, ApiData } from 'src/common/http/api-responses';
import { DecimalIdPipe } from 'src/common/validation/decimal-id.pipe';
import { Actor, CurrentActor } from 'src/common/auth/current-actor.decorator';
import { NodeError } from 'src/modules/nodes/nodes.errors';
import { ClientServerSettingsService } from 'src/modules/servers/client-server-settings.service';
import {
  NetworkAllocationDto,
  RenameServerDto,
  StartupDto,
  StartupVariableDto,
  UpdateAllocationNotesDto,
  UpdateDockerImageDto,
  UpdateStartupVariableDto,
} from 'src/modules/servers/dto/server-settings.dto';
import { CurrentServer, ServerAccess, ServerRoute } from 'src/modules/servers/server-access';

const allocationId = new DecimalIdPipe(NodeError.ALLOCATION_NOT_FOUND);

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

  @Put('settings/docker-image')
  @HttpCode(204)
  @ServerRoute('server.startup.docker-image')
  async dockerImage(@CurrentServer() access: ServerAccess, @CurrentActor() actor: Actor, @Body() dto: UpdateDockerImageDto): Promise<void> {
    await this.service.setDockerImage(access, actor, dto.dockerImage);
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

  /** Sets or (null) clears the notes of one of the server's allocations. */
  @Post('network/allocations/:allocation')
  @HttpCode(200)
  @ServerRoute('server.allocation.update')
  @ApiData(NetworkAllocationDto)
  async setAllocationNotes(
    @CurrentServer() access: ServerAccess,
    @CurrentActor() actor: Actor,
    @Param('allocation', allocationId) id: string,
    @Body() dto: UpdateAllocationNotesDto,
  ): Promise<{ data: NetworkAllocationDto }> {
    return { data: await this.service.setAllocationNotes(access, actor, id, dto.notes ?? null) };
  }

  /** Makes one of the server's allocations its primary one. */
  @Post('network/allocations/:allocation/primary')
  @HttpCode(200)
  @ServerRoute('server.allocation.update')
  @ApiData(NetworkAllocationDto)
  async setPrimaryAllocation(
    @CurrentServer() access: ServerAccess,
    @CurrentActor() actor: Actor,
    @Param('allocation', allocationId) id: string,
  ): Promise<{ data: NetworkAllocationDto }> {
    return { data: await this.service.setPrimaryAllocation(access, actor, id) };
  }

  /** Assigns a free allocation of the server's node, within the server's allocation limit. */
  @Post('network/allocations')
  @ServerRoute('server.allocation.create')
  @ApiData(NetworkAllocationDto, { status: 201 })
  async addAllocation(@CurrentServer() access: ServerAccess, @CurrentActor() actor: Actor): Promise<{ data: NetworkAllocationDto }> {
    return { data: await this.service.addAllocation(access, actor) };
  }

  /** Gives an allocation (not the primary one) back to the node. */
  @Delete('network/allocations/:allocation')
  @HttpCode(204)
  @ServerRoute('server.allocation.delete')
  async removeAllocation(@CurrentServer() access: ServerAccess, @CurrentActor() actor: Actor, @Param('allocation', allocationId) id: string): Promise<void> {
    await this.service.removeAllocation(access, actor, id);
  }
}
