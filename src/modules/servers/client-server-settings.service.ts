import { Injectable, Logger } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { Actor } from 'src/common/auth/current-actor.decorator';
import { AppException } from 'src/common/errors/app.exception';
import { CommonError } from 'src/common/errors/error-codes';
import { DaemonGateway } from 'src/modules/daemon-gateway/daemon.gateway';
import type { AllocationEntity } from 'src/modules/nodes/allocation.entity';
import { NodeError } from 'src/modules/nodes/nodes.errors';
import type { EggVariableEntity } from 'src/modules/eggs/egg-variable.entity';
import type { NetworkAllocationDto, StartupDto, StartupVariableDto } from 'src/modules/servers/dto/server-settings.dto';
import type { ServerAccess } from 'src/modules/servers/server-access';
import { ServerActivityLog } from 'src/modules/servers/server-activity';
import { checkEnvironment } from 'src/modules/servers/server-environment';
import { ServerError } from 'src/modules/servers/servers.errors';
import type { ServerVariableEntity } from 'src/modules/servers/server-variable.entity';
import { ServersRepository } from 'src/modules/servers/servers.repository';
import { ServerAllocations } from 'src/modules/nodes/server-allocations';
import { EggsService } from 'src/modules/eggs/eggs.service';

const toNetworkAllocation = (a: Pick<AllocationEntity, 'id' | 'ip' | 'alias' | 'port' | 'notes'>, primaryId: string | null): NetworkAllocationDto => ({
  id: a.id,
  ip: a.ip,
  alias: a.alias,
  port: a.port,
  notes: a.notes,
  isDefault: a.id === primaryId,
});

/** An allocation as the activity log names it: `ip:port`. */
const addressOf = (a: Pick<AllocationEntity, 'ip' | 'port'>): string => `${a.ip}:${a.port}`;

/** The server page's startup, settings and network tabs. */
@Injectable()
export class ClientServerSettingsService {
  private readonly logger = new Logger(ClientServerSettingsService.name);

  constructor(
    private readonly servers: ServersRepository,
    private readonly nodeAllocations: ServerAllocations,
    private readonly eggs: EggsService,
    private readonly daemon: DaemonGateway,
    private readonly activityLog: ServerActivityLog,
  ) {}

  async startup(access: ServerAccess): Promise<StartupDto> {
    const { server } = access;
    const [variables, values] = await Promise.all([this.eggs.variablesOf(server.eggId), this.servers.serverValuesOf(server.id)]);
    return this.startupOf(access, variables, values);
  }

  /** The startup of many servers in two queries (their eggs' variables, their values), by server id. */
  async startupOfMany(accesses: ServerAccess[]): Promise<Map<string, StartupDto>> {
    const [variables, values] = await Promise.all([
      this.eggs.variablesOfEggs([...new Set(accesses.map((a) => a.server.eggId))]),
      this.servers.serverValuesOfServers(accesses.map((a) => a.server.id)),
    ]);
    return new Map(
      accesses.map((access) => [
        access.server.id,
        this.startupOf(
          access,
          variables.get(access.server.eggId) ?? [],
          values.get(access.server.id) ?? [],
        ),
      ]),
    );
  }

  private startupOf(access: ServerAccess, variables: EggVariableEntity[], serverValues: Pick<ServerVariableEntity, 'variableId' | 'value'>[]): StartupDto {
    const { server } = access;
    const values = new Map(serverValues.map((v) => [v.variableId, v.value]));
    const valueOf = (v: EggVariableEntity): string => values.get(v.id) ?? v.defaultValue;
    const byEnv = new Map(variables.map((v) => [v.envVariable, v]));
    const startup = server.startup.replace(/\{\{\s*(?:env\.|server\.build\.env\.)?([A-Za-z0-9_]+)\s*\}\}/g, (whole, name: string) => {
      const variable = byEnv.get(name);
      if (!variable) {
        return whole;
      }
      return variable.userViewable ? valueOf(variable) : '[hidden]';
    });
    return {
      startup,
      rawStartup: server.startup,
      dockerImage: server.image,
      dockerImages: server.egg.dockerImages.map((d) => ({ name: d.name, image: d.image })),
      variables: variables.filter((v) => v.userViewable).map((v) => this.variable(v, valueOf(v))),
    };
  }

  /** Only variables the egg lets users see and edit; the value must pass the variable's rules. */
  async updateVariable(access: ServerAccess, actor: Actor, key: string, value: string | null): Promise<StartupVariableDto> {
    const { server } = access;
    const variables = await this.eggs.variablesOf(server.eggId);
    const variable = variables.find((v) => v.envVariable === key && v.userViewable);
    if (!variable) {
      throw new AppException(ServerError.VARIABLE_NOT_FOUND, { details: { key } });
    }
    if (!variable.userEditable) {
      throw new AppException(ServerError.VARIABLE_READ_ONLY, { details: { key } });
    }
    const { values, errors } = checkEnvironment([variable], { [key]: value ?? '' }, { onlyGiven: true });
    if (errors.length > 0) {
      throw new AppException(CommonError.VALIDATION_FAILED, { details: errors.map((e) => ({ field: 'value', message: e.message })) });
    }
    const next = values.get(variable.id) ?? '';
    await this.servers.transaction(async (manager) => {
      const previous = (await this.servers.serverValuesOf(server.id, manager)).find((v) => v.variableId === variable.id)?.value ?? variable.defaultValue;
      await this.servers.saveServerValues([{ serverId: server.id, variableId: variable.id, value: next }], manager);
      await this.activityLog.byUser(server.id, actor, 'server.startup.edit', { variable: key, old: previous, new: next }, { manager });
    });
    return this.variable(variable, next);
  }

  async rename(access: ServerAccess, actor: Actor, name: string, description: string | null | undefined): Promise<void> {
    const { server } = access;
    await this.servers.transaction(async (manager) => {
      const changes = { name: name.trim(), ...(description !== undefined ? { description } : {}) };
      await this.servers.update(server.id, changes, manager);
      await this.activityLog.byUser(server.id, actor, 'server.settings.rename', { old: server.name, new: changes.name }, { manager });
    });
  }

  /**
   * Switches the server to another of its egg's images (a Java version, say). A custom image an
   * administrator set stays theirs to change. Wings reads the image from the configuration it fetches
   * before it starts the server, so the next start uses it; nothing is sent to the node now.
   */
  async setDockerImage(access: ServerAccess, actor: Actor, image: string): Promise<void> {
    const { server } = access;
    const offered = server.egg.dockerImages.map((d) => d.image);
    if (!offered.includes(server.image)) {
      throw new AppException(ServerError.IMAGE_SET_BY_ADMIN);
    }
    if (!offered.includes(image)) {
      throw new AppException(CommonError.VALIDATION_FAILED, { details: [{ field: 'dockerImage', message: "must be one of the images the server's egg offers" }] });
    }
    if (image === server.image) {
      return;
    }
    await this.servers.transaction(async (manager) => {
      await this.servers.update(server.id, { image }, manager);
      await this.activityLog.byUser(server.id, actor, 'server.startup.image', { old: server.image, new: image }, { manager });
    });
  }

  /** The daemon wipes nothing but runs the install script again; the server shows installing until it reports back. */
  async reinstall(access: ServerAccess, actor: Actor): Promise<void> {
    const { server } = access;
    if (server.suspended) {
      throw new AppException(ServerError.SUSPENDED);
    }
    if (server.status === 'installing' || server.status === 'restoring_backup') {
      throw new AppException(ServerError.BUSY, { message: `The server is ${server.status.replace('_', ' ')}; wait for it to finish` });
    }
    await this.servers.update(server.id, { status: 'installing' });
    try {
      await this.daemon.reinstall(server.node, server.uuid);
    } catch (e) {
      await this.servers.update(server.id, { status: server.status });
      throw e;
    }
    await this.activityLog.byUser(server.id, actor, 'server.reinstall', {});
  }

  async allocations(access: ServerAccess): Promise<NetworkAllocationDto[]> {
    const { server } = access;
    return (await this.nodeAllocations.of(server.id)).map((a) => toNetworkAllocation(a, server.allocationId));
  }

  /** Notes on one of the server's allocations (another server's, or none, is 404); null or blank clears them. */
  async setAllocationNotes(access: ServerAccess, actor: Actor, id: string, notes: string | null): Promise<NetworkAllocationDto> {
    const { server } = access;
    const next = notes?.trim() ? notes.trim() : null;
    const updated = await this.servers.transaction(async (manager) => {
      const allocation = await this.requireAllocation(server.id, id, manager);
      if (allocation.notes !== next) {
        await this.nodeAllocations.setNotes(allocation.id, next, manager);
        await this.activityLog.byUser(server.id, actor, 'server.allocation.notes', { allocation: addressOf(allocation), old: allocation.notes, new: next }, { manager });
      }
      return { ...allocation, notes: next };
    });
    return toNetworkAllocation(updated, server.allocationId);
  }

  /**
   * Makes one of the server's allocations its primary (the address players use and SERVER_PORT), then
   * tells the daemon. The change stands even when the daemon is not reached: Wings fetches the
   * configuration again before it starts the server.
   */
  async setPrimaryAllocation(access: ServerAccess, actor: Actor, id: string): Promise<NetworkAllocationDto> {
    const { server } = access;
    const allocation = await this.servers.transaction(async (manager) => {
      const found = await this.requireAllocation(server.id, id, manager);
      if (server.allocationId !== found.id) {
        await this.servers.update(server.id, { allocationId: found.id }, manager);
        await this.activityLog.byUser(server.id, actor, 'server.allocation.primary', { allocation: addressOf(found) }, { manager });
      }
      return found;
    });
    if (server.allocationId !== allocation.id) {
      await this.syncDaemon(access, 'the new primary allocation');
    }
    return toNetworkAllocation(allocation, allocation.id);
  }

  /**
   * Gives the server another free allocation of its node (on the primary's IP when one is free there),
   * within its allocation limit, which counts every allocation and at 0 leaves them to administrators.
   */
  async addAllocation(access: ServerAccess, actor: Actor): Promise<NetworkAllocationDto> {
    const { server } = access;
    const added = await this.servers.transaction(async (manager) => {
      await this.servers.lockServer(server.id, manager);
      const current = await this.nodeAllocations.of(server.id, manager);
      if (server.allocationLimit === 0) {
        throw new AppException(ServerError.ALLOCATIONS_ADMIN_ONLY);
      }
      if (current.length >= server.allocationLimit) {
        throw new AppException(ServerError.ALLOCATION_LIMIT_REACHED, { message: `This server has reached its allocation limit (${server.allocationLimit})` });
      }
      const primaryIp = current.find((a) => a.id === server.allocationId)?.ip ?? null;
      const free = await this.nodeAllocations.lockFreePreferring(server.nodeId, primaryIp, manager);
      if (!free) {
        throw new AppException(ServerError.NO_FREE_ALLOCATION);
      }
      await this.nodeAllocations.assign(server.id, [free.id], manager);
      await this.activityLog.byUser(server.id, actor, 'server.allocation.create', { allocation: addressOf(free) }, { manager });
      return free;
    });
    await this.syncDaemon(access, 'the new allocation');
    return toNetworkAllocation(added, server.allocationId);
  }

  /** Gives one of the server's allocations back to the node (not the primary one; not at a limit of 0). */
  async removeAllocation(access: ServerAccess, actor: Actor, id: string): Promise<void> {
    const { server } = access;
    await this.servers.transaction(async (manager) => {
      const allocation = await this.requireAllocation(server.id, id, manager);
      if (server.allocationLimit === 0) {
        throw new AppException(ServerError.ALLOCATIONS_ADMIN_ONLY);
      }
      if (allocation.id === server.allocationId) {
        throw new AppException(ServerError.ALLOCATION_IS_PRIMARY);
      }
      await this.nodeAllocations.free(allocation.id, manager);
      await this.activityLog.byUser(server.id, actor, 'server.allocation.delete', { allocation: addressOf(allocation) }, { manager });
    });
    await this.syncDaemon(access, 'the removed allocation');
  }

  /** Tells the daemon of a changed allocation; when it is not reached the change stands, and Wings reads it before the next start. */
  private async syncDaemon({ server }: ServerAccess, what: string): Promise<void> {
    await this.daemon.sync(server.node, server.uuid).catch((e: Error) =>
      this.logger.warn({ serverId: server.id, error: e.message }, `could not tell the daemon of ${what}; it reads it before the next start`),
    );
  }

  private async requireAllocation(serverId: string, id: string, manager: EntityManager): Promise<AllocationEntity> {
    const allocation = await this.nodeAllocations.lockOneOf(serverId, id, manager);
    if (!allocation) {
      throw new AppException(NodeError.ALLOCATION_NOT_FOUND);
    }
    return allocation;
  }

  private variable(v: EggVariableEntity, value: string): StartupVariableDto {
    return {
      name: v.name,
      description: v.description,
      envVariable: v.envVariable,
      defaultValue: v.defaultValue,
      serverValue: value,
      isEditable: v.userEditable,
      rules: v.rules,
    };
  }
}
