import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { NodeParamScoped } from 'src/modules/nodes/admin-node-scope';
import { ServerNodeScoped } from 'src/modules/servers/admin-server-scope';
import { ApiTags } from '@nestjs/swagger';
import { AdminScope } from 'src/common/auth/admin-scope';
import { Authenticated } from 'src/common/auth/authenticated.decorator';
import { Actor, CurrentActor } from 'src/common/auth/current-actor.decorator';
import { ApiData } from 'src/common/http/api-responses';
import { DecimalIdPipe } from 'src/common/validation/decimal-id.pipe';
import { NodeError } from 'src/modules/nodes/nodes.errors';
import { ServerError } from 'src/modules/servers/servers.errors';
import { DrainsService } from 'src/modules/servers/transfers/drains.service';
import { DrainDto, StartDrainDto, StartTransferDto, TransferDto } from 'src/modules/servers/transfers/dto/transfer.dto';
import { TransfersService } from 'src/modules/servers/transfers/transfers.service';

const serverId = new DecimalIdPipe(ServerError.NOT_FOUND);
const nodeId = new DecimalIdPipe(NodeError.NOT_FOUND);

/** Moving a server to another node (docs/admin-guide.md#transfers). */
@ApiTags('admin: servers')
@Controller('api/admin/servers/:id/transfer')
export class ServerTransfersController {
  constructor(private readonly transfers: TransfersService) {}

  /** The current transfer, else the last one, with every step (the admin page polls it). */
  @Get()
  @Authenticated({ admin: AdminScope.SERVERS_READ })
  @ServerNodeScoped()
  @ApiData(TransferDto)
  async get(@Param('id', serverId) id: string): Promise<{ data: TransferDto }> {
    return { data: await this.transfers.latest(id) };
  }

  /** Reserves the allocations and asks the source node to start; the transfer then runs on its own. */
  @Post()
  @HttpCode(202)
  @Authenticated({ admin: AdminScope.SERVERS_WRITE })
  @ApiData(TransferDto, { status: 202 })
  async start(@Param('id', serverId) id: string, @Body() dto: StartTransferDto, @CurrentActor() actor: Actor): Promise<{ data: TransferDto }> {
    return { data: await this.transfers.start(id, dto, actor) };
  }

  /** Cancels the active transfer: the server stays on its node, the target's copy is deleted. */
  @Delete()
  @HttpCode(202)
  @Authenticated({ admin: AdminScope.SERVERS_WRITE })
  @ServerNodeScoped()
  @ApiData(TransferDto, { status: 202 })
  async cancel(@Param('id', serverId) id: string, @CurrentActor() actor: Actor): Promise<{ data: TransferDto }> {
    return { data: await this.transfers.cancel(id, actor) };
  }
}

/** Moving every server off a node (docs/admin-guide.md#draining-a-node). */
@ApiTags('admin: nodes')
@Controller('api/admin/nodes/:id/drain')
export class NodeDrainController {
  constructor(private readonly drains: DrainsService) {}

  @Get()
  @Authenticated({ admin: AdminScope.NODES_READ })
  @NodeParamScoped()
  @ApiData(DrainDto)
  async get(@Param('id', nodeId) id: string): Promise<{ data: DrainDto }> {
    return { data: await this.drains.get(id) };
  }

  @Post()
  @HttpCode(202)
  @Authenticated({ admin: AdminScope.NODES_WRITE })
  @ApiData(DrainDto, { status: 202 })
  async start(@Param('id', nodeId) id: string, @Body() dto: StartDrainDto, @CurrentActor() actor: Actor): Promise<{ data: DrainDto }> {
    return { data: await this.drains.start(id, dto, actor) };
  }

  /** Queues no more servers; transfers already running go on to their end. */
  @Delete()
  @HttpCode(202)
  @Authenticated({ admin: AdminScope.NODES_WRITE })
  @NodeParamScoped()
  @ApiData(DrainDto, { status: 202 })
  async stop(@Param('id', nodeId) id: string, @CurrentActor() actor: Actor): Promise<{ data: DrainDto }> {
    return { data: await this.drains.stop(id, actor) };
  }
}
