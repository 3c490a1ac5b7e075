// The upload queue of the file manager: one file per request, a few at a time, each with its own
// progress, cancel and retry (docs/api.md#files). Pure: the request itself is
// an injected transport (XHR in the app, a fake in tests), and so are the clock and the wait.

/** What a transport reports back from a finished request: the rate-limit headers, when present. */
export interface TransportResult {
  /** X-RateLimit-Remaining of the answer. */
  remaining?: number;
  /** X-RateLimit-Reset of the answer, in Unix seconds. */
  resetAt?: number;
}

/** A failed request; `status` 0 means no answer (network), `retryAfterS` comes with a 429. */
export interface UploadFailure {
  status: number;
  code: string;
  message: string;
  requestId?: string;
  retryAfterS?: number;
}

/** What a transport rejects with when the panel (or the network) refused the file. */
export class UploadError extends Error implements UploadFailure {
  override readonly name = 'UploadError';

  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly requestId?: string,
    readonly retryAfterS?: number,
  ) {
    super(message);
  }
}

export interface UploadRequest {
  file: Blob;
  name: string;
  directory: string;
}

/** Sends one file; rejects with an UploadFailure-shaped error, or an AbortError when cancelled. */
export type UploadTransport = (request: UploadRequest, onProgress: (loaded: number) => void, signal: AbortSignal) => Promise<TransportResult>;

export type UploadStatus = 'queued' | 'uploading' | 'done' | 'failed' | 'refused' | 'cancelled';

export interface UploadItem {
  readonly id: number;
  readonly name: string;
  readonly directory: string;
  readonly size: number;
  readonly status: UploadStatus;
  readonly loaded: number;
  readonly error?: UploadFailure;
}

interface UploadQueueOptions {
  transport: UploadTransport;
  /** Requests in flight at once. */
  concurrency?: number;
  /** The largest file the node takes (bytes); larger ones are refused without sending. Undefined: no pre-check. */
  maxBytes?: number;
  /** At or below this many remaining requests, new uploads wait until the rate limit resets. */
  lowRemaining?: number;
  /** A 429 is retried this many times per file before it counts as failed. */
  rateLimitRetries?: number;
  now?: () => number;
  wait?: (ms: number) => Promise<void>;
  /** Called once for each file that ends (done, failed, refused); not for cancel. */
  onSettled?: (item: UploadItem) => void;
}

interface Entry {
  item: UploadItem;
  file: Blob;
  controller?: AbortController;
  rateLimitTries: number;
}

const isFailure = (value: unknown): value is UploadFailure =>
  typeof value === 'object' && value !== null && typeof (value as UploadFailure).status === 'number' && typeof (value as UploadFailure).code === 'string';

const asFailure = (error: unknown): UploadFailure => {
  if (!isFailure(error)) {
    return { status: 0, code: 'NETWORK_ERROR', message: error instanceof Error ? error.message : String(error) };
  }
  const { status, code, message, requestId, retryAfterS } = error;
  return { status, code, message, ...(requestId !== undefined ? { requestId } : {}), ...(retryAfterS !== undefined ? { retryAfterS } : {}) };
};

/** The code given to a file refused before sending because it is over the node's upload size. */
const FILE_TOO_LARGE = 'FILE_TOO_LARGE';

export class UploadQueue {
  private readonly entries: Entry[] = [];
  private readonly listeners = new Set<() => void>();
  private nextId = 1;
  private active = 0;
  /** No new request starts before this time (ms), set by a low X-RateLimit-Remaining or a 429. */
  private pausedUntil = 0;
  private pauseTimer: Promise<void> | undefined;
  private snapshot: readonly UploadItem[] = [];
  private readonly concurrency: number;
  private readonly lowRemaining: number;
  private readonly rateLimitRetries: number;
  private readonly now: () => number;
  private readonly wait: (ms: number) => Promise<void>;

  constructor(private readonly options: UploadQueueOptions) {
    this.concurrency = Math.max(1, options.concurrency ?? 3);
    this.lowRemaining = options.lowRemaining ?? 5;
    this.rateLimitRetries = options.rateLimitRetries ?? 3;
    this.now = options.now ?? Date.now;
    this.wait = options.wait ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
  }

  /** The node's upload size can arrive after the queue was made (the server details load later). */
  setMaxBytes(maxBytes: number | undefined): void {
    this.options.maxBytes = maxBytes;
  }

  /** Adds files to the end of the queue; a file over the size limit is refused at once. */
  add(files: UploadRequest[]): number[] {
    const ids: number[] = [];
    for (const request of files) {
      const id = this.nextId++;
      ids.push(id);
      const base = { id, name: request.name, directory: request.directory, size: request.file.size, loaded: 0 };
      const max = this.options.maxBytes;
      if (max !== undefined && request.file.size > max) {
        const item: UploadItem = { ...base, status: 'refused', error: { status: 413, code: FILE_TOO_LARGE, message: `larger than ${max} bytes` } };
        this.entries.push({ item, file: request.file, rateLimitTries: 0 });
        this.options.onSettled?.(item);
      } else {
        this.entries.push({ item: { ...base, status: 'queued' }, file: request.file, rateLimitTries: 0 });
      }
    }
    this.changed();
    this.pump();
    return ids;
  }

  /** Stops a queued or running upload; the others go on. */
  cancel(id: number): void {
    const entry = this.find(id);
    if (!entry || (entry.item.status !== 'queued' && entry.item.status !== 'uploading')) {
      return;
    }
    entry.controller?.abort();
    this.update(entry, { status: 'cancelled' });
  }

  /** Puts a failed or cancelled upload back in the queue, from the start. */
  retry(id: number): void {
    const entry = this.find(id);
    if (!entry || (entry.item.status !== 'failed' && entry.item.status !== 'cancelled')) {
      return;
    }
    entry.rateLimitTries = 0;
    this.update(entry, { status: 'queued', loaded: 0, error: undefined });
    this.pump();
  }

  /** Forgets every upload that has ended. */
  clearFinished(): void {
    for (let i = this.entries.length - 1; i >= 0; i--) {
      if (this.entries[i].item.status !== 'queued' && this.entries[i].item.status !== 'uploading') {
        this.entries.splice(i, 1);
      }
    }
    this.changed();
  }

  /** The current items, the same array until something changes (for useSyncExternalStore). */
  items = (): readonly UploadItem[] => this.snapshot;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  private find(id: number): Entry | undefined {
    return this.entries.find((e) => e.item.id === id);
  }

  private update(entry: Entry, patch: Partial<UploadItem>): void {
    entry.item = { ...entry.item, ...patch };
    this.changed();
  }

  private changed(): void {
    this.snapshot = this.entries.map((e) => e.item);
    for (const listener of this.listeners) {
      listener();
    }
  }

  private pump(): void {
    const wait = this.pausedUntil - this.now();
    if (wait > 0) {
      // One timer for the whole queue: when it fires, pump again.
      this.pauseTimer ??= this.wait(wait).then(() => {
        this.pauseTimer = undefined;
        this.pump();
      });
      return;
    }
    while (this.active < this.concurrency) {
      const next = this.entries.find((e) => e.item.status === 'queued');
      if (!next) {
        return;
      }
      void this.start(next);
    }
  }

  private async start(entry: Entry): Promise<void> {
    this.active += 1;
    const controller = new AbortController();
    entry.controller = controller;
    this.update(entry, { status: 'uploading', loaded: 0 });
    try {
      const result = await this.options.transport(
        { file: entry.file, name: entry.item.name, directory: entry.item.directory },
        (loaded) => {
          if (!controller.signal.aborted) {
            this.update(entry, { loaded: Math.min(loaded, entry.item.size) });
          }
        },
        controller.signal,
      );
      this.paceFrom(result);
      if (!controller.signal.aborted) {
        this.update(entry, { status: 'done', loaded: entry.item.size });
        this.options.onSettled?.(entry.item);
      }
    } catch (error) {
      if (!controller.signal.aborted) {
        this.failed(entry, asFailure(error));
      }
    } finally {
      entry.controller = undefined;
      this.active -= 1;
      this.pump();
    }
  }

  private failed(entry: Entry, failure: UploadFailure): void {
    if (failure.status === 429 && entry.rateLimitTries < this.rateLimitRetries) {
      // Rate limited: wait for the reset and send it again; the other files wait too.
      entry.rateLimitTries += 1;
      this.pauseFor((failure.retryAfterS ?? 1) * 1000);
      this.update(entry, { status: 'queued', loaded: 0 });
      return;
    }
    this.update(entry, { status: 'failed', error: failure });
    this.options.onSettled?.(entry.item);
  }

  private paceFrom(result: TransportResult): void {
    if (result.remaining !== undefined && result.remaining <= this.lowRemaining) {
      const resetMs = result.resetAt !== undefined ? result.resetAt * 1000 - this.now() : 1000;
      this.pauseFor(Math.max(resetMs, 0));
    }
  }

  private pauseFor(ms: number): void {
    this.pausedUntil = Math.max(this.pausedUntil, this.now() + ms);
  }
}

/** A file picked from a folder (input webkitdirectory or a dropped folder) keeps its path inside it. */
export interface PickedFile {
  file: Blob;
  name: string;
  /** The folders between the drop target and the file, e.g. `world/region` (no leading or trailing slash). */
  relativeDir: string;
}

const joinPath = (base: string, relative: string): string => {
  const parts = [...base.split('/'), ...relative.split('/')].filter((p) => p !== '' && p !== '.');
  return `/${parts.join('/')}`;
};

/**
 * Splits a picked file's path (`world/region/r.0.0.mca`, a leading `/` or `./` allowed) into its
 * folders and its name.
 */
export const pickedFromPath = (file: Blob, path: string): PickedFile => {
  const parts = path.split('/').filter((p) => p !== '' && p !== '.');
  const name = parts.pop() ?? '';
  return { file, name, relativeDir: parts.join('/') };
};

/**
 * What a folder upload into `directory` needs: the folders to create first, parents before children,
 * each once, and the upload requests with their target directory.
 */
export const planUpload = (directory: string, picked: PickedFile[]): { folders: string[]; requests: UploadRequest[] } => {
  const folders = new Set<string>();
  for (const p of picked) {
    const parts = p.relativeDir.split('/').filter(Boolean);
    for (let i = 1; i <= parts.length; i++) {
      folders.add(joinPath(directory, parts.slice(0, i).join('/')));
    }
  }
  return {
    folders: [...folders].sort((a, b) => a.split('/').length - b.split('/').length || a.localeCompare(b)),
    requests: picked.map((p) => ({ file: p.file, name: p.name, directory: joinPath(directory, p.relativeDir) })),
  };
};
