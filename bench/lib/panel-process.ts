import { ChildProcess, spawn } from 'node:child_process';
import { closeSync, ftruncateSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const REPO_ROOT = join(__dirname, '..', '..');

/** The environment a panel gets: only what it needs, never the caller's DATABASE_URL, REDIS_URL and such. */
export const panelEnv = (settings: Record<string, string>): NodeJS.ProcessEnv => {
  const keep = ['PATH', 'HOME', 'TMPDIR', 'LANG', 'TZ', 'SYSTEMROOT'];
  const env: NodeJS.ProcessEnv = {};
  for (const k of keep) {
    if (process.env[k] !== undefined) {
      env[k] = process.env[k];
    }
  }
  return { ...env, ...settings };
};

/** Resident memory of a process, from /proc (Linux); null elsewhere or once it has gone. */
const rssMiB = (pid: number | undefined): number | null => {
  if (pid === undefined) {
    return null;
  }
  try {
    const m = /VmRSS:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : null;
  } catch {
    return null;
  }
};

/**
 * CPU time a process has used so far (user + system, all its threads), in milliseconds, from
 * /proc/<pid>/stat; null elsewhere. Clock ticks are 1/100 s on Linux (USER_HZ).
 */
export const cpuMs = (pid: number | undefined): number | null => {
  const split = cpuSplitMs(pid);
  return split === null ? null : split.user + split.system;
};

/** The same, as user and system (kernel: syscalls, the loopback network stack) time. */
export const cpuSplitMs = (pid: number | undefined): { user: number; system: number } | null => {
  if (pid === undefined) {
    return null;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces; fields are counted after its closing parenthesis.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { user: Number(fields[11]) * 10, system: Number(fields[12]) * 10 };
  } catch {
    return null;
  }
};

/** The whole machine's busy CPU time so far (all cores, every process), in milliseconds; null off Linux. */
export const machineBusyMs = (): number | null => {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n')[0];
    const [, user, nice, system, , , irq, softirq, steal] = line.trim().split(/\s+/).map(Number);
    return (user + nice + system + irq + softirq + steal) * 10;
  } catch {
    return null;
  }
};

/** Samples a process's RSS every `everyMs` and keeps the peak. */
export class RssSampler {
  private timer: NodeJS.Timeout | null = null;
  private peakMiB = 0;

  constructor(
    private readonly pid: number | undefined,
    private readonly everyMs = 100,
  ) {}

  start(): this {
    this.sample();
    this.timer = setInterval(() => this.sample(), this.everyMs);
    return this;
  }

  stop(): number {
    if (this.timer) {
      clearInterval(this.timer);
    }
    this.sample();
    return Math.round(this.peakMiB * 10) / 10;
  }

  private sample(): void {
    this.peakMiB = Math.max(this.peakMiB, rssMiB(this.pid) ?? 0);
  }
}

interface PanelProcessOptions {
  env: NodeJS.ProcessEnv;
  port: number;
  /** Where the panel's stdout (its JSON log lines) goes; it is truncated between scenarios. */
  logFile: string;
  nodeArgs?: string[];
}

/** `node dist/main.js` as its own process: the panel as production runs it. */
export class PanelProcess {
  readonly url: string;
  private child: ChildProcess | null = null;
  private logFd = -1;
  private stderr = '';
  private exited: Promise<number | null> = Promise.resolve(null);
  private startedAt = 0n;

  constructor(private readonly opts: PanelProcessOptions) {
    this.url = `http://127.0.0.1:${opts.port}`;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  start(): this {
    this.logFd = openSync(this.opts.logFile, 'a');
    this.startedAt = process.hrtime.bigint();
    const child = spawn(process.execPath, [...(this.opts.nodeArgs ?? []), join(REPO_ROOT, 'dist', 'main.js')], {
      cwd: REPO_ROOT,
      env: this.opts.env,
      stdio: ['ignore', this.logFd, 'pipe'],
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      this.stderr = (this.stderr + chunk.toString('utf8')).slice(-16_384);
    });
    this.exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
    this.child = child;
    return this;
  }

  /** Polls GET /api/health until it answers 200; returns the milliseconds since start(). */
  async waitHealthy(timeoutMs = 60_000, everyMs = 10): Promise<number> {
    const deadline = Date.now() + timeoutMs;
    let exitCode: number | null | undefined;
    void this.exited.then((code) => (exitCode = code));
    for (;;) {
      try {
        const res = await fetch(`${this.url}/api/health`, { signal: AbortSignal.timeout(2000) });
        await res.arrayBuffer();
        if (res.status === 200) {
          return Number(process.hrtime.bigint() - this.startedAt) / 1e6;
        }
      } catch {
        // not listening yet
      }
      if (exitCode !== undefined) {
        throw new Error(`the panel exited (code ${exitCode}) before /api/health answered:\n${this.stderr}${this.logTail()}`);
      }
      if (Date.now() > deadline) {
        throw new Error(`the panel did not answer /api/health within ${timeoutMs} ms:\n${this.stderr}${this.logTail()}`);
      }
      await new Promise((r) => setTimeout(r, everyMs));
    }
  }

  rssMiB(): number | null {
    return rssMiB(this.pid);
  }

  /** The last lines the panel logged (for failures), at most `bytes` long. */
  logTail(bytes = 4096): string {
    try {
      const text = readFileSync(this.opts.logFile, 'utf8');
      return text.slice(-bytes);
    } catch {
      return '';
    }
  }

  /** Log lines at warn (40) or above since the last truncate. */
  problems(limit = 5): string[] {
    let text = '';
    try {
      text = readFileSync(this.opts.logFile, 'utf8');
    } catch {
      return [];
    }
    return text
      .split('\n')
      .filter((l) => /"level":(4|5|6)0/.test(l))
      .slice(0, limit)
      .map((l) => {
        try {
          const e = JSON.parse(l) as { level: number; msg?: string; req?: { method?: string; url?: string }; res?: { statusCode?: number }; err?: { message?: string } };
          return [e.level >= 50 ? 'error' : 'warn', e.req ? `${e.req.method} ${e.req.url} → ${e.res?.statusCode}` : '', e.msg ?? '', e.err?.message ?? '']
            .filter(Boolean)
            .join(' | ');
        } catch {
          return l.slice(0, 600);
        }
      });
  }

  /** Empties the log file (it is opened for appending, so the panel writes on from the start). */
  truncateLog(): void {
    if (this.logFd >= 0) {
      ftruncateSync(this.logFd, 0);
    }
  }

  /** SIGTERM (Nest's shutdown hooks run), SIGKILL after `graceMs`. */
  async stop(graceMs = 10_000): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) {
      this.closeLog();
      return;
    }
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    await this.exited;
    clearTimeout(timer);
    this.closeLog();
  }

  private closeLog(): void {
    if (this.logFd >= 0) {
      closeSync(this.logFd);
      this.logFd = -1;
    }
  }
}
