// Shared types of the Wings simulator.

export type ProcessState = 'offline' | 'starting' | 'running' | 'stopping';

export type PowerAction = 'start' | 'stop' | 'restart' | 'kill';

export const POWER_ACTIONS: readonly PowerAction[] = ['start', 'stop', 'restart', 'kill'];

/** One request as the simulator saw it; `Authorization` is never recorded. */
export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string>;
  /** Raw body text for JSON/text requests (not for multipart uploads). */
  body?: string;
  time: Date;
  /** The port the request came from: with /proc/net/tcp, which process sent it (the fleet tests). */
  remotePort?: number;
}

export interface SimulatorTiming {
  /** Delay between simulated console lines while a server boots or stops (ms). */
  lineDelayMs: number;
  /** Interval of `stats` events while a server runs (Wings: about 1 s). */
  statsIntervalMs: number;
  /** Interval of the websocket token-expiry watcher (Wings: 30 s). */
  tokenCheckIntervalMs: number;
  /** How long a simulated installer "runs" (ms). */
  installDurationMs: number;
}

export interface WingsSimulatorOptions {
  panelUrl: string;
  tokenId: string;
  token: string;
  /** Root of server volumes and backups; a fresh temp dir when omitted (removed on stop()). */
  dataDir?: string;
  host?: string;
  port?: number;
  /** Per-request timeout of callbacks to the panel (Wings: remote_query.timeout, 30 s). */
  remoteTimeoutMs?: number;
  /** Total retry budget for 5xx/network failures of panel callbacks (Wings: ~30 s; default 0 = no retry). */
  remoteRetryBudgetMs?: number;
  /** Extra websocket/CORS origins (config `allowed_origins`); `*` allows all. */
  allowedOrigins?: string[];
  /** config `app_name`, shown in daemon console lines. */
  appName?: string;
  /** config `api.upload_limit` in MB. */
  uploadLimitMb?: number;
  /** Websocket tokens need iat >= this. Default: start() time rounded down to the whole second. */
  bootTime?: Date;
  timing?: Partial<SimulatorTiming>;
  /** Print a line per request to stdout (the CLI turns this on). */
  logRequests?: boolean;
}

export interface StartupConfiguration {
  done: string[];
  user_interaction: string[];
  strip_ansi: boolean;
}

export interface StopConfiguration {
  type: string;
  value: string;
}

export interface ProcessConfiguration {
  startup: StartupConfiguration;
  stop: StopConfiguration;
  configs: unknown[];
}

export interface BuildLimits {
  memory_limit: number;
  swap: number;
  io_weight: number;
  cpu_limit: number;
  disk_space: number;
  threads: string;
  oom_disabled: boolean;
}

/** Wings' stored copy of the panel `settings`. */
export interface ServerConfiguration {
  uuid: string;
  meta: { name: string; description: string };
  suspended: boolean;
  invocation: string;
  skip_egg_scripts: boolean;
  environment: Record<string, unknown>;
  labels: Record<string, string>;
  allocations: {
    force_outgoing_ip: boolean;
    default: { ip: string; port: number };
    mappings: Record<string, number[]>;
  };
  build: BuildLimits;
  crash_detection_enabled: boolean;
  mounts: { target: string; source: string; read_only: boolean }[];
  egg: { id: string; file_denylist: string[] };
  container: { image: string };
}

export interface PanelServerConfiguration {
  settings: ServerConfiguration;
  process_configuration: ProcessConfiguration;
}

export interface InstallationScript {
  container_image: string;
  entrypoint: string;
  script: string;
}

/** The stats object (also `APIResponse.utilization`). */
export interface ResourceUsage {
  memory_bytes: number;
  memory_limit_bytes: number;
  cpu_absolute: number;
  network: { rx_bytes: number; tx_bytes: number };
  uptime: number;
  state: ProcessState;
  disk_bytes: number;
}

export interface ApiResponse {
  state: ProcessState;
  is_suspended: boolean;
  utilization: ResourceUsage;
  configuration: ServerConfiguration;
}

/** A websocket frame: `args` is omitted when empty and every arg is a string. */
export interface WsMessage {
  event: string;
  args?: string[];
}

/** An event published on a server's bus; forwarded to authenticated websockets. */
export interface ServerEvent {
  event: string;
  args?: string[];
}
