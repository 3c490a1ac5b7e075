import { Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsIP, IsString, Matches, MaxLength } from 'class-validator';
import ipaddr from 'ipaddr.js';
import { AppConfigService } from 'src/config/app-config.service';
import { HttpRequest } from 'src/common/http/http';
import { DecimalIdPipe, isDecimalId } from 'src/common/validation/decimal-id.pipe';
import { Optional } from 'src/common/validation/decorators';
import type { Actor } from 'src/common/auth/current-actor.decorator';
import { AllocationsService } from 'src/modules/nodes/allocations.service';
import type { AllocationFilter } from 'src/modules/nodes/dto/allocation.dto';
import { allocationItem } from 'src/modules/pterodactyl/application/transformers';
import { filtersOf, FractalPage, page, pageOf } from 'src/modules/pterodactyl/common/fractal';
import { PterodactylBody, pterodactylValidationError } from 'src/modules/pterodactyl/common/pterodactyl-body';
import { PterodactylError } from 'src/modules/pterodactyl/common/pterodactyl-errors';
import { applicationPaths, ApplicationRoute, PterodactylActor, PterodactylController, PterodactylRequestOf } from 'src/modules/pterodactyl/common/pterodactyl-route';
import { translating } from 'src/modules/pterodactyl/common/translate';

const id = new DecimalIdPipe(PterodactylError.NOT_FOUND);

/** A server id no row has: a number too long to be an id names no server. */
const NO_SERVER = '-1';

const ALLOCATION_FILTERS = ['ip', 'port', 'ip_alias', 'server_id'] as const;

/**
 * Pterodactyl's allocation filters: `ip` and `port` exact, `ip_alias` contained in the alias,
 * `server_id` the server's id, or a value that is no number (or `0`, as billing modules send it) the
 * free allocations. An IPv6 address is compared in the one spelling allocations are stored in; a port that
 * is not a number matches none.
 */
const allocationFilter = (asked: Partial<Record<(typeof ALLOCATION_FILTERS)[number], string>>): AllocationFilter => {
  const filter: AllocationFilter = {};
  if (asked.ip !== undefined) {
    filter.ip = ipaddr.IPv6.isValid(asked.ip) ? ipaddr.IPv6.parse(asked.ip).toString() : asked.ip;
  }
  if (asked.port !== undefined) {
    filter.port = /^\d{1,5}$/.test(asked.port) ? Number(asked.port) : -1;
  }
  if (asked.ip_alias !== undefined) {
    filter.aliasContains = asked.ip_alias;
  }
  if (asked.server_id !== undefined) {
    const digits = /^\d+$/.test(asked.server_id) && asked.server_id !== '0';
    filter.server = !digits ? null : isDecimalId(asked.server_id) ? asked.server_id : NO_SERVER;
  }
  return filter;
};

/** StoreAllocationRequest: an address, its ports and ranges (`"25565"`, `"25570-25580"`), an alias. */
class StoreAllocationBody {
  @IsIP()
  ip!: string;

  @Optional({ nullable: true })
  @IsString()
  @MaxLength(191)
  alias?: string | null;

  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(100)
  @Matches(/^\d{1,5}(-\d{1,5})?$/, { each: true })
  ports!: string[];
}

/** Pterodactyl's allocations of a node (routes/api-application.php, /nodes/{node}/allocations). */
@PterodactylController()
@Controller(applicationPaths('nodes/:node/allocations'))
export class ApplicationAllocationsController {
  constructor(
    private readonly allocations: AllocationsService,
    private readonly config: AppConfigService,
  ) {}

  @Get()
  @ApplicationRoute('allocations', 'read', 'node')
  async list(@Param('node', id) nodeId: string, @Query() query: Record<string, unknown>, @PterodactylRequestOf() req: HttpRequest): Promise<FractalPage> {
    const at = pageOf(query);
    const { data, meta } = await this.allocations.list(nodeId, at, allocationFilter(filtersOf(query, ALLOCATION_FILTERS)));
    return page(data.map(allocationItem), meta.pagination.total, at, req, this.config.http.appUrl);
  }

  /** 204, as Pterodactyl answers (it does not say which allocations it made). */
  @Post()
  @HttpCode(204)
  @ApplicationRoute('allocations', 'write', 'node')
  async create(@Param('node', id) nodeId: string, @PterodactylBody(StoreAllocationBody) body: StoreAllocationBody, @PterodactylActor() actor: Actor): Promise<void> {
    await translating(this.allocations.create(nodeId, { ip: body.ip, ports: body.ports, alias: body.alias ?? null }, actor), {
      ALLOCATION_EXISTS: () => pterodactylValidationError([{ field: 'ports', rule: 'unique', detail: 'Some of these ports are already allocated on this IP.' }]),
      VALIDATION_FAILED: () => pterodactylValidationError([{ field: 'ports', rule: 'p_port_range', detail: 'The ports must be between 1024 and 65535, in ranges of at most 1000.' }]),
    });
  }

  @Delete(':allocation')
  @HttpCode(204)
  @ApplicationRoute('allocations', 'write', 'node')
  async delete(@Param('node', id) nodeId: string, @Param('allocation', id) allocationId: string, @PterodactylActor() actor: Actor): Promise<void> {
    await this.allocations.delete(nodeId, allocationId, actor);
  }
}
