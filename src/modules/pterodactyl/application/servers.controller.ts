import { Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsInt, IsObject, IsString, Matches, Max, MaxLength, Min, MinLength, ValidateNested } from 'class-validator';
import { AppConfigService } from 'src/config/app-config.service';
import { AppException } from 'src/common/errors/app.exception';
import { ErrorCategory } from 'src/common/errors/error-codes';
import { HttpRequest } from 'src/common/http/http';
import { DecimalIdPipe } from 'src/common/validation/decimal-id.pipe';
import { Optional } from 'src/common/validation/decorators';
import type { Actor } from 'src/common/auth/current-actor.decorator';
import { EggsService } from 'src/modules/eggs/eggs.service';
import { ApplicationServerViews, SERVER_INCLUDES } from 'src/modules/pterodactyl/application/server-views';
import type { ResolvedPterodactylKey } from 'src/modules/pterodactyl/keys/pterodactyl-keys.service';
import { AdminServerChangesService } from 'src/modules/servers/admin-server-changes.service';
import { AdminServersService } from 'src/modules/servers/admin-servers.service';
import type { AdminServerDto } from 'src/modules/servers/dto/server-response.dto';
import { filtersOf, FractalItem, FractalPage, includesOf, page, pageOf, sortOf } from 'src/modules/pterodactyl/common/fractal';
import { LaravelBoolean, LaravelInt } from 'src/modules/pterodactyl/common/laravel-rules';
import { existsViolation, PterodactylBody, pterodactylValidationError, uniqueViolation } from 'src/modules/pterodactyl/common/pterodactyl-body';
import { PterodactylError } from 'src/modules/pterodactyl/common/pterodactyl-errors';
import { applicationPaths, ApplicationRoute, PterodactylActor, PterodactylCaller, PterodactylController, PterodactylRequestOf } from 'src/modules/pterodactyl/common/pterodactyl-route';
import { translating } from 'src/modules/pterodactyl/common/translate';
import { fromPterodactylDatabaseLimit } from 'src/modules/pterodactyl/common/database-limit';

const serverId = new DecimalIdPipe(PterodactylError.NOT_FOUND);

const NO_VIABLE = {
  code: 'PTERODACTYL_NO_VIABLE_ALLOCATION',
  category: ErrorCategory.BAD_REQUEST,
  message: 'No viable allocation could be found: no node in the given locations has room for the server and a free allocation that fits.',
};

class LimitsBody {
  @LaravelInt() @Min(0) @Max(2_147_483_647) memory!: number;
  @LaravelInt() @Min(-1) @Max(2_147_483_647) swap!: number;
  @LaravelInt() @Min(0) @Max(2_147_483_647) disk!: number;
  @LaravelInt() @Min(10) @Max(1000) io!: number;
  @LaravelInt() @Min(0) @Max(100_000) cpu!: number;
  @Optional({ nullable: true }) @Matches(/^\d+(-\d+)?(,\d+(-\d+)?)*$/) threads?: string | null;
}

class FeatureLimitsBody {
  @Optional({ nullable: true }) @LaravelInt() @Min(0) @Max(1000) databases?: number | null;
  @Optional({ nullable: true }) @LaravelInt() @Min(0) @Max(1000) allocations?: number | null;
  @Optional({ nullable: true }) @LaravelInt() @Min(0) @Max(1000) backups?: number | null;
}

class AllocationBody {
  @LaravelInt() @Min(1) default!: number;
  @Optional() @IsArray() @ArrayMaxSize(100) @IsInt({ each: true }) additional?: number[];
}

class DeployBody {
  @IsArray() @ArrayMaxSize(100) @IsInt({ each: true }) @Min(1, { each: true }) locations!: number[];
  @LaravelBoolean() dedicated_ip!: boolean;
  @Optional() @IsArray() @ArrayMaxSize(100) @Matches(/^\d{1,5}(-\d{1,5})?$/, { each: true }) port_range?: string[];
}

/** StoreServerRequest: `allocation` or `deploy` says where the server goes. */
class StoreServerBody {
  @Optional({ nullable: true }) @IsString() @MinLength(1) @MaxLength(191) external_id?: string | null;
  @IsString() @MinLength(1) @MaxLength(191) name!: string;
  @Optional({ nullable: true }) @IsString() @MaxLength(65_535) description?: string | null;
  @LaravelInt() @Min(1) user!: number;
  @LaravelInt() @Min(1) egg!: number;
  @Optional() @IsString() @MinLength(1) @MaxLength(2048) docker_image?: string;
  @Optional() @IsString() @MinLength(1) @MaxLength(65_535) startup?: string;
  @Optional() @IsObject() environment?: Record<string, unknown>;
  @Optional() @LaravelBoolean() skip_scripts?: boolean;
  @Optional() @LaravelBoolean() oom_disabled?: boolean;
  @Optional() @LaravelBoolean() start_on_completion?: boolean;
  @IsObject() @ValidateNested() @Type(() => LimitsBody) limits!: LimitsBody;
  @IsObject() @ValidateNested() @Type(() => FeatureLimitsBody) feature_limits!: FeatureLimitsBody;
  @Optional() @IsObject() @ValidateNested() @Type(() => AllocationBody) allocation?: AllocationBody;
  @Optional() @IsObject() @ValidateNested() @Type(() => DeployBody) deploy?: DeployBody;
}

class DetailsBody {
  @Optional({ nullable: true }) @IsString() @MinLength(1) @MaxLength(191) external_id?: string | null;
  @Optional() @IsString() @MinLength(1) @MaxLength(191) name?: string;
  @Optional() @LaravelInt() @Min(1) user?: number;
  @Optional({ nullable: true }) @IsString() @MaxLength(65_535) description?: string | null;
}

class PartialLimitsBody {
  @Optional() @LaravelInt() @Min(0) @Max(2_147_483_647) memory?: number;
  @Optional() @LaravelInt() @Min(-1) @Max(2_147_483_647) swap?: number;
  @Optional() @LaravelInt() @Min(0) @Max(2_147_483_647) disk?: number;
  @Optional() @LaravelInt() @Min(10) @Max(1000) io?: number;
  @Optional() @LaravelInt() @Min(0) @Max(100_000) cpu?: number;
  @Optional({ nullable: true }) @Matches(/^\d+(-\d+)?(,\d+(-\d+)?)*$/) threads?: string | null;
}

/** UpdateServerBuildConfigurationRequest: limits inside `limits` or, the legacy way, at the top level. */
class BuildBody extends PartialLimitsBody {
  @Optional() @LaravelInt() @Min(1) allocation?: number;
  @Optional() @LaravelBoolean() oom_disabled?: boolean;
  @Optional() @IsObject() @ValidateNested() @Type(() => PartialLimitsBody) limits?: PartialLimitsBody;
  @Optional() @IsObject() @ValidateNested() @Type(() => FeatureLimitsBody) feature_limits?: FeatureLimitsBody;
  @Optional() @IsArray() @ArrayMaxSize(100) @IsInt({ each: true }) @Min(1, { each: true }) add_allocations?: number[];
  @Optional() @IsArray() @ArrayMaxSize(100) @IsInt({ each: true }) @Min(1, { each: true }) remove_allocations?: number[];
}

class StartupBody {
  @Optional() @IsString() @MinLength(1) @MaxLength(65_535) startup?: string;
  @Optional() @IsObject() environment?: Record<string, unknown>;
  @Optional() @LaravelInt() @Min(1) egg?: number;
  @Optional() @IsString() @MinLength(1) @MaxLength(2048) image?: string;
  @Optional() @LaravelBoolean() skip_scripts?: boolean;
}

const ids = (values: unknown[] | undefined): string[] | undefined => values?.map((v) => String(v));

/** `"25565"` or `"25565-25570"` → [from, to]. */
const rangeOf = (spec: string): [number, number] => {
  const [from, to = from] = spec.split('-').map(Number);
  return [from, to];
};

const CREATE_ERRORS = {
  EGG_NOT_FOUND: () => existsViolation('egg'),
  USER_NOT_FOUND: () => existsViolation('user'),
  SERVER_EXTERNAL_ID_TAKEN: () => uniqueViolation('external_id'),
  ALLOCATION_UNAVAILABLE: () => pterodactylValidationError([{ field: 'allocation.default', rule: 'p_allocation_available', detail: 'The allocation is not free on this node.' }]),
};

type QueryParams = Record<string, unknown>;

/** Pterodactyl's application servers (routes/api-application.php, /servers). */
@PterodactylController()
@Controller(applicationPaths('servers'))
export class ApplicationServersController {
  constructor(
    private readonly servers: AdminServersService,
    private readonly changes: AdminServerChangesService,
    private readonly eggs: EggsService,
    private readonly config: AppConfigService,
    private readonly serverViews: ApplicationServerViews,
  ) {}

  @Get()
  @ApplicationRoute('servers', 'read')
  async list(@Query() query: QueryParams, @PterodactylCaller() key: ResolvedPterodactylKey, @PterodactylRequestOf() req: HttpRequest): Promise<FractalPage> {
    const at = pageOf(query);
    const { uuidShort: identifier, external_id: externalId, ...filters } = filtersOf(query, ['uuid', 'uuidShort', 'name', 'description', 'image', 'external_id'] as const);
    const list = { filters: { ...filters, identifier, externalId }, sort: sortOf(query, ['id', 'uuid'] as const) };
    const { data, meta } = await this.servers.list(at, undefined, {}, list);
    return page(await this.serverViews.views(data, includesOf(query, SERVER_INCLUDES), key), meta.pagination.total, at, req, this.config.http.appUrl);
  }

  @Get('external/:externalId')
  @ApplicationRoute('servers', 'read')
  async external(@Param('externalId') externalId: string, @Query() query: QueryParams, @PterodactylCaller() key: ResolvedPterodactylKey): Promise<FractalItem> {
    return (await this.serverViews.views([await this.servers.getByExternalId(externalId)], includesOf(query, SERVER_INCLUDES), key))[0];
  }

  @Get(':id')
  @ApplicationRoute('servers', 'read')
  async get(@Param('id', serverId) id: string, @Query() query: QueryParams, @PterodactylCaller() key: ResolvedPterodactylKey): Promise<FractalItem> {
    return (await this.serverViews.views([await this.servers.get(id)], includesOf(query, SERVER_INCLUDES), key))[0];
  }

  @Post()
  @HttpCode(201)
  @ApplicationRoute('servers', 'write')
  async create(
    @PterodactylBody(StoreServerBody) body: StoreServerBody,
    @Query() query: QueryParams,
    @PterodactylActor() actor: Actor,
    @PterodactylCaller() key: ResolvedPterodactylKey,
  ): Promise<FractalItem> {
    const egg = await this.eggs.findEggByIntId(body.egg);
    if (!egg) {
      throw existsViolation('egg');
    }
    const place = await this.placement(body);
    // Billing systems send every variable they know of; those the egg lacks are left out, as Pterodactyl does.
    const known = new Set((await this.eggs.variablesOf(egg.id)).map((v) => v.envVariable));
    const environment = Object.fromEntries(Object.entries(body.environment ?? {}).filter(([name]) => known.has(name)));
    const created = await translating(
      this.servers.create(
        {
          name: body.name,
          description: body.description ?? null,
          external_id: body.external_id ?? null,
          owner_id: String(body.user),
          node_id: place.nodeId,
          egg_id: egg.id,
          memory: body.limits.memory,
          swap: body.limits.swap,
          disk: body.limits.disk,
          io: body.limits.io,
          cpu: body.limits.cpu,
          threads: body.limits.threads ?? null,
          allocation_id: place.allocationId,
          additional_allocation_ids: ids(body.allocation?.additional),
          environment,
          ...(body.startup !== undefined ? { startup: body.startup } : {}),
          ...(body.docker_image !== undefined ? { docker_image: body.docker_image } : {}),
          // Pterodactyl stores a null limit on create as 0, which allows no databases.
          database_limit: fromPterodactylDatabaseLimit(body.feature_limits.databases ?? 0),
          allocation_limit: body.feature_limits.allocations ?? 0,
          backup_limit: body.feature_limits.backups ?? 0,
          skip_scripts: body.skip_scripts ?? false,
          start_on_completion: body.start_on_completion ?? false,
          ...(body.oom_disabled !== undefined ? { oom_disabled: body.oom_disabled } : {}),
        },
        actor,
      ),
      CREATE_ERRORS,
    );
    return this.view(created, query, key);
  }

  @Patch(':id/details')
  @ApplicationRoute('servers', 'write')
  async details(
    @Param('id', serverId) id: string,
    @PterodactylBody(DetailsBody) body: DetailsBody,
    @Query() query: QueryParams,
    @PterodactylActor() actor: Actor,
    @PterodactylCaller() key: ResolvedPterodactylKey,
  ): Promise<FractalItem> {
    const { server } = await translating(
      this.changes.updateDetails(
        id,
        {
          ...(body.name !== undefined ? { name: body.name } : {}),
          ...(body.description !== undefined ? { description: body.description } : {}),
          ...(body.external_id !== undefined ? { external_id: body.external_id } : {}),
          ...(body.user !== undefined ? { owner_id: String(body.user) } : {}),
        },
        actor,
      ),
      { USER_NOT_FOUND: () => existsViolation('user'), SERVER_EXTERNAL_ID_TAKEN: () => uniqueViolation('external_id') },
    );
    return this.view(server, query, key);
  }

  @Patch(':id/build')
  @ApplicationRoute('servers', 'write')
  async build(
    @Param('id', serverId) id: string,
    @PterodactylBody(BuildBody) body: BuildBody,
    @Query() query: QueryParams,
    @PterodactylActor() actor: Actor,
    @PterodactylCaller() key: ResolvedPterodactylKey,
  ): Promise<FractalItem> {
    const limits = { ...body, ...body.limits };
    const given = <T>(value: T | undefined | null): T | undefined => (value === null ? undefined : value);
    const { server } = await translating(
      this.changes.updateBuild(
        id,
        {
          ...(limits.memory !== undefined ? { memory: limits.memory } : {}),
          ...(limits.swap !== undefined ? { swap: limits.swap } : {}),
          ...(limits.disk !== undefined ? { disk: limits.disk } : {}),
          ...(limits.io !== undefined ? { io: limits.io } : {}),
          ...(limits.cpu !== undefined ? { cpu: limits.cpu } : {}),
          ...(limits.threads !== undefined ? { threads: limits.threads } : {}),
          ...(body.oom_disabled !== undefined ? { oom_disabled: body.oom_disabled } : {}),
          ...(body.allocation !== undefined ? { allocation_id: String(body.allocation) } : {}),
          // With feature_limits given, a null or absent limit is null there: unlimited.
          database_limit: body.feature_limits ? fromPterodactylDatabaseLimit(body.feature_limits.databases ?? null) : undefined,
          allocation_limit: given(body.feature_limits?.allocations),
          backup_limit: given(body.feature_limits?.backups),
          add_allocations: ids(body.add_allocations),
          remove_allocations: ids(body.remove_allocations),
        },
        actor,
      ),
      { ALLOCATION_UNAVAILABLE: () => pterodactylValidationError([{ field: 'allocation', rule: 'p_allocation_available', detail: 'The allocation is not free on this node.' }]) },
    );
    return this.view(server, query, key);
  }

  @Patch(':id/startup')
  @ApplicationRoute('servers', 'write')
  async startup(
    @Param('id', serverId) id: string,
    @PterodactylBody(StartupBody) body: StartupBody,
    @Query() query: QueryParams,
    @PterodactylActor() actor: Actor,
    @PterodactylCaller() key: ResolvedPterodactylKey,
  ): Promise<FractalItem> {
    const current = await this.servers.get(id);
    let eggId = current.eggId;
    if (body.egg !== undefined) {
      const egg = await this.eggs.findEggByIntId(body.egg);
      if (!egg) {
        throw existsViolation('egg');
      }
      eggId = egg.id;
    }
    // The environment is read against the egg the server will have (a new egg brings its own variables).
    const variables = new Set((await this.eggs.variablesOf(eggId)).map((v) => v.envVariable));
    const environment = body.environment ? Object.fromEntries(Object.entries(body.environment).filter(([name]) => variables.has(name))) : undefined;
    const { server } = await this.changes.updateStartup(
      id,
      {
        ...(eggId !== current.eggId ? { egg_id: eggId } : {}),
        ...(body.startup !== undefined ? { startup: body.startup } : {}),
        ...(environment !== undefined ? { environment } : {}),
        ...(body.image !== undefined ? { image: body.image } : {}),
        ...(body.skip_scripts !== undefined ? { skip_scripts: body.skip_scripts } : {}),
      },
      actor,
    );
    return this.view(server, query, key);
  }

  @Post(':id/suspend')
  @HttpCode(204)
  @ApplicationRoute('servers', 'write')
  async suspend(@Param('id', serverId) id: string, @PterodactylActor() actor: Actor): Promise<void> {
    await this.changes.setSuspended(id, true, actor);
  }

  @Post(':id/unsuspend')
  @HttpCode(204)
  @ApplicationRoute('servers', 'write')
  async unsuspend(@Param('id', serverId) id: string, @PterodactylActor() actor: Actor): Promise<void> {
    await this.changes.setSuspended(id, false, actor);
  }

  @Post(':id/reinstall')
  @HttpCode(204)
  @ApplicationRoute('servers', 'write')
  async reinstall(@Param('id', serverId) id: string, @PterodactylActor() actor: Actor): Promise<void> {
    await this.changes.reinstall(id, actor);
  }

  @Delete(':id')
  @HttpCode(204)
  @ApplicationRoute('servers', 'write')
  async delete(@Param('id', serverId) id: string, @PterodactylActor() actor: Actor): Promise<void> {
    await this.servers.delete(id, false, actor);
  }

  /** `DELETE /servers/{id}/force`: deleted here even when its node cannot be reached. */
  @Delete(':id/force')
  @HttpCode(204)
  @ApplicationRoute('servers', 'write')
  async forceDelete(@Param('id', serverId) id: string, @PterodactylActor() actor: Actor): Promise<void> {
    await this.servers.delete(id, true, actor);
  }

  /** Where a new server goes: its `allocation.default`, or by `deploy` a free allocation on a node with room. */
  private async placement(body: StoreServerBody): Promise<{ nodeId: string; allocationId: string }> {
    if (body.allocation) {
      const nodeId = await this.servers.nodeOfAllocation(String(body.allocation.default));
      if (!nodeId) {
        throw existsViolation('allocation.default');
      }
      return { nodeId, allocationId: String(body.allocation.default) };
    }
    if (!body.deploy) {
      throw pterodactylValidationError([{ field: 'allocation.default', rule: 'required_without', detail: 'The allocation.default field is required when deploy is not present.' }]);
    }
    const everything = { page: 1, perPage: 1_000_000, skip: 0 };
    const [nodeIds] = await this.servers.deployableNodeIds(body.deploy.locations.map(String), body.limits.memory, body.limits.disk, everything);
    const found = await this.servers.deployAllocation(nodeIds, (body.deploy.port_range ?? []).map(rangeOf), body.deploy.dedicated_ip);
    if (!found) {
      throw new AppException(NO_VIABLE);
    }
    return { nodeId: found.nodeId, allocationId: found.id };
  }

  /** A changed or created server as the routes that read it show it, with the `?include=` asked for. */
  private async view(server: AdminServerDto, query: QueryParams, key: ResolvedPterodactylKey): Promise<FractalItem> {
    return (await this.serverViews.views([server], includesOf(query, SERVER_INCLUDES), key))[0];
  }
}
