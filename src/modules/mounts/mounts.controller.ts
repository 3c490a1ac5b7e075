import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { AdminScope } from 'src/common/auth/admin-scope';
import { Authenticated } from 'src/common/auth/authenticated.decorator';
import { Actor, CurrentActor } from 'src/common/auth/current-actor.decorator';
import { ApiData, ApiPage } from 'src/common/http/api-responses';
import { Paginated, toPage } from 'src/common/http/pagination';
import { DecimalIdPipe } from 'src/common/validation/decimal-id.pipe';
import { uuidParam } from 'src/common/validation/uuid-param';
import { EggError } from 'src/modules/eggs/eggs.errors';
import { CreateMountDto, LinkEggsDto, LinkNodesDto, MountDetailDto, MountListQueryDto, MountResponseDto, UpdateMountDto } from 'src/modules/mounts/dto/mount.dto';
import { MountError } from 'src/modules/mounts/mounts.errors';
import { MountsService } from 'src/modules/mounts/mounts.service';
import { NodeError } from 'src/modules/nodes/nodes.errors';

const mountId = new DecimalIdPipe(MountError.NOT_FOUND);

/** Mounts: directories of a node given to servers (scope nodes.*; docs/admin-mounts.md). */
@ApiTags('admin: mounts')
@Controller('api/admin/mounts')
export class MountsController {
  constructor(private readonly service: MountsService) {}

  @Get()
  @Authenticated({ admin: AdminScope.MOUNTS_READ })
  @ApiPage(MountResponseDto)
  list(@Query() query: MountListQueryDto): Promise<Paginated<MountResponseDto>> {
    return this.service.list(toPage(query), query.search);
  }

  @Post()
  @Authenticated({ admin: AdminScope.MOUNTS_WRITE })
  @ApiData(MountDetailDto, { status: 201 })
  async create(@Body() dto: CreateMountDto, @CurrentActor() actor: Actor): Promise<{ data: MountDetailDto }> {
    return { data: await this.service.create(dto, actor) };
  }

  /** The mount with its linked eggs and nodes and the servers it is attached to. */
  @Get(':id')
  @Authenticated({ admin: AdminScope.MOUNTS_READ })
  @ApiData(MountDetailDto)
  async get(@Param('id', mountId) id: string): Promise<{ data: MountDetailDto }> {
    return { data: await this.service.get(id) };
  }

  @Patch(':id')
  @Authenticated({ admin: AdminScope.MOUNTS_WRITE })
  @ApiData(MountDetailDto)
  async update(@Param('id', mountId) id: string, @Body() dto: UpdateMountDto, @CurrentActor() actor: Actor): Promise<{ data: MountDetailDto }> {
    return { data: await this.service.update(id, dto, actor) };
  }

  /** 409 while servers have it attached. */
  @Delete(':id')
  @HttpCode(204)
  @Authenticated({ admin: AdminScope.MOUNTS_WRITE })
  async delete(@Param('id', mountId) id: string, @CurrentActor() actor: Actor): Promise<void> {
    await this.service.delete(id, actor);
  }

  /** Servers of these eggs may be given the mount. */
  @Post(':id/eggs')
  @HttpCode(200)
  @Authenticated({ admin: AdminScope.MOUNTS_WRITE })
  @ApiData(MountDetailDto)
  async linkEggs(@Param('id', mountId) id: string, @Body() dto: LinkEggsDto, @CurrentActor() actor: Actor): Promise<{ data: MountDetailDto }> {
    return { data: await this.service.linkEggs(id, dto.eggIds, actor) };
  }

  @Delete(':id/eggs/:eggId')
  @Authenticated({ admin: AdminScope.MOUNTS_WRITE })
  @ApiData(MountDetailDto)
  async unlinkEgg(
    @Param('id', mountId) id: string,
    @Param('eggId', uuidParam(EggError.NOT_FOUND)) eggId: string,
    @CurrentActor() actor: Actor,
  ): Promise<{ data: MountDetailDto }> {
    return { data: await this.service.unlinkEgg(id, eggId, actor) };
  }

  /** The source exists on these nodes: they list it in allowed_mounts; re-deploy their config.yml. */
  @Post(':id/nodes')
  @HttpCode(200)
  @Authenticated({ admin: AdminScope.MOUNTS_WRITE })
  @ApiData(MountDetailDto)
  async linkNodes(@Param('id', mountId) id: string, @Body() dto: LinkNodesDto, @CurrentActor() actor: Actor): Promise<{ data: MountDetailDto }> {
    return { data: await this.service.linkNodes(id, dto.nodeIds, actor) };
  }

  @Delete(':id/nodes/:nodeId')
  @Authenticated({ admin: AdminScope.MOUNTS_WRITE })
  @ApiData(MountDetailDto)
  async unlinkNode(
    @Param('id', mountId) id: string,
    @Param('nodeId', new DecimalIdPipe(NodeError.NOT_FOUND)) nodeId: string,
    @CurrentActor() actor: Actor,
  ): Promise<{ data: MountDetailDto }> {
    return { data: await this.service.unlinkNode(id, nodeId, actor) };
  }
}
