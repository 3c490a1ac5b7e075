import { Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { PartialType } from '@nestjs/swagger';
import { IsIn, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { AppConfigService } from 'src/config/app-config.service';
import { headerOf, HttpRequest } from 'src/common/http/http';
import { DecimalIdPipe } from 'src/common/validation/decimal-id.pipe';
import { Optional } from 'src/common/validation/decorators';
import type { Actor } from 'src/common/auth/current-actor.decorator';
import type { DaemonConfiguration } from 'src/modules/nodes/daemon-configuration';
import { NodeResponseDto, toNodeResponse } from 'src/modules/nodes/dto/node.dto';
import { NODE_SCHEMES } from 'src/modules/nodes/node.entity';
import { NodesService } from 'src/modules/nodes/nodes.service';
import { AdminServersService } from 'src/modules/servers/admin-servers.service';
import { allocationItem, locationItem, nodeItem } from 'src/modules/pterodactyl/application/transformers';
import { AllocationsService } from 'src/modules/nodes/allocations.service';
import { toLocationResponse } from 'src/modules/nodes/dto/location.dto';
import { LocationsService } from 'src/modules/nodes/locations.service';
import { keyAllows, ResolvedPterodactylKey } from 'src/modules/pterodactyl/keys/pterodactyl-keys.service';
import { filtersOf, FractalItem, FractalList, FractalPage, includesOf, list, NULL_RESOURCE, page, pageOf, PterodactylPage, sortOf, withRelationships } from 'src/modules/pterodactyl/common/fractal';
import { LaravelBoolean, LaravelInt } from 'src/modules/pterodactyl/common/laravel-rules';
import { existsViolation, PterodactylBody, pterodactylValidationError } from 'src/modules/pterodactyl/common/pterodactyl-body';
import { PterodactylError } from 'src/modules/pterodactyl/common/pterodactyl-errors';
import { applicationPaths, ApplicationRoute, PterodactylActor, PterodactylCaller, PterodactylController, PterodactylRequestOf } from 'src/modules/pterodactyl/common/pterodactyl-route';
import { translating } from 'src/modules/pterodactyl/common/translate';

const nodeId = new DecimalIdPipe(PterodactylError.NOT_FOUND);

const NODE_INCLUDES = ['allocations', 'location'] as const;
type NodeInclude = (typeof NODE_INCLUDES)[number];

/** Every allocation of a node, as an include lists them. */
const EVERYTHING = { page: 1, perPage: 1_000_000, skip: 0 };

/** Pterodactyl's node body (StoreNodeRequest, from the Node model's rules). */
class StoreNodeBody {
  @Matches(/^[\w .-]{1,100}$/)
  name!: string;

  @Optional({ nullable: true })
  @IsString()
  @MaxLength(65_535)
  description?: string | null;

  @LaravelInt()
  @Min(1)
  location_id!: number;

  @Optional()
  @LaravelBoolean()
  public?: boolean;

  @IsString()
  @Matches(/^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?$/)
  fqdn!: string;

  @IsIn(NODE_SCHEMES)
  scheme!: 'http' | 'https';

  @Optional()
  @LaravelBoolean()
  behind_proxy?: boolean;

  @Optional()
  @LaravelBoolean()
  maintenance_mode?: boolean;

  @LaravelInt()
  @Min(1)
  @Max(2_147_483_647)
  memory!: number;

  @Optional()
  @LaravelInt()
  @Min(-1)
  @Max(10_000)
  memory_overallocate?: number;

  @LaravelInt()
  @Min(1)
  @Max(2_147_483_647)
  disk!: number;

  @Optional()
  @LaravelInt()
  @Min(-1)
  @Max(10_000)
  disk_overallocate?: number;

  @Optional()
  @LaravelInt()
  @Min(1)
  @Max(1024)
  upload_size?: number;

  @Optional()
  @LaravelInt()
  @Min(1)
  @Max(65_535)
  daemon_listen?: number;

  @Optional()
  @LaravelInt()
  @Min(1)
  @Max(65_535)
  daemon_sftp?: number;

  @Optional()
  @Matches(/^\/[\w.\-/]+$/)
  daemon_base?: string;
}

/** On update every field is optional. */
class UpdateNodeBody extends PartialType(StoreNodeBody, { skipNullProperties: false }) {}

/** The body in Hatchery's field names, only what was given. */
const toHatchery = (b: UpdateNodeBody) => {
  const fields = {
    name: b.name,
    description: b.description,
    locationId: b.location_id === undefined ? undefined : String(b.location_id),
    public: b.public,
    fqdn: b.fqdn,
    scheme: b.scheme,
    behindProxy: b.behind_proxy,
    maintenanceMode: b.maintenance_mode,
    memory: b.memory,
    memoryOverallocate: b.memory_overallocate,
    disk: b.disk,
    diskOverallocate: b.disk_overallocate,
    uploadSize: b.upload_size,
    daemonListen: b.daemon_listen,
    daemonSftp: b.daemon_sftp,
    daemonBase: b.daemon_base,
  };
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as Partial<typeof fields>;
};

const NODE_ERRORS = {
  LOCATION_NOT_FOUND: () => existsViolation('location_id'),
  NODE_BASE_URL_TAKEN: () =>
    pterodactylValidationError([{ field: 'fqdn', rule: 'unique', detail: 'Another node already uses this scheme, FQDN and daemon port.' }]),
};

/** `?location_ids[]=1&location_ids[]=2`, `?location_ids=1,2` or a JSON body's array: the ids, or null when one is not an integer. */
const locationIdsOf = (query: Record<string, unknown>): string[] | null => {
  const raw = query['location_ids[]'] ?? query.location_ids ?? Object.entries(query).filter(([k]) => /^location_ids\[\d+\]$/.test(k)).map(([, v]) => v);
  const values = (Array.isArray(raw) ? raw : typeof raw === 'string' ? raw.split(',') : []).map((v) => String(v).trim()).filter((v) => v !== '');
  return values.every((v) => /^[1-9]\d{0,17}$/.test(v)) ? values : null;
};

/** The JSON body of a GET (Fastify leaves it unread): at most 64 KiB, else or when it is not a JSON object, none. */
const getBodyOf = async (req: HttpRequest): Promise<Record<string, unknown>> => {
  const length = Number(headerOf(req, 'content-length') ?? 0);
  if (!(length > 0 && length <= 65_536) || !(headerOf(req, 'content-type') ?? '').startsWith('application/json')) {
    return {};
  }
  const chunks: Buffer[] = [];
  for await (const chunk of req.raw) {
    chunks.push(chunk as Buffer);
  }
  try {
    const parsed: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
};

const wholeMiB = (value: unknown): number | undefined => {
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^\d{1,10}$/.test(value) ? Number(value) : NaN;
  return Number.isInteger(n) && n >= 0 && n <= 2_147_483_647 ? n : undefined;
};

/** Pterodactyl's application nodes (routes/api-application.php, /nodes). */
@PterodactylController()
@Controller(applicationPaths('nodes'))
export class ApplicationNodesController {
  constructor(
    private readonly nodes: NodesService,
    private readonly servers: AdminServersService,
    private readonly allocations: AllocationsService,
    private readonly locations: LocationsService,
    private readonly config: AppConfigService,
  ) {}

  @Get()
  @ApplicationRoute('nodes', 'read')
  async list(@Query() query: Record<string, unknown>, @PterodactylCaller() key: ResolvedPterodactylKey, @PterodactylRequestOf() req: HttpRequest): Promise<FractalPage> {
    const at = pageOf(query);
    const { daemon_token_id: tokenIdentifier, ...filters } = filtersOf(query, ['uuid', 'name', 'fqdn', 'daemon_token_id'] as const);
    const { data, meta } = await this.nodes.list(at, { filters: { ...filters, tokenIdentifier }, sort: sortOf(query, ['id', 'uuid', 'memory', 'disk'] as const) });
    return page(await this.views(data, includesOf(query, NODE_INCLUDES), key), meta.pagination.total, at, req, this.config.http.appUrl);
  }

  /** Nodes with room for `memory` and `disk` more MiB (FindViableNodesService), optionally in `location_ids`. */
  @Get('deployable')
  @ApplicationRoute('nodes', 'read')
  async deployable(@Query() rawQuery: Record<string, unknown>, @PterodactylRequestOf() req: HttpRequest): Promise<FractalPage> {
    // Laravel validates the query and the body alike; PteroJS sends these as a GET body.
    const query = { ...(await getBodyOf(req)), ...rawQuery };
    const memory = wholeMiB(query.memory);
    const disk = wholeMiB(query.disk);
    const locationIds = locationIdsOf(query);
    const errors = [
      ...(memory === undefined ? [{ field: 'memory', rule: query.memory === undefined ? 'required' : 'integer', detail: query.memory === undefined ? 'The memory field is required.' : 'The memory must be an integer.' }] : []),
      ...(disk === undefined ? [{ field: 'disk', rule: query.disk === undefined ? 'required' : 'integer', detail: query.disk === undefined ? 'The disk field is required.' : 'The disk must be an integer.' }] : []),
      ...(locationIds === null ? [{ field: 'location_ids', rule: 'integer', detail: 'The location ids must be integers.' }] : []),
    ];
    if (errors.length > 0) {
      throw pterodactylValidationError(errors);
    }
    const at: PterodactylPage = pageOf(query);
    const [ids, total] = await this.servers.deployableNodeIds(locationIds!, memory!, disk!, at);
    const found = await Promise.all(ids.map((id) => this.nodes.get(id)));
    return page(await this.views(found.map(toNodeResponse)), total, at, req, this.config.http.appUrl);
  }

  @Get(':id')
  @ApplicationRoute('nodes', 'read')
  async view(@Param('id', nodeId) id: string, @Query() query: Record<string, unknown>, @PterodactylCaller() key: ResolvedPterodactylKey): Promise<FractalItem> {
    return (await this.views([toNodeResponse(await this.nodes.get(id))], includesOf(query, NODE_INCLUDES), key))[0];
  }

  /** The bare configuration Wings writes as config.yml (`wings configure` fetches this with an application key). */
  @Get(':id/configuration')
  @ApplicationRoute('nodes', 'read')
  async configuration(@Param('id', nodeId) id: string): Promise<DaemonConfiguration> {
    return this.nodes.configurationOf(await this.nodes.get(id));
  }

  @Post()
  @HttpCode(201)
  @ApplicationRoute('nodes', 'write')
  async create(@PterodactylBody(StoreNodeBody) body: StoreNodeBody, @PterodactylActor() actor: Actor): Promise<FractalItem & { meta: { resource: string } }> {
    const { name, fqdn, memory, disk, ...rest } = toHatchery(body);
    const node = await translating(this.nodes.create({ name: name!, fqdn: fqdn!, memory: memory!, disk: disk!, ...rest }, actor), NODE_ERRORS);
    return { ...(await this.views([toNodeResponse(node)]))[0], meta: { resource: new URL(`/api/application/nodes/${node.id}`, this.config.http.appUrl).toString() } };
  }

  @Patch(':id')
  @ApplicationRoute('nodes', 'write')
  async update(@Param('id', nodeId) id: string, @PterodactylBody(UpdateNodeBody) body: UpdateNodeBody, @PterodactylActor() actor: Actor): Promise<FractalItem> {
    const { node } = await translating(this.nodes.update(id, toHatchery(body), actor), NODE_ERRORS);
    return (await this.views([toNodeResponse(node)]))[0];
  }

  @Delete(':id')
  @HttpCode(204)
  @ApplicationRoute('nodes', 'write')
  async delete(@Param('id', nodeId) id: string, @PterodactylActor() actor: Actor): Promise<void> {
    await this.nodes.delete(id, actor);
  }

  /** The nodes as Pterodactyl shows them, with the relationships asked for that the key may read. */
  private async views(nodes: NodeResponseDto[], includes: Set<NodeInclude> = new Set(), key?: ResolvedPterodactylKey): Promise<FractalItem[]> {
    const allocated = await this.servers.allocatedByNode(nodes.map((n) => n.id));
    const may = (resource: 'allocations' | 'locations'): boolean => key !== undefined && keyAllows(key.permissions, resource, 'read');
    return Promise.all(
      nodes.map(async (n) => {
        const relationships: Record<string, FractalItem | FractalList> = {};
        if (includes.has('allocations')) {
          relationships.allocations = may('allocations') ? list((await this.allocations.list(n.id, EVERYTHING)).data.map(allocationItem)) : NULL_RESOURCE;
        }
        if (includes.has('location')) {
          relationships.location = may('locations') && n.locationId !== null ? locationItem(toLocationResponse(await this.locations.get(n.locationId))) : NULL_RESOURCE;
        }
        return withRelationships(nodeItem(n, allocated.get(n.id) ?? { memory: 0, disk: 0 }), relationships);
      }),
    );
  }
}
