import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiData, ApiPage } from 'src/common/http/api-responses';
import { AdminScope } from 'src/common/auth/admin-scope';
import { Authenticated } from 'src/common/auth/authenticated.decorator';
import { Actor, CurrentActor } from 'src/common/auth/current-actor.decorator';
import { PaginationQueryDto, Paginated, toPage } from 'src/common/http/pagination';
import { DecimalIdPipe } from 'src/common/validation/decimal-id.pipe';
import { CreateLocationDto, LocationResponseDto, toLocationResponse, UpdateLocationDto } from 'src/modules/nodes/dto/location.dto';
import { LocationsService } from 'src/modules/nodes/locations.service';
import { NodeError } from 'src/modules/nodes/nodes.errors';

const locationId = new DecimalIdPipe(NodeError.LOCATION_NOT_FOUND);

@ApiTags('admin: locations')
@Controller('api/admin/locations')
export class LocationsController {
  constructor(private readonly service: LocationsService) {}

  @Get()
  @Authenticated({ admin: AdminScope.LOCATIONS_READ })
  @ApiPage(LocationResponseDto)
  list(@Query() query: PaginationQueryDto): Promise<Paginated<LocationResponseDto>> {
    return this.service.list(toPage(query));
  }

  @Post()
  @Authenticated({ admin: AdminScope.LOCATIONS_WRITE })
  @ApiData(LocationResponseDto, { status: 201 })
  async create(@Body() dto: CreateLocationDto, @CurrentActor() actor: Actor): Promise<{ data: LocationResponseDto }> {
    return { data: toLocationResponse(await this.service.create(dto, actor)) };
  }

  @Get(':id')
  @Authenticated({ admin: AdminScope.LOCATIONS_READ })
  @ApiData(LocationResponseDto)
  async get(@Param('id', locationId) id: string): Promise<{ data: LocationResponseDto }> {
    return { data: toLocationResponse(await this.service.get(id)) };
  }

  @Patch(':id')
  @Authenticated({ admin: AdminScope.LOCATIONS_WRITE })
  @ApiData(LocationResponseDto)
  async update(
    @Param('id', locationId) id: string,
    @Body() dto: UpdateLocationDto,
    @CurrentActor() actor: Actor,
  ): Promise<{ data: LocationResponseDto }> {
    return { data: toLocationResponse(await this.service.update(id, dto, actor)) };
  }

  @Delete(':id')
  @HttpCode(204)
  @Authenticated({ admin: AdminScope.LOCATIONS_WRITE })
  async delete(@Param('id', locationId) id: string, @CurrentActor() actor: Actor): Promise<void> {
    await this.service.delete(id, actor);
  }
}
