import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { NodeParamScoped } from 'src/modules/nodes/admin-node-scope';
import { ApiTags } from '@nestjs/swagger';
import { ApiData, ApiDataWithMeta, ApiPage } from 'src/common/http/api-responses';
import { AdminScope } from 'src/common/auth/admin-scope';
import { Authenticated, NodeScoped } from 'src/common/auth/authenticated.decorator';
import { AdminNodes } from 'src/common/auth/current-auth.decorator';
import { Actor, CurrentActor } from 'src/common/auth/current-actor.decorator';
import { CursorPaginated, CursorPaginationQueryDto, toCursorPage } from 'src/common/http/cursor';
import { Paginated, toPage } from 'src/common/http/pagination';
import { DecimalIdPipe } from 'src/common/validation/decimal-id.pipe';
import { CreateNodeDto, DaemonSystemInfoDto, NodeResponseDto, PushOutcomeDto, toNodeResponse, UpdateNodeDto } from 'src/modules/nodes/dto/node.dto';
import { NodeError } from 'src/modules/nodes/nodes.errors';
import { NodesService } from 'src/modules/nodes/nodes.service';

export const nodeIdPipe = new DecimalIdPipe(NodeError.NOT_FOUND);

@ApiTags('admin: nodes')
@Controller('api/admin/nodes')
export class NodesController {
  constructor(private readonly service: NodesService) {}

  /** A role limited to some nodes lists only those. */
  @Get()
  @Authenticated({ admin: AdminScope.NODES_READ })
  @NodeScoped()
  @ApiPage(NodeResponseDto, { cursor: true })
  list(@Query() query: CursorPaginationQueryDto, @AdminNodes() only: ReadonlySet<string> | null): Promise<Paginated<NodeResponseDto> | CursorPaginated<NodeResponseDto>> {
    const cursor = toCursorPage(query, 'nodes', ['id']);
    return cursor ? this.service.listByCursor(cursor, only) : this.service.list(toPage(query), {}, only);
  }

  @Post()
  @Authenticated({ admin: AdminScope.NODES_WRITE })
  @ApiData(NodeResponseDto, { status: 201 })
  async create(@Body() dto: CreateNodeDto, @CurrentActor() actor: Actor): Promise<{ data: NodeResponseDto }> {
    return { data: toNodeResponse(await this.service.create(dto, actor)) };
  }

  @Get(':id')
  @Authenticated({ admin: AdminScope.NODES_READ })
  @NodeParamScoped()
  @ApiData(NodeResponseDto)
  async get(@Param('id', nodeIdPipe) id: string): Promise<{ data: NodeResponseDto }> {
    return { data: toNodeResponse(await this.service.get(id)) };
  }

  /** Saves the change; when it touches the daemon's configuration, pushes it (`meta` says whether that worked). */
  @Patch(':id')
  @Authenticated({ admin: AdminScope.NODES_WRITE })
  @NodeParamScoped()
  @ApiDataWithMeta(NodeResponseDto, PushOutcomeDto)
  async update(
    @Param('id', nodeIdPipe) id: string,
    @Body() dto: UpdateNodeDto,
    @CurrentActor() actor: Actor,
  ): Promise<{ data: NodeResponseDto; meta: PushOutcomeDto }> {
    const { node, ...meta } = await this.service.update(id, dto, actor);
    return { data: toNodeResponse(node), meta };
  }

  @Delete(':id')
  @HttpCode(204)
  @Authenticated({ admin: AdminScope.NODES_WRITE })
  @NodeParamScoped()
  async delete(@Param('id', nodeIdPipe) id: string, @CurrentActor() actor: Actor): Promise<void> {
    await this.service.delete(id, actor);
  }

  /** New daemon credentials; fetch them with the configuration endpoint (API key only). */
  @Post(':id/reset-token')
  @HttpCode(200)
  @Authenticated({ admin: AdminScope.NODES_WRITE })
  @NodeParamScoped()
  @ApiDataWithMeta(NodeResponseDto, PushOutcomeDto)
  async resetToken(@Param('id', nodeIdPipe) id: string, @CurrentActor() actor: Actor): Promise<{ data: NodeResponseDto; meta: PushOutcomeDto }> {
    const { node, ...meta } = await this.service.resetToken(id, actor);
    return { data: toNodeResponse(node), meta };
  }

  /** The daemon's own system information. */
  @Get(':id/system')
  @Authenticated({ admin: AdminScope.NODES_READ })
  @NodeParamScoped()
  @ApiData(DaemonSystemInfoDto)
  async system(@Param('id', nodeIdPipe) id: string): Promise<{ data: DaemonSystemInfoDto }> {
    return { data: await this.service.systemInformation(id) };
  }
}
