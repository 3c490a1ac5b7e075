import { Injectable, Logger } from '@nestjs/common';
import { CacheKind, invalidationFor, RowChange } from 'src/common/hot-cache/row-changes';
import { TaggedCache } from 'src/common/hot-cache/tagged-cache';
import { AppConfigService } from 'src/config/app-config.service';

/**
 * What each cache holds. Empty here, so that src/common names no module: the module that owns a
 * cache adds its entry by declaration merging (`declare module 'src/common/hot-cache/hot-caches'`),
 * next to the code that fills it. Marked public for knip, which does not count the merging as a use.
 * @public
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface HotCacheEntries {}
type Entry<K extends CacheKind> = K extends keyof HotCacheEntries ? HotCacheEntries[K] : never;

/**
 * The in-process caches of what every request reads, as small plain values (never entities):
 * credential snapshots by hash (Pterodactyl keys by identifier, nodes by daemon token identifier),
 * server snapshots by reference, a server's allocations and subuser
 * grants, and servers' Wings configurations. Readers share what is stored; every stored type is read-only, and the owning module builds
 * a fresh object from it when a caller needs one it may change. Entries are dropped by `apply` for each
 * row change (ChangeSubscriber in this process, ChangeFeed from the others), and nothing is served
 * or stored while `live` is false: on PostgreSQL that is whenever the change feed is not listening,
 * so a missed notification can never be served.
 */
@Injectable()
export class HotCaches {
  private readonly logger = new Logger(HotCaches.name);
  readonly apiKeys: TaggedCache<Entry<'apiKeys'>>;
  readonly pterodactylKeys: TaggedCache<Entry<'pterodactylKeys'>>;
  readonly sessions: TaggedCache<Entry<'sessions'>>;
  readonly servers: TaggedCache<Entry<'servers'>>;
  readonly allocations: TaggedCache<Entry<'allocations'>>;
  readonly grants: TaggedCache<Entry<'grants'>>;
  readonly configs: TaggedCache<Entry<'configs'>>;
  readonly daemonNodes: TaggedCache<Entry<'daemonNodes'>>;
  private readonly byKind: Record<CacheKind, Pick<TaggedCache<unknown>, 'clear' | 'invalidateTag'>>;
  private live: boolean;
  private readonly listeners: { table: RowChange['table']; reload: () => void }[] = [];

  constructor(config: AppConfigService) {
    const { ttlMs, maxEntries } = config.hotCache;
    // The embedded database is one process's (EmbeddedDatabaseLock): this process sees every write.
    this.live = config.db.kind === 'pglite';
    const enabled = () => ttlMs > 0 && this.live;
    const cache = <V>(): TaggedCache<V> => new TaggedCache<V>({ max: maxEntries, ttlMs, enabled });
    this.apiKeys = cache();
    this.pterodactylKeys = cache();
    this.sessions = cache();
    this.servers = cache();
    this.allocations = cache();
    this.grants = cache();
    this.configs = cache();
    this.daemonNodes = cache();
    this.byKind = {
      apiKeys: this.apiKeys,
      pterodactylKeys: this.pterodactylKeys,
      sessions: this.sessions,
      servers: this.servers,
      allocations: this.allocations,
      grants: this.grants,
      configs: this.configs,
      daemonNodes: this.daemonNodes,
    };
  }

  /**
   * The change feed's state. Both ways everything is dropped: going down, because what is cached can
   * no longer be kept right; coming up, because changes made while down were never heard.
   */
  setLive(live: boolean): void {
    if (live !== this.live) {
      this.live = live;
      this.clear();
    }
  }

  /**
   * For a value derived from a whole table and kept outside these caches (the nodes' CSP origins):
   * `reload` runs after every change to `table`, and whenever the caches are reset (the change feed
   * went down or came back, so changes may have gone unheard).
   */
  onChange(table: RowChange['table'], reload: () => void): void {
    this.listeners.push({ table, reload });
  }

  /** Drops what `change` makes wrong, in every cache. */
  apply(change: RowChange): void {
    for (const listener of this.listeners) {
      if (listener.table === change.table) {
        listener.reload();
      }
    }
    const { tags, clear } = invalidationFor(change);
    for (const kind of clear) {
      this.byKind[kind].clear();
    }
    if (tags.length > 0) {
      for (const cache of Object.values(this.byKind)) {
        for (const tag of tags) {
          cache.invalidateTag(tag);
        }
      }
    }
    if (clear.length > 0) {
      this.logger.debug(`${change.table} changed (rows unknown): cleared ${clear.join(', ')}`);
    }
  }

  clear(): void {
    for (const cache of Object.values(this.byKind)) {
      cache.clear();
    }
    for (const listener of this.listeners) {
      listener.reload();
    }
  }
}
