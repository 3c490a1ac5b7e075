import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { HotCaches } from 'src/common/hot-cache/hot-caches';
import { Reloader } from 'src/common/hot-cache/reloader';
import { NodesRepository } from 'src/modules/nodes/nodes.repository';
import { errorMessage } from 'src/common/errors/error-message';

/**
 * The origins the web UI's browser code talks to besides the panel: each node's daemon, by WebSocket
 * (the console) and HTTP, for the content-security policy's connect-src of the web UI's page
 * (src/common/http/security-headers.ts; which nodes a caller's page lists is ServerNodeOrigins'). Kept
 * in memory per node: loaded at boot, and reloaded in the background on every node change this
 * process or another makes (HotCaches.onChange: the TypeORM subscriber here, the change feed from
 * the others), never from a request's path.
 */
@Injectable()
export class NodeOrigins implements OnApplicationBootstrap {
  private readonly logger = new Logger(NodeOrigins.name);
  private origins: string[] = [];
  private byNode = new Map<string, string[]>();
  private readonly loads = new Reloader(
    async () => {
      const nodes = await this.repo.findNodeBaseUrls();
      this.origins = originsOf(nodes.map((n) => n.baseUrl));
      this.byNode = new Map(nodes.map((n) => [n.id, originsOf([n.baseUrl])]));
    },
    (err: unknown) => this.logger.warn(`node origins not reloaded: ${errorMessage(err)}`),
  );

  constructor(
    private readonly repo: NodesRepository,
    caches: HotCaches,
  ) {
    caches.onChange('node', () => void this.reload());
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.reload();
  }

  /** Every node's origins: the same array until a node changes. */
  connectSources(): string[] {
    return this.origins;
  }

  /** The origins of these nodes, sorted; unknown ids have none. */
  ofNodes(ids: readonly string[]): string[] {
    return [...new Set(ids.flatMap((id) => this.byNode.get(id) ?? []))].sort();
  }

  /** Resolves once no load is running, including one a change during the last load started. */
  settled(): Promise<void> {
    return this.loads.settled();
  }

  /** Loads the list again (one load at a time); a failed load keeps the last list and is logged. */
  reload(): Promise<void> {
    return this.loads.reload();
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
