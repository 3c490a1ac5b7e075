import { UploadQueue } from '@/features/files/upload-queue';
import { xhrUploadTransport } from '@/features/files/upload-transport';

// Long file work of one server (archive, extract, pull, mass move) for the operations tray. Kept outside React
// so it survives leaving the files tab and coming back.

export type OperationKind = 'compress' | 'decompress' | 'pull' | 'move';
/** `unsure`: a proxy gave up waiting (502/504) while the node may still be working. */
export type OperationStatus = 'running' | 'done' | 'failed' | 'unsure';

export interface Operation {
  readonly id: number;
  readonly kind: OperationKind;
  /** What it works on, shown as text (a file name, a URL). */
  readonly subject: string;
  readonly status: OperationStatus;
  readonly error?: unknown;
}

/** A status a reverse proxy answers when it stopped waiting for the panel, not the panel's own error. */
export const maybeStillRunning = (error: unknown): boolean => {
  if (typeof error !== 'object' || error === null) {
    return false;
  }
  const { status, code } = error as { status?: unknown; code?: unknown };
  return status === 504 || code === 'DAEMON_TIMEOUT' || (status === 502 && code === 'HTTP_502');
};

export class OperationsStore {
  private ops: Operation[] = [];
  private readonly listeners = new Set<() => void>();
  private nextId = 1;

  items = (): readonly Operation[] => this.ops;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** Runs `work` as a tray entry; resolves to the entry as it ended (never rejects). */
  async run(kind: OperationKind, subject: string, work: () => Promise<unknown>): Promise<Operation> {
    const id = this.nextId++;
    this.set([...this.ops, { id, kind, subject, status: 'running' }]);
    let ended: Operation;
    try {
      await work();
      ended = { id, kind, subject, status: 'done' };
    } catch (error) {
      ended = { id, kind, subject, status: maybeStillRunning(error) ? 'unsure' : 'failed', error };
    }
    this.set(this.ops.map((op) => (op.id === id ? ended : op)));
    return ended;
  }

  dismiss(id: number): void {
    this.set(this.ops.filter((op) => op.id !== id || op.status === 'running'));
  }

  clearFinished(): void {
    this.set(this.ops.filter((op) => op.status === 'running'));
  }

  private set(ops: Operation[]): void {
    this.ops = ops;
    for (const listener of this.listeners) {
      listener();
    }
  }
}

interface ServerWork {
  operations: OperationsStore;
  uploads: UploadQueue;
}

const perServer = new Map<string, ServerWork>();

/** The tray of one server: its operations and its upload queue, made once per page load. */
export const serverWork = (server: string): ServerWork => {
  let work = perServer.get(server);
  if (!work) {
    work = { operations: new OperationsStore(), uploads: new UploadQueue({ transport: xhrUploadTransport(server) }) };
    perServer.set(server, work);
  }
  return work;
};
