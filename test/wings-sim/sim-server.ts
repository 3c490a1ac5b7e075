// One simulated server: configuration, state, console buffer and event bus.
import { EventEmitter } from 'node:events';
import { memoryLimitBytes } from 'test/wings-sim/config';
import { ServerFilesystem } from 'test/wings-sim/files';
import { PanelClient } from 'test/wings-sim/panel-client';
import {
  ApiResponse,
  PanelServerConfiguration,
  ProcessConfiguration,
  ProcessState,
  ResourceUsage,
  ServerConfiguration,
  ServerEvent,
  SimulatorTiming,
} from 'test/wings-sim/types';

interface SimServerDeps {
  panel: PanelClient;
  timing: SimulatorTiming;
  appName: () => string;
}

/** The simulated container process: alive between start and exit. */
export interface SimProcess {
  startedAt: number;
  timers: Set<NodeJS.Timeout>;
  exited: Promise<void>;
  exit: (code: number) => void;
  exitCode: number;
}

/** A per-server lock that fails at once when held, like Wings' locker. */
class PowerLock {
  private held = false;

  get locked(): boolean {
    return this.held;
  }

  tryAcquire(): boolean {
    if (this.held) {
      return false;
    }
    this.held = true;
    return true;
  }

  /** With waitSeconds > 0 polls until the lock frees or the time is up. */
  async acquire(waitSeconds: number): Promise<boolean> {
    const deadline = Date.now() + waitSeconds * 1000;
    while (!this.tryAcquire()) {
      if (Date.now() >= deadline) {
        return false;
      }
      await new Promise((r) => setTimeout(r, 25));
    }
    return true;
  }

  release(): void {
    this.held = false;
  }
}

const LOG_LINES_KEPT = 1000;

/** What a test makes a running server report (`SimServer.setUsage`); network counters are cumulative, as Wings'. */
interface SimUsage {
  cpu: number;
  memoryBytes: number;
  rxBytes: number;
  txBytes: number;
}

export class SimServer {
  config: ServerConfiguration;
  processConfig: ProcessConfiguration;
  state: ProcessState = 'offline';
  installing = false;
  restoring = false;
  transferring = false;
  /** Set by DELETE: background work stops, sockets are closed. */
  destroyed = false;
  proc: SimProcess | null = null;
  lastCrash: number | null = null;
  lastExitCode = 0;
  /** Crash handler, installed by the power module. */
  onCrash: (() => void) | undefined;
  readonly lock = new PowerLock();
  readonly fs: ServerFilesystem;
  /** Container output since the last start (the container log is truncated on every start). */
  readonly logs: string[] = [];
  readonly bus = new EventEmitter();
  /** Remote downloads in progress (`/files/pull`), by identifier. */
  readonly downloads = new Map<string, { progress: number; abort: AbortController }>();
  private network = { rx: 0, tx: 0 };
  /**
   * Fixed usage while running, set by a test (`setUsage`): every read reports this CPU, memory and
   * these cumulative network counters. Unset, a running server reports random usage.
   */
  private usage: SimUsage | null = null;

  constructor(
    readonly uuid: string,
    cfg: PanelServerConfiguration,
    dataDir: string,
    readonly deps: SimServerDeps,
  ) {
    this.config = cfg.settings;
    this.processConfig = cfg.process_configuration;
    this.fs = new ServerFilesystem(dataDir, () => this.config.build.disk_space);
    this.fs.setDenylist(this.config.egg.file_denylist);
    this.bus.setMaxListeners(0);
  }

  get suspended(): boolean {
    return this.config.suspended;
  }

  /** True while the container runs (Docker's "running", i.e. starting/running/stopping). */
  get containerRunning(): boolean {
    return this.proc !== null;
  }

  applyConfiguration(cfg: PanelServerConfiguration): void {
    this.config = cfg.settings;
    this.processConfig = cfg.process_configuration;
    this.fs.setDenylist(this.config.egg.file_denylist);
  }

  /** Server.Sync: re-fetch `GET /api/remote/servers/{uuid}` and apply it. */
  async sync(): Promise<void> {
    this.applyConfiguration(await this.deps.panel.getServerConfiguration(this.uuid));
  }

  publish(event: string, ...args: string[]): void {
    const e: ServerEvent = args.length > 0 ? { event, args } : { event };
    this.bus.emit('event', e);
  }

  /** PublishConsoleOutputFromDaemon: colorstring "[yellow][bold][<app> Daemon]:[default] msg" + reset. */
  publishDaemon(message: string): void {
    this.publish('console output', `\u001b[33m\u001b[1m[${this.deps.appName()} Daemon]:\u001b[39m ${message}\u001b[0m`);
  }

  /** A line of container output: logged, sent to sockets, and matched against `startup.done`. */
  processOutput(line: string): void {
    this.logs.push(line);
    if (this.logs.length > LOG_LINES_KEPT) {
      this.logs.splice(0, this.logs.length - LOG_LINES_KEPT);
    }
    this.publish('console output', line);
    if (this.state !== 'starting') {
      return;
    }
    const startup = this.processConfig.startup;
    const v = startup.strip_ansi ? line.replace(ANSI, '') : line;
    for (const done of startup.done) {
      const matches = done.startsWith('regex:') ? safeRegex(done.slice(6))?.test(v) : v.includes(done);
      if (matches) {
        this.setState('running');
        break;
      }
    }
  }

  /** Environment.SetState + Server.OnStateChange (status event, zeroed stats, crash detection). */
  setState(next: ProcessState): void {
    const prev = this.state;
    this.state = next;
    if (prev !== next) {
      this.publish('status', next);
    }
    if (next === 'offline') {
      void this.publishStats();
      if (prev === 'starting' || prev === 'running') {
        this.onCrash?.();
      }
    }
  }

  async utilization(): Promise<ResourceUsage> {
    const disk = await this.fs.diskUsage().catch(() => 0);
    const proc = this.proc;
    if (!proc || this.state === 'offline') {
      return {
        memory_bytes: 0,
        memory_limit_bytes: 0,
        cpu_absolute: 0,
        network: { rx_bytes: 0, tx_bytes: 0 },
        uptime: 0,
        state: this.state,
        disk_bytes: disk,
      };
    }
    const limit = memoryLimitBytes(this.config.build.memory_limit) || 8 * 1024 ** 3;
    const usage = this.usage;
    if (usage) {
      this.network = { rx: usage.rxBytes, tx: usage.txBytes };
    } else {
      this.network.rx += 1500 + Math.floor(Math.random() * 4000);
      this.network.tx += 900 + Math.floor(Math.random() * 3000);
    }
    return {
      memory_bytes: usage ? usage.memoryBytes : Math.floor(limit * (0.25 + Math.random() * 0.1)),
      memory_limit_bytes: limit,
      cpu_absolute: usage ? usage.cpu : Math.round((2 + Math.random() * 20) * 1000) / 1000,
      network: { rx_bytes: this.network.rx, tx_bytes: this.network.tx },
      uptime: Date.now() - proc.startedAt,
      state: this.state,
      disk_bytes: disk,
    };
  }

  async publishStats(): Promise<void> {
    const stats = await this.utilization();
    this.publish('stats', JSON.stringify(stats));
  }

  /** Fixes what the server reports using while it runs (null: random again). */
  setUsage(usage: SimUsage | null): void {
    this.usage = usage;
  }

  resetNetwork(): void {
    this.network = { rx: 0, tx: 0 };
  }

  async toApiResponse(): Promise<ApiResponse> {
    return {
      state: this.state,
      is_suspended: this.suspended,
      utilization: await this.utilization(),
      configuration: this.config,
    };
  }

  /** A timer that dies with the process or the server. */
  later(fn: () => void, ms: number): void {
    const t = setTimeout(() => {
      this.proc?.timers.delete(t);
      if (!this.destroyed) {
        fn();
      }
    }, ms);
    this.proc?.timers.add(t);
  }
}

const ANSI =
  // eslint-disable-next-line no-control-regex
  /[\u001B\u009B][[\]()#;?]*(?:(?:(?:[a-zA-Z\d]*(?:;[a-zA-Z\d]*)*)?\u0007)|(?:(?:\d{1,4}(?:;\d{0,4})*)?[\dA-PRZcf-ntqry=><~]))/g;

function safeRegex(source: string): RegExp | undefined {
  try {
    return new RegExp(source);
  } catch {
    return undefined;
  }
}
