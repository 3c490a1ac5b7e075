import { Controller, Get, Param, Query } from '@nestjs/common';
import { NodeParamScoped } from 'src/modules/nodes/admin-node-scope';
import { ApiTags } from '@nestjs/swagger';
import { AdminScope } from 'src/common/auth/admin-scope';
import { Authenticated } from 'src/common/auth/authenticated.decorator';
import { ApiData } from 'src/common/http/api-responses';
import { nodeIdPipe } from 'src/modules/nodes/nodes.controller';
import { CurrentServer, ServerAccess, ServerRoute } from 'src/modules/servers/server-access';
import { NodeUsageHistoryDto, UsageHistoryDto, UsageHistoryQueryDto } from 'src/modules/usage/dto/usage-history.dto';
import { UsageHistoryService } from 'src/modules/usage/usage-history.service';

/** A server's usage history, for whoever may view the server (docs/api.md#usage-history). */
@ApiTags('client: servers')
@Controller('api/client/servers')
export class ServerUsageHistoryController {
  constructor(private readonly service: UsageHistoryService) {}

  @Get(':server/resources/history')
  @ServerRoute('server.view')
  @ApiData(UsageHistoryDto)
  async history(@CurrentServer() access: ServerAccess, @Query() query: UsageHistoryQueryDto): Promise<{ data: UsageHistoryDto }> {
    return { data: await this.service.server(access.server.uuid, query.range) };
  }
}

/** A node's usage history: its running servers summed, and whether it answered. */
@ApiTags('admin: nodes')
@Controller('api/admin/nodes')
export class NodeUsageHistoryController {
  constructor(private readonly service: UsageHistoryService) {}

  @Get(':id/resources/history')
  @Authenticated({ admin: AdminScope.NODES_READ })
  @NodeParamScoped()
  @ApiData(NodeUsageHistoryDto)
  async history(@Param('id', nodeIdPipe) id: string, @Query() query: UsageHistoryQueryDto): Promise<{ data: NodeUsageHistoryDto }> {
    return { data: await this.service.node(id, query.range) };
  }
}
