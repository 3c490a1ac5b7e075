import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { Clock } from 'src/common/clock';
import { NodesRepository } from 'src/modules/nodes/nodes.repository';

/** How long another panel process's node change may take to reach this process's CSP. */
const REFRESH_MS = 30_000;

/**
 * The origins the web UI's browser code talks to besides the panel: every node's daemon, by HTTP
 * (signed upload/download URLs) and by WebSocket (the console), for the content-security policy's
 * connect-src (src/common/http/security-headers.ts). The CSP is written on every response, so the
 * list is kept in memory: loaded at boot, reloaded at once when this process changes a node
 * (NodesService) and in the background when older than 30 s (changes made by other processes).
 */
@Injectable()
export class NodeOrigins implements OnApplicationBootstrap {
  private readonly logger = new Logger(NodeOrigins.name);
  private origins: string[] = [];
  private loadedAt = Number.NEGATIVE_INFINITY;
  private loading: Promise<void> | null = null;

  constructor(
    private readonly repo: NodesRepository,
    private readonly clock: Clock,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.reload();
  }

  /** The current list, for a synchronous header writer; starts a refresh when it is old. */
  connectSources(): string[] {
    if (this.clock.now().getTime() - this.loadedAt > REFRESH_MS) {
      void this.reload();
    }
    return this.origins;
  }

  /** Loads the list again (one load at a time); a failed load keeps the last list and is logged. */
  reload(): Promise<void> {
    this.loading ??= this.repo
      .findNodeBaseUrls()
      .then((urls) => {
        this.origins = originsOf(urls);
        this.loadedAt = this.clock.now().getTime();
      })
      .catch((err: unknown) => {
        this.logger.warn(`node origins not reloaded: ${err instanceof Error ? err.message : String(err)}`);
      })
      .finally(() => {
        this.loading = null;
      });
    return this.loading;
  }
}

/** `https://node:8080` → `https://node:8080 wss://node:8080` (the console's socket is on the same port). */
export const originsOf = (baseUrls: string[]): string[] => {
  const out = new Set<string>();
  for (const baseUrl of baseUrls) {
    let url: URL;
    try {
      url = new URL(baseUrl);
    } catch {
      continue;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      continue;
    }
    // URL.origin leaves out a default port (https://node:443 → https://node); the CSP matches it the same way.
    out.add(url.origin);
    out.add(`${url.protocol === 'https:' ? 'wss' : 'ws'}://${url.host}`);
  }
  return [...out].sort();
};
