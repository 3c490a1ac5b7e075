import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { NodeParamScoped } from 'src/modules/nodes/admin-node-scope';
import { ApiTags } from '@nestjs/swagger';
import { ApiData, ApiPage } from 'src/common/http/api-responses';
import { AdminScope } from 'src/common/auth/admin-scope';
import { Authenticated } from 'src/common/auth/authenticated.decorator';
import { Actor, CurrentActor } from 'src/common/auth/current-actor.decorator';
import { PaginationQueryDto, Paginated, toPage } from 'src/common/http/pagination';
import { DecimalIdPipe } from 'src/common/validation/decimal-id.pipe';
import { AllocationsService } from 'src/modules/nodes/allocations.service';
import { AllocationResponseDto, CreateAllocationsDto } from 'src/modules/nodes/dto/allocation.dto';
import { nodeIdPipe } from 'src/modules/nodes/nodes.controller';
import { NodeError } from 'src/modules/nodes/nodes.errors';

@ApiTags('admin: nodes')
@Controller('api/admin/nodes/:id/allocations')
export class AllocationsController {
  constructor(private readonly service: AllocationsService) {}

  @Get()
  @Authenticated({ admin: AdminScope.NODES_READ })
  @NodeParamScoped()
  @ApiPage(AllocationResponseDto)
  list(@Param('id', nodeIdPipe) nodeId: string, @Query() query: PaginationQueryDto): Promise<Paginated<AllocationResponseDto>> {
    return this.service.list(nodeId, toPage(query));
  }

  @Post()
  @Authenticated({ admin: AdminScope.NODES_WRITE })
  @NodeParamScoped()
  @ApiData(AllocationResponseDto, { status: 201, isArray: true })
  async create(
    @Param('id', nodeIdPipe) nodeId: string,
    @Body() dto: CreateAllocationsDto,
    @CurrentActor() actor: Actor,
  ): Promise<{ data: AllocationResponseDto[] }> {
    return { data: await this.service.create(nodeId, dto, actor) };
  }

  @Delete(':allocation')
  @HttpCode(204)
  @Authenticated({ admin: AdminScope.NODES_WRITE })
  @NodeParamScoped()
  async delete(
    @Param('id', nodeIdPipe) nodeId: string,
    @Param('allocation', new DecimalIdPipe(NodeError.ALLOCATION_NOT_FOUND)) id: string,
    @CurrentActor() actor: Actor,
  ): Promise<void> {
    await this.service.delete(nodeId, id, actor);
  }
}
