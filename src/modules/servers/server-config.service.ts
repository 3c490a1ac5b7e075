import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import type { EggVariableEntity } from 'src/modules/eggs/egg-variable.entity';
import { EggsService } from 'src/modules/eggs/eggs.service';
import type { AllocationEntity } from 'src/modules/nodes/allocation.entity';
import { LocationsService } from 'src/modules/nodes/locations.service';
import { buildProcessConfiguration, LegacyServerStructure, ProcessConfiguration } from 'src/modules/servers/process-configuration';
import type { LoadedServer } from 'src/modules/servers/server.entity';
import { ServersRepository, type ServerVariableValue } from 'src/modules/servers/servers.repository';
import { ServerAllocations } from 'src/modules/nodes/server-allocations';
import { MountsService } from 'src/modules/mounts/mounts.service';
import { HotCaches } from 'src/common/hot-cache/hot-caches';

declare module 'src/common/hot-cache/hot-caches' {
  interface HotCacheEntries {
    /** A server's Wings configuration, by server id, frozen (the boot list and the application API's environments). */
    configs: DaemonServerConfiguration;
  }
}

/** `settings` of GET /api/remote/servers/{uuid} (docs/wings.md#server-configuration). */
export interface ServerSettings {
  uuid: string;
  meta: { name: string; description: string };
  suspended: boolean;
  environment: Record<string, string | number>;
  invocation: string;
  skip_egg_scripts: boolean;
  build: {
    memory_limit: number;
    swap: number;
    io_weight: number;
    cpu_limit: number;
    threads: string | null;
    disk_space: number;
    oom_disabled: boolean;
  };
  container: { image: string; oom_disabled: boolean; requires_rebuild: boolean };
  allocations: { force_outgoing_ip: boolean; default: { ip: string; port: number }; mappings: Record<string, number[]> };
  mounts: { source: string; target: string; read_only: boolean }[];
  egg: { id: string; file_denylist: string[] };
}

export interface DaemonServerConfiguration {
  settings: ServerSettings;
  process_configuration: ProcessConfiguration;
}

export interface InstallScript {
  container_image: string;
  entrypoint: string;
  script: string;
}

/** What a server's configuration is built from, loaded for one server or a page of them. */
interface ConfigInputs {
  allocations: readonly Pick<AllocationEntity, 'id' | 'ip' | 'port'>[];
  variables: EggVariableEntity[];
  values: ServerVariableValue[];
  locationShort: string;
  mounts: ServerSettings['mounts'];
}

/** Builds what Wings reads about a server: its settings, process configuration and install script. */
@Injectable()
export class ServerConfigService {
  constructor(
    private readonly servers: ServersRepository,
    private readonly nodeAllocations: ServerAllocations,
    private readonly eggs: EggsService,
    private readonly nodes: LocationsService,
    private readonly mounts: MountsService,
    private readonly caches: HotCaches,
  ) {}

  /**
   * The configurations of these servers by id, from the cache where it has them; the others are
   * loaded, built in one batch and stored. Building a page of them was most of a node boot's CPU.
   * A server gone meanwhile is absent.
   */
  async configurationsOf(ids: readonly string[]): Promise<Map<string, DaemonServerConfiguration>> {
    const cache = this.caches.configs;
    const found = new Map<string, DaemonServerConfiguration>();
    const missing: string[] = [];
    for (const id of ids) {
      const hit = cache.get(id);
      if (hit === undefined) {
        missing.push(id);
      } else {
        found.set(id, hit);
      }
    }
    if (missing.length === 0) {
      return found;
    }
    // Taken before the rows are read, so that a change heard meanwhile refuses the store.
    const ticket = cache.ticket();
    const rows = await this.servers.findByIds(missing);
    const built = await this.built(rows);
    rows.forEach((server, i) => {
      const configuration = deepFreeze(built[i].configuration);
      cache.set(server.id, configuration, configurationTags(server, built[i].allocationIds), ticket);
      found.set(server.id, configuration);
    });
    return found;
  }

  /** One server's configuration: five small queries (allocations, variables, values, location, mounts). */
  async configuration(server: LoadedServer, manager?: EntityManager): Promise<DaemonServerConfiguration> {
    // Sequential: with a transaction's manager these share one connection.
    return this.configurationWith(server, await this.nodeAllocations.of(server.id, manager), manager);
  }

  /** The configuration with these allocations (a transfer's target gets the ones held for it). */
  async configurationWith(server: LoadedServer, allocations: ConfigInputs['allocations'], manager?: EntityManager): Promise<DaemonServerConfiguration> {
    const variables = await this.eggs.variablesOf(server.eggId, manager);
    const values = await this.servers.serverValuesOf(server.id, manager);
    const location = server.node.locationId ? await this.nodes.findLocation(server.node.locationId, manager) : null;
    const mounts = (await this.mounts.configuredFor([server.id], manager)).get(server.id) ?? [];
    return this.build(server, { allocations, variables, values, locationShort: location?.short ?? '', mounts });
  }

  /**
   * Several servers' configurations (a node's boot reads 50 a page) in the same five queries as one
   * server, whatever the page size.
   */
  async configurations(servers: LoadedServer[]): Promise<DaemonServerConfiguration[]> {
    return (await this.built(servers)).map((b) => b.configuration);
  }

  /** The configurations of these servers, with the ids of the allocations each was built from. */
  private async built(servers: LoadedServer[]): Promise<{ configuration: DaemonServerConfiguration; allocationIds: string[] }[]> {
    const ids = servers.map((s) => s.id);
    const allocations = await this.nodeAllocations.byServer(ids);
    const variables = await this.eggs.variablesOfEggs([...new Set(servers.map((s) => s.eggId))]);
    const values = await this.servers.serverValuesOfServers(ids);
    const locations = await this.nodes.findLocations([...new Set(servers.flatMap((s) => (s.node.locationId ? [s.node.locationId] : [])))]);
    const mounts = await this.mounts.configuredFor(ids);
    return servers.map((s) => {
      const own = allocations.get(s.id) ?? [];
      return {
        configuration: this.build(s, {
          allocations: own,
          variables: variables.get(s.eggId) ?? [],
          values: values.get(s.id) ?? [],
          locationShort: (s.node.locationId ? locations.get(s.node.locationId)?.short : undefined) ?? '',
          mounts: mounts.get(s.id) ?? [],
        }),
        allocationIds: own.map((a) => a.id),
      };
    });
  }

  /** The egg variables' values (the server's own, else the default), plus the P_SERVER_* values Wings expects. */
  private environment(server: LoadedServer, inputs: ConfigInputs): Record<string, string | number> {
    const own = new Map(inputs.values.map((v) => [v.variableId, v.value]));
    const env: Record<string, string | number> = {};
    for (const v of inputs.variables) {
      env[v.envVariable] = own.get(v.id) ?? v.defaultValue;
    }
    env.STARTUP = server.startup;
    env.P_SERVER_LOCATION = inputs.locationShort;
    env.P_SERVER_UUID = server.uuid;
    env.P_SERVER_ALLOCATION_LIMIT = server.allocationLimit;
    return env;
  }

  private build(server: LoadedServer, inputs: ConfigInputs): DaemonServerConfiguration {
    const { allocations } = inputs;
    const environment = this.environment(server, inputs);
    const primary = allocations.find((a) => a.id === server.allocationId) ?? allocations[0];
    const defaultAllocation = { ip: primary?.ip ?? '127.0.0.1', port: primary?.port ?? 0 };
    // Wings needs an object here, never [].
    const mappings: Record<string, number[]> = {};
    for (const a of allocations) {
      (mappings[a.ip] ??= []).push(a.port);
    }
    const settings: ServerSettings = {
      uuid: server.uuid,
      meta: { name: server.name, description: server.description ?? '' },
      suspended: server.suspended,
      environment,
      invocation: server.startup,
      skip_egg_scripts: server.skipScripts,
      build: {
        memory_limit: server.memory,
        swap: server.swap,
        io_weight: server.io,
        cpu_limit: server.cpu,
        threads: server.threads,
        disk_space: server.disk,
        oom_disabled: server.oomDisabled,
      },
      container: { image: server.image, oom_disabled: server.oomDisabled, requires_rebuild: false },
      allocations: { force_outgoing_ip: server.egg.forceOutgoingIp, default: defaultAllocation, mappings },
      // Attached mounts still linked to the server's node; Wings applies those under its allowed_mounts.
      mounts: inputs.mounts,
      egg: { id: server.egg.id, file_denylist: server.egg.fileDenylist },
    };
    const legacy: LegacyServerStructure = {
      uuid: server.uuid,
      build: {
        default: defaultAllocation,
        ports: mappings,
        env: Object.fromEntries(Object.entries(environment).map(([k, v]) => [k, String(v)])),
        oom_disabled: server.oomDisabled,
        memory: server.memory,
        swap: server.swap,
        io: server.io,
        cpu: server.cpu,
        threads: server.threads,
        disk: server.disk,
        image: server.image,
      },
    };
    return { settings, process_configuration: buildProcessConfiguration(server.egg, legacy) };
  }

  /** The install script, from the egg the server's egg copies it from when it does. */
  async installScript(server: LoadedServer): Promise<InstallScript> {
    const source = server.egg.copyScriptFrom ? ((await this.eggs.findEgg(server.egg.copyScriptFrom)) ?? server.egg) : server.egg;
    return { container_image: source.scriptContainer, entrypoint: source.scriptEntry, script: source.scriptInstall ?? '' };
  }
}

/**
 * What a cached configuration is built from and dropped with: the server, its node (location, address),
 * its egg, its allocations. Its variable values, the egg's variables, locations and mounts are in
 * CONFIGURATION_TABLES (src/common/hot-cache/row-changes.ts): any write to those drops every configuration.
 */
const configurationTags = (server: LoadedServer, allocationIds: string[]): string[] => [
  `server:${server.id}`,
  `node:${server.nodeId}`,
  `egg:${server.eggId}`,
  `allocations:${server.id}`,
  ...allocationIds.map((id) => `allocation:${id}`),
];

const deepFreeze = <T>(value: T): T => {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) {
      deepFreeze(child);
    }
  }
  return value;
};
