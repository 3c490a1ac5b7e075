/** The bench's child processes: the load generator (bench/load.ts), the Wings simulator (bench/sim.ts) and many nodes (bench/nodes.ts). */
import { ChildProcess, fork } from 'node:child_process';
import { join } from 'node:path';
import type { LoadJob, LoadResult } from 'bench/load';
import type { NodeCredentials, NodesAnswer, NodesRequest } from 'bench/nodes';

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

type Booted = Extract<NodesAnswer, { type: 'booted' }>;

/** Many Wings nodes in one child process (bench/nodes.ts), each on a port of its own. */
export class NodeSimulators {
  private constructor(
    private readonly child: ChildProcess,
    /** Each node's port, by node id. */
    readonly ports: Record<string, number>,
  ) {}

  /** Starts a simulator per node (no servers until `boot`). */
  static async start(panelUrl: string, nodes: NodeCredentials[]): Promise<NodeSimulators> {
    const child = fork(join(__dirname, '..', 'nodes.ts'), [], { env: { ...process.env, PANEL_URL: panelUrl }, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    try {
      const listening = await NodeSimulators.next(child, 'listening', { type: 'start', nodes }, 120_000);
      return new NodeSimulators(child, listening.ports);
    } catch (e) {
      await stopChild(child);
      throw e;
    }
  }

  /** Every node boots at once, as Wings does at start; resolves when the last one has. */
  boot(): Promise<Booted> {
    return NodeSimulators.next(this.child, 'booted', { type: 'boot' }, 300_000);
  }

  stop(): Promise<void> {
    return stopChild(this.child);
  }

  private static next<T extends NodesAnswer['type']>(child: ChildProcess, type: T, request: NodesRequest, timeoutMs: number): Promise<Extract<NodesAnswer, { type: T }>> {
    return new Promise((resolve, reject) => {
      const done = (): void => {
        clearTimeout(timer);
        child.off('message', onMessage);
        child.off('exit', onExit);
      };
      const onMessage = (message: NodesAnswer): void => {
        if (message.type === type || message.type === 'error') {
          done();
          if (message.type === 'error') {
            reject(new Error(`the node simulators: ${message.error}`));
          } else {
            resolve(message as Extract<NodesAnswer, { type: T }>);
          }
        }
      };
      const onExit = (code: number | null): void => {
        done();
        reject(new Error(`the node simulators exited (code ${code})`));
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`the node simulators did not answer '${type}' within ${timeoutMs / 1000} s`));
      }, timeoutMs);
      child.on('message', onMessage);
      child.once('exit', onExit);
      child.send(request);
    });
  }
}
