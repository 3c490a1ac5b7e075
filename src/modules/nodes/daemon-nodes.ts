import { Injectable } from '@nestjs/common';
import { HotCaches } from 'src/common/hot-cache/hot-caches';
import { NodeEntity } from 'src/modules/nodes/node.entity';
import { NodesRepository } from 'src/modules/nodes/nodes.repository';

type Dates = 'lastSeenAt' | 'daemonContactedAt' | 'createdAt' | 'updatedAt';
type NodeColumns = Omit<NodeEntity, 'location' | 'backupHost' | Dates>;

/** A node as the daemon-token cache keeps it: its columns, dates as epoch milliseconds. */
type DaemonNodeSnapshot = { readonly [K in keyof NodeColumns]: NodeColumns[K] } & { readonly [K in Dates]: K extends 'createdAt' | 'updatedAt' ? number : number | null };

declare module 'src/common/hot-cache/hot-caches' {
  interface HotCacheEntries {
    daemonNodes: DaemonNodeSnapshot;
  }
}

const time = (d: Date | null): number | null => (d === null ? null : d.getTime());
const date = (t: number | null): Date | null => (t === null ? null : new Date(t));

const snapshotOf = (node: NodeEntity): DaemonNodeSnapshot => {
  const { location: _location, backupHost: _backupHost, lastSeenAt, daemonContactedAt, createdAt, updatedAt, ...columns } = node;
  return { ...columns, lastSeenAt: time(lastSeenAt), daemonContactedAt: time(daemonContactedAt), createdAt: createdAt.getTime(), updatedAt: updatedAt.getTime() };
};

/** The request's own node row, built from the snapshot (the request may change it; the cache is not touched). */
const nodeFromSnapshot = (node: DaemonNodeSnapshot): NodeEntity =>
  Object.assign(new NodeEntity(), {
    ...node,
    lastSeenAt: date(node.lastSeenAt),
    daemonContactedAt: date(node.daemonContactedAt),
    createdAt: new Date(node.createdAt),
    updatedAt: new Date(node.updatedAt),
  });

/**
 * The node a daemon's token names, for every call a daemon makes (`/api/remote/**`): served from
 * HotCaches by token identifier when warm (no query). Any change of the node (a new token, a new
 * address, its deletion) drops the cached copy, in this process at once and in the others through the
 * change feed; a "last seen" mark is bookkeeping, which the cached copy follows.
 */
@Injectable()
export class DaemonNodes {
  constructor(
    private readonly repo: NodesRepository,
    private readonly caches: HotCaches,
  ) {}

  async byTokenIdentifier(identifier: string): Promise<NodeEntity | null> {
    const snapshot = await this.caches.daemonNodes.getOrLoad(
      identifier,
      async () => {
        const node = await this.repo.findNodeByTokenIdentifier(identifier);
        return node ? snapshotOf(node) : null;
      },
      (node) => [`node:${node.id}`],
    );
    return snapshot ? nodeFromSnapshot(snapshot) : null;
  }

  /** Records that the node's daemon called in (and, the first time, that it was heard from). */
  async touch(node: NodeEntity, at: Date): Promise<void> {
    await this.repo.touchNode(node.id, at);
    const seen = at.getTime();
    this.caches.daemonNodes.patch(node.tokenIdentifier, (stored) => ({ ...stored, lastSeenAt: seen, daemonContactedAt: stored.daemonContactedAt ?? seen }));
  }
}
