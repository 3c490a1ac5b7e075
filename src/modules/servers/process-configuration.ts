/**
 * `process_configuration` of GET /api/remote/servers/{uuid} (docs/wings.md#server-configuration),
 * built from the egg's config.startup, config.stop and config.files, with the panel's placeholders resolved.
 */

/** The old daemon's view of a server, which egg placeholders such as `{{server.build.default.port}}` address. */
export interface LegacyServerStructure {
  uuid: string;
  build: {
    default: { ip: string; port: number };
    ports: Record<string, number[]>;
    env: Record<string, string>;
    oom_disabled: boolean;
    memory: number;
    swap: number;
    io: number;
    cpu: number;
    threads: string | null;
    disk: number;
    image: string;
  };
}

export interface ReplaceRule {
  match: string;
  if_value?: string;
  replace_with: unknown;
}

export interface ProcessConfiguration {
  startup: { done: string[]; user_interaction: string[]; strip_ansi: boolean };
  stop: { type: 'command' | 'signal' | 'stop'; value: string };
  configs: ({ file: string; parser?: unknown; replace: ReplaceRule[] } & Record<string, unknown>)[];
}

interface EggProcessConfig {
  configStartup: string;
  configStop: string | null;
  configFiles: string;
}

/** Old placeholder names the panel has always mapped to their current ones. */
const LEGACY_PLACEHOLDERS: Record<string, string> = {
  'config.docker.interface': 'config.docker.network.interface',
  'server.build.env.SERVER_MEMORY': 'server.build.memory',
  'env.SERVER_MEMORY': 'server.build.memory',
  'server.build.env.SERVER_IP': 'server.build.default.ip',
  'env.SERVER_IP': 'server.build.default.ip',
  'server.build.env.SERVER_PORT': 'server.build.default.port',
  'env.SERVER_PORT': 'server.build.default.port',
};

const PLACEHOLDER = /{{([\w.-]*)}}/g;

const lookup = (root: unknown, path: string): unknown =>
  path.split('.').reduce<unknown>((node, key) => (node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined), root);

/** `{{server.*}}` and `{{env.*}}` become the server's values; `{{config.*}}` is left for Wings to fill. */
export const resolvePlaceholders = (value: string, structure: LegacyServerStructure): string =>
  value.replace(PLACEHOLDER, (whole, rawKey: string) => {
    const key = LEGACY_PLACEHOLDERS[rawKey] ?? rawKey;
    if (key.startsWith('config.')) {
      return `{{${key}}}`;
    }
    if (key.startsWith('server.')) {
      return stringify(lookup(structure, key.slice('server.'.length)));
    }
    if (key.startsWith('env.')) {
      return stringify(structure.build.env[key.slice('env.'.length)]);
    }
    return whole;
  });

const stringify = (v: unknown): string => {
  if (v === undefined || v === null) {
    return '';
  }
  return typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? String(v) : JSON.stringify(v);
};

/** Strings anywhere inside `value` get their placeholders resolved; other values are kept as they are. */
const resolveDeep = (value: unknown, structure: LegacyServerStructure): unknown => {
  if (typeof value === 'string') {
    return resolvePlaceholders(value, structure);
  }
  if (Array.isArray(value)) {
    return value.map((v) => resolveDeep(v, structure));
  }
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolveDeep(v, structure)]));
  }
  return value;
};

const parseObject = (text: string): Record<string, unknown> => {
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
};

const toStartup = (configStartup: string): ProcessConfiguration['startup'] => {
  const startup = parseObject(configStartup);
  const done = startup.done;
  return {
    done: typeof done === 'string' ? [done] : Array.isArray(done) ? done.filter((d): d is string => typeof d === 'string') : [],
    user_interaction: [],
    strip_ansi: startup.strip_ansi === true,
  };
};

/** `^C` style signals become `{type: signal}` (so `^C` is value "C", which Wings sends as SIGKILL). */
export const toStop = (configStop: string | null): ProcessConfiguration['stop'] => {
  if (configStop === null || configStop === '') {
    return { type: 'stop', value: '' };
  }
  return configStop.startsWith('^') ? { type: 'signal', value: configStop.slice(1).toUpperCase() } : { type: 'command', value: configStop };
};

/**
 * Each file entry keeps its other keys, drops `find`, and gets `file` and `replace`. A `find`
 * value that is an object means "replace only when the current value is …" (`if_value`).
 * Entries that are not objects, have no `find` or no string `parser` are skipped: Wings would
 * crash on them.
 */
const toConfigs = (configFiles: string, structure: LegacyServerStructure): ProcessConfiguration['configs'] =>
  Object.entries(parseObject(configFiles)).flatMap(([file, data]) => {
    if (data === null || typeof data !== 'object' || Array.isArray(data) || !('find' in data) || !('parser' in data) || typeof data.parser !== 'string') {
      return [];
    }
    const { find, ...rest } = data as Record<string, unknown>;
    const resolved = resolveDeep(find, structure);
    const replace: ReplaceRule[] = [];
    if (resolved !== null && typeof resolved === 'object' && !Array.isArray(resolved)) {
      for (const [match, replacement] of Object.entries(resolved)) {
        if (replacement !== null && typeof replacement === 'object' && !Array.isArray(replacement)) {
          for (const [ifValue, replaceWith] of Object.entries(replacement as Record<string, unknown>)) {
            replace.push({ match, if_value: ifValue, replace_with: replaceWith });
          }
        } else {
          replace.push({ match, replace_with: replacement });
        }
      }
    }
    return [{ ...rest, file, replace }];
  });

export const buildProcessConfiguration = (egg: EggProcessConfig, structure: LegacyServerStructure): ProcessConfiguration => ({
  startup: toStartup(egg.configStartup),
  stop: toStop(egg.configStop),
  configs: toConfigs(egg.configFiles, structure),
});
