// Turns the panel's `GET /api/remote/servers/{uuid}` answer into typed configuration (docs/wings.md#server-configuration).
// Wings unmarshals into a fresh struct on every sync, so an omitted key becomes its zero value.
import {
  BuildLimits,
  InstallationScript,
  PanelServerConfiguration,
  ProcessConfiguration,
  ServerConfiguration,
} from 'test/wings-sim/types';

export type JsonRecord = Record<string, unknown>;

export function isRecord(v: unknown): v is JsonRecord {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function asRecord(v: unknown): JsonRecord {
  return isRecord(v) ? v : {};
}

export function asString(v: unknown, fallback = ''): string {
  return typeof v === 'string' ? v : fallback;
}

function asNumber(v: unknown, fallback = 0): number {
  return typeof v === 'number' && Number.isFinite(v) ? v : fallback;
}

function asBool(v: unknown, fallback = false): boolean {
  return typeof v === 'boolean' ? v : fallback;
}

export function asStringArray(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

/** Thrown when the panel answered something Wings could not decode. */
export class ConfigurationDecodeError extends Error {}

function parseBuild(v: unknown): BuildLimits {
  const b = asRecord(v);
  return {
    memory_limit: asNumber(b.memory_limit),
    swap: asNumber(b.swap),
    io_weight: asNumber(b.io_weight),
    cpu_limit: asNumber(b.cpu_limit),
    disk_space: asNumber(b.disk_space),
    threads: asString(b.threads),
    oom_disabled: asBool(b.oom_disabled),
  };
}

function parseMappings(v: unknown): Record<string, number[]> {
  if (Array.isArray(v)) {
    // Go cannot decode `[]` into a map: Wings refuses the whole configuration.
    throw new ConfigurationDecodeError('allocations.mappings must be a JSON object');
  }
  const out: Record<string, number[]> = {};
  for (const [ip, ports] of Object.entries(asRecord(v))) {
    out[ip] = Array.isArray(ports) ? ports.filter((p): p is number => typeof p === 'number') : [];
  }
  return out;
}

function parseSettings(v: unknown): ServerConfiguration {
  const s = asRecord(v);
  if (Array.isArray(s.environment)) {
    throw new ConfigurationDecodeError('environment must be a JSON object');
  }
  const meta = asRecord(s.meta);
  const allocations = asRecord(s.allocations);
  const def = asRecord(allocations.default);
  const egg = asRecord(s.egg);
  const labels: Record<string, string> = {};
  for (const [k, val] of Object.entries(asRecord(s.labels))) {
    labels[k] = asString(val);
  }
  return {
    uuid: asString(s.uuid),
    meta: { name: asString(meta.name), description: asString(meta.description) },
    suspended: asBool(s.suspended),
    invocation: asString(s.invocation),
    skip_egg_scripts: asBool(s.skip_egg_scripts),
    environment: asRecord(s.environment),
    labels,
    allocations: {
      force_outgoing_ip: asBool(allocations.force_outgoing_ip),
      default: { ip: asString(def.ip), port: asNumber(def.port) },
      mappings: parseMappings(allocations.mappings),
    },
    build: parseBuild(s.build),
    // Pre-filled from config (default true) before decoding; the panel does not send it.
    crash_detection_enabled: asBool(s.crash_detection_enabled, true),
    mounts: (Array.isArray(s.mounts) ? s.mounts : []).map((m) => {
      const r = asRecord(m);
      return { target: asString(r.target), source: asString(r.source), read_only: asBool(r.read_only) };
    }),
    egg: { id: asString(egg.id), file_denylist: asStringArray(egg.file_denylist) },
    container: { image: asString(asRecord(s.container).image) },
  };
}

function parseProcessConfiguration(v: unknown): ProcessConfiguration {
  if (!isRecord(v)) {
    throw new ConfigurationDecodeError('process_configuration must be an object');
  }
  const startup = asRecord(v.startup);
  const stop = asRecord(v.stop);
  const configs = Array.isArray(v.configs) ? v.configs : [];
  for (const c of configs) {
    // A missing key dereferences a nil pointer in Wings' parser.
    if (!isRecord(c) || !('file' in c) || !('parser' in c) || !('replace' in c)) {
      throw new ConfigurationDecodeError('every configs[] entry needs file, parser and replace');
    }
  }
  const done = typeof startup.done === 'string' ? [startup.done] : asStringArray(startup.done);
  return {
    startup: { done, user_interaction: asStringArray(startup.user_interaction), strip_ansi: asBool(startup.strip_ansi) },
    stop: { type: asString(stop.type), value: asString(stop.value) },
    configs,
  };
}

export function parsePanelConfiguration(v: unknown): PanelServerConfiguration {
  const r = asRecord(v);
  return { settings: parseSettings(r.settings), process_configuration: parseProcessConfiguration(r.process_configuration) };
}

export function parseInstallationScript(v: unknown): InstallationScript {
  const r = asRecord(v);
  return {
    container_image: asString(r.container_image),
    entrypoint: asString(r.entrypoint),
    script: asString(r.script),
  };
}

/** Docker memory limit incl. Wings' overhead multiplier (build.memory_limit). */
export function memoryLimitBytes(memoryMb: number): number {
  if (memoryMb <= 0) {
    return 0;
  }
  const overhead = memoryMb <= 2048 ? 1.15 : memoryMb <= 4096 ? 1.1 : 1.05;
  return Math.round(memoryMb * overhead * 1_000_000);
}
