/** The bench's child processes: the load generator (bench/load.ts) and the Wings simulator (bench/sim.ts). */
import { ChildProcess, fork } from 'node:child_process';
import { join } from 'node:path';
import type { LoadJob, LoadResult } from 'bench/load';

export class LoadDriver {
  private readonly child: ChildProcess;
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (r: LoadResult) => void; reject: (e: Error) => void }>();

  constructor() {
    this.child = fork(join(__dirname, '..', 'load.ts'), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    this.child.on('message', (msg: { id: number; result?: LoadResult; error?: string }) => {
      const p = this.pending.get(msg.id);
      this.pending.delete(msg.id);
      if (msg.result) {
        p?.resolve(msg.result);
      } else {
        p?.reject(new Error(`load generator: ${msg.error}`));
      }
    });
    this.child.on('exit', (code) => {
      for (const p of this.pending.values()) {
        p.reject(new Error(`the load generator exited (code ${code})`));
      }
      this.pending.clear();
    });
  }

  run(job: LoadJob): Promise<LoadResult> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.child.send({ id, job });
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  stop(): void {
    this.child.disconnect();
  }
}

interface SimReady {
  url: string;
  servers: number;
  pages: number;
  bootMs: number;
}

export const startSimulator = (panelUrl: string, node: { tokenId: string; token: string; port: number }): Promise<{ child: ChildProcess; ready: SimReady }> =>
  new Promise((resolve, reject) => {
    const child = fork(join(__dirname, '..', 'sim.ts'), [], {
      env: { ...process.env, PANEL_URL: panelUrl, TOKEN_ID: node.tokenId, TOKEN: node.token, PORT: String(node.port) },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const timer = setTimeout(() => reject(new Error('the simulator did not get ready within 180 s')), 180_000);
    child.once('exit', (code) => reject(new Error(`the simulator exited (code ${code}) before it was ready`)));
    child.on('message', (msg: SimReady & { type: string }) => {
      if (msg.type === 'ready') {
        clearTimeout(timer);
        resolve({ child, ready: msg });
      }
    });
  });

export const stopChild = async (child: ChildProcess | null): Promise<void> => {
  if (!child || child.exitCode !== null || child.signalCode !== null) {
    return;
  }
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
};
