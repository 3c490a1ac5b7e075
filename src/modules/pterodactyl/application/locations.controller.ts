import { Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { PartialType } from '@nestjs/swagger';
import { IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { AppConfigService } from 'src/config/app-config.service';
import { HttpRequest } from 'src/common/http/http';
import { DecimalIdPipe } from 'src/common/validation/decimal-id.pipe';
import { Optional } from 'src/common/validation/decorators';
import type { Actor } from 'src/common/auth/current-actor.decorator';
import { toLocationResponse } from 'src/modules/nodes/dto/location.dto';
import { LocationsService } from 'src/modules/nodes/locations.service';
import { locationItem } from 'src/modules/pterodactyl/application/transformers';
import { filtersOf, FractalItem, FractalPage, page, pageOf, sortOf } from 'src/modules/pterodactyl/common/fractal';
import { PterodactylBody, uniqueViolation } from 'src/modules/pterodactyl/common/pterodactyl-body';
import { PterodactylError } from 'src/modules/pterodactyl/common/pterodactyl-errors';
import { applicationPaths, ApplicationRoute, PterodactylActor, PterodactylController, PterodactylRequestOf } from 'src/modules/pterodactyl/common/pterodactyl-route';
import { translating } from 'src/modules/pterodactyl/common/translate';

const locationId = new DecimalIdPipe(PterodactylError.NOT_FOUND);

/** Pterodactyl's location body (Location::$validationRules), within Hatchery's rule for `short`. */
class StoreLocationBody {
  @IsString()
  @Matches(/^[A-Za-z0-9_.-]{1,60}$/)
  short!: string;

  @Optional({ nullable: true })
  @IsString()
  @MinLength(1)
  @MaxLength(191)
  long?: string | null;
}

class UpdateLocationBody extends PartialType(StoreLocationBody, { skipNullProperties: false }) {}

const UNIQUE = { LOCATION_SHORT_TAKEN: () => uniqueViolation('short') };

/** Pterodactyl's application locations (routes/api-application.php, /locations). */
@PterodactylController()
@Controller(applicationPaths('locations'))
export class ApplicationLocationsController {
  constructor(
    private readonly locations: LocationsService,
    private readonly config: AppConfigService,
  ) {}

  @Get()
  @ApplicationRoute('locations', 'read')
  async list(@Query() query: Record<string, unknown>, @PterodactylRequestOf() req: HttpRequest): Promise<FractalPage> {
    const at = pageOf(query);
    const { data, meta } = await this.locations.list(at, { filters: filtersOf(query, ['short', 'long'] as const), sort: sortOf(query, ['id'] as const) });
    return page(data.map(locationItem), meta.pagination.total, at, req, this.config.http.appUrl);
  }

  @Get(':id')
  @ApplicationRoute('locations', 'read')
  async view(@Param('id', locationId) id: string): Promise<FractalItem> {
    return locationItem(toLocationResponse(await this.locations.get(id)));
  }

  @Post()
  @HttpCode(201)
  @ApplicationRoute('locations', 'write')
  async create(@PterodactylBody(StoreLocationBody) body: StoreLocationBody, @PterodactylActor() actor: Actor): Promise<FractalItem & { meta: { resource: string } }> {
    const location = await translating(this.locations.create({ short: body.short, long: body.long ?? null }, actor), UNIQUE);
    return { ...locationItem(toLocationResponse(location)), meta: { resource: new URL(`/api/application/locations/${location.id}`, this.config.http.appUrl).toString() } };
  }

  @Patch(':id')
  @ApplicationRoute('locations', 'write')
  async update(@Param('id', locationId) id: string, @PterodactylBody(UpdateLocationBody) body: UpdateLocationBody, @PterodactylActor() actor: Actor): Promise<FractalItem> {
    const changes = { ...(body.short !== undefined ? { short: body.short } : {}), ...(body.long !== undefined ? { long: body.long } : {}) };
    return locationItem(toLocationResponse(await translating(this.locations.update(id, changes, actor), UNIQUE)));
  }

  @Delete(':id')
  @HttpCode(204)
  @ApplicationRoute('locations', 'write')
  async delete(@Param('id', locationId) id: string, @PterodactylActor() actor: Actor): Promise<void> {
    await this.locations.delete(id, actor);
  }
}
