import { performance } from 'node:perf_hooks';
import { LRUCache } from 'lru-cache';

export interface TaggedCacheOptions {
  /** The most entries kept; the least recently used goes first. */
  max: number;
  /** How long an entry may be served at most (a backstop: invalidation is what keeps entries right). */
  ttlMs: number;
  /** Whether the cache may serve and store now (off: every read goes to the database). */
  enabled: () => boolean;
  /** Monotonic milliseconds; a test may pass its own. */
  now?: () => number;
}

/**
 * What a cache may hold: small plain values (snapshots built field by field, strings, numbers,
 * arrays of them), never entities. Stored values are handed to every reader as they are, so they are
 * typed read-only all the way down and nothing in the code changes one.
 */
interface Entry<V> {
  value: V;
  tags: readonly string[];
}

/** A null result is stored only with `cacheNull`, under its own tags (a cached "none"). */
type LoadOptions = { cacheNull?: false } | { cacheNull: true; nullTags: readonly string[] };

/** Taken before reading the database; a store with a ticket older than an invalidation it depends on is refused. */
type FillTicket = number;

// A key is also a tag of its own entry, in a namespace no tag can collide with.
const keyTag = (key: string): string => `\u0000${key}`;

/**
 * An LRU with a TTL (lru-cache) whose entries carry tags (`user:5`, `server:12`), so that a change to
 * a row drops every entry built from it.
 *
 * Fills are generation-checked. A reader takes a ticket (the current generation) before it reads the
 * database and stores with it; every invalidation bumps the generation and remembers it per tag. A
 * store whose key or tags were invalidated after the ticket was taken is refused: the read may have
 * seen the row before the change, and storing it would bring the old row back after the invalidation.
 */
export class TaggedCache<V> {
  private readonly entries: LRUCache<string, Entry<V>>;
  private readonly keysByTag = new Map<string, Set<string>>();
  /** The generation of each tag's latest invalidation, oldest first (bounded; see `invalidate`). */
  private readonly invalidatedAt = new Map<string, number>();
  private generation = 0;
  /** Tickets older than this are refused whatever their tags (after a clear, or a forgotten tag). */
  private floor = 0;
  private readonly maxRemembered: number;

  constructor(private readonly options: TaggedCacheOptions) {
    const now = options.now ?? (() => performance.now());
    this.entries = new LRUCache<string, Entry<V>>({
      max: Math.max(1, options.max),
      ttl: Math.max(1, options.ttlMs),
      perf: { now },
      // Read the clock on every check (the default reuses one reading for a millisecond).
      ttlResolution: 0,
      // Whatever leaves the map (evicted, expired, replaced, deleted) leaves its tags' key sets too.
      dispose: (entry, key) => this.untag(key, entry),
    });
    this.maxRemembered = Math.max(1_000, options.max * 2);
  }

  get size(): number {
    return this.entries.size;
  }

  /** The cached value, or undefined on a miss (or while disabled). */
  get(key: string): V | undefined {
    if (!this.options.enabled()) {
      return undefined;
    }
    const entry = this.entries.get(key);
    // lru-cache serves an entry up to and including its last millisecond; here that millisecond is past.
    if (entry && this.entries.getRemainingTTL(key) <= 0) {
      this.entries.delete(key);
      return undefined;
    }
    return entry?.value;
  }

  /** Take one before reading what will be stored. */
  ticket(): FillTicket {
    return this.generation;
  }

  /**
   * Stores `value` under `key` unless the key or one of `tags` was invalidated since `ticket` (or the
   * cache is disabled). Returns whether it was stored.
   */
  set(key: string, value: V, tags: readonly string[], ticket: FillTicket): boolean {
    if (!this.options.enabled() || this.options.ttlMs <= 0 || ticket < this.floor) {
      return false;
    }
    if ((this.invalidatedAt.get(keyTag(key)) ?? 0) > ticket || tags.some((t) => (this.invalidatedAt.get(t) ?? 0) > ticket)) {
      return false;
    }
    this.entries.delete(key);
    this.entries.set(key, { value, tags });
    this.tag(key, tags);
    return true;
  }

  /**
   * Reads through the cache: the cached value, else `load()` stored under `key` with the tags
   * `tagsOf` gives (a null result is stored only with `cacheNull`).
   */
  async getOrLoad<T extends V>(
    key: string,
    load: () => Promise<T | null>,
    tagsOf: (value: T) => readonly string[],
    options: LoadOptions = {},
  ): Promise<T | null> {
    const hit = this.get(key);
    if (hit !== undefined) {
      return hit as T | null;
    }
    return this.load(key, load, tagsOf, options);
  }

  /** Reads the database and stores the result (generation-checked), without looking at the cache first. */
  async load<T extends V>(
    key: string,
    load: () => Promise<T | null>,
    tagsOf: (value: T) => readonly string[],
    options: LoadOptions = {},
  ): Promise<T | null> {
    const ticket = this.ticket();
    const value = await load();
    if (value !== null) {
      this.set(key, value, tagsOf(value), ticket);
    } else if (options.cacheNull) {
      this.set(key, null as V, options.nullTags, ticket);
    } else {
      // The row is gone: whatever is still stored under the key (a value that looked expired) goes too.
      this.entries.delete(key);
    }
    return value;
  }

  /**
   * Replaces the stored value with `change(stored)` (bookkeeping the caller has just written itself),
   * keeping its tags and age; no-op on a miss.
   */
  patch(key: string, change: (stored: V) => V): void {
    const entry = this.entries.get(key, { updateAgeOnGet: false });
    if (entry) {
      const ttl = this.entries.getRemainingTTL(key);
      // The replaced entry's dispose untags the key: tag it again.
      this.entries.set(key, { value: change(entry.value), tags: entry.tags }, { ttl: Math.max(1, ttl) });
      this.tag(key, entry.tags);
    }
  }

  /** Drops the entry under `key`, and refuses fills of it begun before now. */
  delete(key: string): void {
    this.invalidate(keyTag(key));
    this.entries.delete(key);
  }

  /** Drops every entry tagged `tag`, and refuses fills depending on it begun before now. */
  invalidateTag(tag: string): void {
    this.invalidate(tag);
    const keys = this.keysByTag.get(tag);
    if (!keys) {
      return;
    }
    for (const key of [...keys]) {
      this.entries.delete(key);
    }
    this.keysByTag.delete(tag);
  }

  /** Drops everything, and refuses every fill begun before now. */
  clear(): void {
    this.generation += 1;
    this.floor = this.generation;
    this.entries.clear();
    this.keysByTag.clear();
    this.invalidatedAt.clear();
  }

  private invalidate(tag: string): void {
    this.generation += 1;
    // Re-inserted so that the map stays in generation order and the oldest is forgotten first.
    this.invalidatedAt.delete(tag);
    this.invalidatedAt.set(tag, this.generation);
    while (this.invalidatedAt.size > this.maxRemembered) {
      const [forgotten, at] = this.invalidatedAt.entries().next().value as [string, number];
      this.invalidatedAt.delete(forgotten);
      // Whatever that tag's invalidation would have refused, the floor now refuses.
      this.floor = Math.max(this.floor, at);
    }
  }

  private tag(key: string, tags: readonly string[]): void {
    for (const tag of tags) {
      let keys = this.keysByTag.get(tag);
      if (!keys) {
        keys = new Set();
        this.keysByTag.set(tag, keys);
      }
      keys.add(key);
    }
  }

  private untag(key: string, entry: Entry<V>): void {
    for (const tag of entry.tags) {
      const keys = this.keysByTag.get(tag);
      keys?.delete(key);
      if (keys?.size === 0) {
        this.keysByTag.delete(tag);
      }
    }
  }
}
