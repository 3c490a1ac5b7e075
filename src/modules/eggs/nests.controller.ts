import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiData, ApiPage } from 'src/common/http/api-responses';
import { AdminScope } from 'src/common/auth/admin-scope';
import { Authenticated } from 'src/common/auth/authenticated.decorator';
import { Actor, CurrentActor } from 'src/common/auth/current-actor.decorator';
import { PaginationQueryDto, Paginated, toPage } from 'src/common/http/pagination';
import { uuidParam } from 'src/common/validation/uuid-param';
import { NestResponseDto, toNestResponse } from 'src/modules/eggs/dto/egg-response.dto';
import { CreateNestDto, UpdateNestDto } from 'src/modules/eggs/dto/nest.dto';
import { EggError } from 'src/modules/eggs/eggs.errors';
import { NestsService } from 'src/modules/eggs/nests.service';

const nestId = uuidParam(EggError.NEST_NOT_FOUND);

@ApiTags('admin: nests')
@Controller('api/admin/nests')
export class NestsController {
  constructor(private readonly service: NestsService) {}

  @Get()
  @Authenticated({ admin: AdminScope.EGGS_READ })
  @ApiPage(NestResponseDto)
  list(@Query() query: PaginationQueryDto): Promise<Paginated<NestResponseDto>> {
    return this.service.list(toPage(query));
  }

  @Post()
  @Authenticated({ admin: AdminScope.EGGS_WRITE })
  @ApiData(NestResponseDto, { status: 201 })
  async create(@Body() dto: CreateNestDto, @CurrentActor() actor: Actor): Promise<{ data: NestResponseDto }> {
    return { data: toNestResponse(await this.service.create(dto, actor)) };
  }

  @Get(':id')
  @Authenticated({ admin: AdminScope.EGGS_READ })
  @ApiData(NestResponseDto)
  async get(@Param('id', nestId) id: string): Promise<{ data: NestResponseDto }> {
    return { data: toNestResponse(await this.service.get(id)) };
  }

  @Patch(':id')
  @Authenticated({ admin: AdminScope.EGGS_WRITE })
  @ApiData(NestResponseDto)
  async update(@Param('id', nestId) id: string, @Body() dto: UpdateNestDto, @CurrentActor() actor: Actor): Promise<{ data: NestResponseDto }> {
    return { data: toNestResponse(await this.service.update(id, dto, actor)) };
  }

  @Delete(':id')
  @HttpCode(204)
  @Authenticated({ admin: AdminScope.EGGS_WRITE })
  async delete(@Param('id', nestId) id: string, @CurrentActor() actor: Actor): Promise<void> {
    await this.service.delete(id, actor);
  }
}
