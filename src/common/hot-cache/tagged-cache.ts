import { performance } from 'node:perf_hooks';

export interface TaggedCacheOptions<V> {
  /** The most entries kept; the least recently used goes first. */
  max: number;
  /** How long an entry may be served at most (a backstop: invalidation is what keeps entries right). */
  ttlMs: number;
  /** Values come out through `copy` and go in through `store`, so no caller ever holds the stored object. */
  copy: (value: V) => V;
  /** Defaults to `copy`. */
  store?: (value: V) => V;
  /** Whether the cache may serve and store now (off: every read goes to the database). */
  enabled: () => boolean;
  /** Monotonic milliseconds; a test may pass its own. */
  now?: () => number;
}

interface Entry<V> {
  value: V;
  tags: readonly string[];
  expiresAt: number;
}

/** A null result is stored only with `cacheNull`, under its own tags (a cached "none"). */
type LoadOptions = { cacheNull?: false } | { cacheNull: true; nullTags: readonly string[] };

/** Taken before reading the database; a store with a ticket older than an invalidation it depends on is refused. */
type FillTicket = number;

// A key is also a tag of its own entry, in a namespace no tag can collide with.
const keyTag = (key: string): string => `\u0000${key}`;

/**
 * An LRU map with a TTL whose entries carry tags (`user:5`, `server:12`), so that a change to a row
 * drops every entry built from it.
 *
 * Fills are generation-checked. A reader takes a ticket (the current generation) before it reads the
 * database and stores with it; every invalidation bumps the generation and remembers it per tag. A
 * store whose key or tags were invalidated after the ticket was taken is refused: the read may have
 * seen the row before the change, and storing it would bring the old row back after the invalidation.
 */
export class TaggedCache<V> {
  private readonly entries = new Map<string, Entry<V>>();
  private readonly keysByTag = new Map<string, Set<string>>();
  /** The generation of each tag's latest invalidation, oldest first (bounded; see `remember`). */
  private readonly invalidatedAt = new Map<string, number>();
  private generation = 0;
  /** Tickets older than this are refused whatever their tags (after a clear, or a forgotten tag). */
  private floor = 0;
  private readonly now: () => number;
  private readonly maxRemembered: number;

  constructor(private readonly options: TaggedCacheOptions<V>) {
    this.now = options.now ?? (() => performance.now());
    this.maxRemembered = Math.max(1_000, options.max * 2);
  }

  get size(): number {
    return this.entries.size;
  }

  /** A copy of the cached value, or undefined on a miss (or while disabled). */
  get(key: string): V | undefined {
    if (!this.options.enabled()) {
      return undefined;
    }
    const entry = this.entries.get(key);
    if (!entry) {
      return undefined;
    }
    if (entry.expiresAt <= this.now()) {
      this.remove(key, entry);
      return undefined;
    }
    // Most recently used goes last.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return this.options.copy(entry.value);
  }

  /** Take one before reading what will be stored. */
  ticket(): FillTicket {
    return this.generation;
  }

  /**
   * Stores a copy of `value` under `key` unless the key or one of `tags` was invalidated since `ticket`
   * (or the cache is disabled). Returns whether it was stored.
   */
  set(key: string, value: V, tags: readonly string[], ticket: FillTicket): boolean {
    if (!this.options.enabled() || this.options.ttlMs <= 0 || ticket < this.floor) {
      return false;
    }
    if ((this.invalidatedAt.get(keyTag(key)) ?? 0) > ticket || tags.some((t) => (this.invalidatedAt.get(t) ?? 0) > ticket)) {
      return false;
    }
    const previous = this.entries.get(key);
    if (previous) {
      this.remove(key, previous);
    }
    this.entries.set(key, { value: (this.options.store ?? this.options.copy)(value), tags, expiresAt: this.now() + this.options.ttlMs });
    for (const tag of tags) {
      let keys = this.keysByTag.get(tag);
      if (!keys) {
        keys = new Set();
        this.keysByTag.set(tag, keys);
      }
      keys.add(key);
    }
    while (this.entries.size > this.options.max) {
      const [oldest, entry] = this.entries.entries().next().value as [string, Entry<V>];
      this.remove(oldest, entry);
    }
    return true;
  }

  /**
   * Reads through the cache: a copy of the cached value, else `load()` stored under `key` with the
   * tags `tagsOf` gives (a null result is stored only with `cacheNull`).
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
      // The row is gone: whatever is still stored under the key (a copy that looked expired) goes too.
      const stale = this.entries.get(key);
      if (stale) {
        this.remove(key, stale);
      }
    }
    return value;
  }

  /** Changes the stored value in place (bookkeeping the caller has just written itself); no-op on a miss. */
  patch(key: string, change: (stored: V) => void): void {
    const entry = this.entries.get(key);
    if (entry) {
      change(entry.value);
    }
  }

  /** Drops the entry under `key`, and refuses fills of it begun before now. */
  delete(key: string): void {
    this.invalidate(keyTag(key));
    const entry = this.entries.get(key);
    if (entry) {
      this.remove(key, entry);
    }
  }

  /** Drops every entry tagged `tag`, and refuses fills depending on it begun before now. */
  invalidateTag(tag: string): void {
    this.invalidate(tag);
    const keys = this.keysByTag.get(tag);
    if (!keys) {
      return;
    }
    for (const key of [...keys]) {
      const entry = this.entries.get(key);
      if (entry) {
        this.remove(key, entry);
      }
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

  private remove(key: string, entry: Entry<V>): void {
    this.entries.delete(key);
    for (const tag of entry.tags) {
      const keys = this.keysByTag.get(tag);
      keys?.delete(key);
      if (keys?.size === 0) {
        this.keysByTag.delete(tag);
      }
    }
  }
}
