import { Injectable } from '@nestjs/common';
import { AppException } from 'src/common/errors/app.exception';
import { ErrorCategory } from 'src/common/errors/error-codes';
import type { Actor } from 'src/common/auth/current-actor.decorator';
import { EggsService } from 'src/modules/eggs/eggs.service';
import type { BuildBody, DetailsBody, StartupBody, StoreServerBody } from 'src/modules/pterodactyl/application/dto/server.dto';
import { fromPterodactylDatabaseLimit } from 'src/modules/pterodactyl/common/database-limit';
import { existsViolation, pterodactylValidationError, uniqueViolation } from 'src/modules/pterodactyl/common/pterodactyl-body';
import { translating } from 'src/modules/pterodactyl/common/translate';
import { AdminServerChangesService } from 'src/modules/servers/admin-server-changes.service';
import { AdminServersService } from 'src/modules/servers/admin-servers.service';
import type { AdminServerDto } from 'src/modules/servers/dto/server-response.dto';

const NO_VIABLE = {
  code: 'PTERODACTYL_NO_VIABLE_ALLOCATION',
  category: ErrorCategory.BAD_REQUEST,
  message: 'No viable allocation could be found: no node in the given locations has room for the server and a free allocation that fits.',
};

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

/**
 * The application API's server writes in Hatchery's terms: where a new server goes (its
 * allocation, or a deployment), which of the given variables its egg has, and the changes each
 * route makes, with Hatchery's errors told as Pterodactyl's validation errors.
 */
@Injectable()
export class ApplicationServersService {
  constructor(
    private readonly servers: AdminServersService,
    private readonly changes: AdminServerChangesService,
    private readonly eggs: EggsService,
  ) {}

  async create(body: StoreServerBody, actor: Actor): Promise<AdminServerDto> {
    const egg = await this.eggs.findEggByIntId(body.egg);
    if (!egg) {
      throw existsViolation('egg');
    }
    const place = await this.placement(body);
    // Billing systems send every variable they know of; those the egg lacks are left out, as Pterodactyl does.
    const known = new Set((await this.eggs.variablesOf(egg.id)).map((v) => v.envVariable));
    const environment = Object.fromEntries(Object.entries(body.environment ?? {}).filter(([name]) => known.has(name)));
    return translating(
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
  }

  async updateDetails(id: string, body: DetailsBody, actor: Actor): Promise<AdminServerDto> {
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
    return server;
  }

  async updateBuild(id: string, body: BuildBody, actor: Actor): Promise<AdminServerDto> {
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
    return server;
  }

  async updateStartup(id: string, body: StartupBody, actor: Actor): Promise<AdminServerDto> {
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
    return server;
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
}
