import { TaggedCache, TaggedCacheOptions } from 'src/common/hot-cache/tagged-cache';

/** What the caches hold: plain snapshots, dates as numbers. */
interface Row {
  readonly id: string;
  readonly name: string;
  readonly at: number;
  readonly owner: { readonly id: string; readonly admin: boolean };
  readonly permissions: readonly string[];
}

const row = (name: string): Row => ({ id: '1', name, at: 0, owner: { id: '7', admin: true }, permissions: ['a'] });

/** A promise the test resolves when it wants the "database" to answer. */
const deferred = <T>() => {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
};

describe(TaggedCache.name, () => {
  let now: number;
  let enabled: boolean;
  const make = (options: Partial<TaggedCacheOptions> = {}) =>
    new TaggedCache<Row | null>({ max: 100, ttlMs: 60_000, enabled: () => enabled, now: () => now, ...options });

  beforeEach(() => {
    now = 1_000;
    enabled = true;
  });

  it('should serve a stored value until its tag is invalidated', () => {
    const sut = make();
    expect(sut.set('k', row('a'), ['user:7'], sut.ticket())).toBe(true);
    expect(sut.get('k')).toEqual(row('a'));
    sut.invalidateTag('user:8');
    expect(sut.get('k')).toEqual(row('a'));
    sut.invalidateTag('user:7');
    expect(sut.get('k')).toBeUndefined();
  });

  it('should refuse a fill that read the database before an invalidation of its tag (the race)', async () => {
    const sut = make();
    const database = deferred<Row>();
    // A request misses and starts reading the server row...
    const fill = sut.getOrLoad('k', () => database.promise, () => ['server:1']);
    // ...meanwhile another request changes that row and invalidates, before the first read returns...
    sut.invalidateTag('server:1');
    // ...and the first read returns what it saw before the change.
    database.resolve(row('before the change'));
    await expect(fill).resolves.toEqual(row('before the change'));
    expect(sut.get('k')).toBeUndefined();
    // The next read stores what it reads.
    await sut.getOrLoad('k', () => Promise.resolve(row('after the change')), () => ['server:1']);
    expect(sut.get('k')).toEqual(row('after the change'));
  });

  it('should refuse a fill begun before a key delete or a clear, and keep one begun after', () => {
    const sut = make();
    const beforeDelete = sut.ticket();
    sut.delete('k');
    expect(sut.set('k', row('old'), [], beforeDelete)).toBe(false);
    const beforeClear = sut.ticket();
    sut.clear();
    expect(sut.set('k', row('old'), [], beforeClear)).toBe(false);
    expect(sut.set('k', row('new'), [], sut.ticket())).toBe(true);
    // An invalidation of an unrelated tag does not refuse a fill.
    const ticket = sut.ticket();
    sut.invalidateTag('user:99');
    expect(sut.set('other', row('x'), ['user:7'], ticket)).toBe(true);
  });

  it('should still refuse a stale fill after the invalidated tag was forgotten (bounded memory)', () => {
    const sut = make({ max: 1 });
    const ticket = sut.ticket();
    sut.invalidateTag('server:1');
    for (let i = 0; i < 5_000; i += 1) {
      sut.invalidateTag(`other:${i}`);
    }
    expect(sut.set('k', row('stale'), ['server:1'], ticket)).toBe(false);
    expect(sut.set('k', row('fresh'), ['server:1'], sut.ticket())).toBe(true);
  });

  it('should hand every reader the stored snapshot itself, not a copy', async () => {
    const sut = make();
    const loaded = row('a');
    expect(await sut.getOrLoad('k', () => Promise.resolve(loaded), () => [])).toBe(loaded);
    expect(sut.get('k')).toBe(loaded);
  });

  it('should let bookkeeping replace the stored value, keeping its tags', () => {
    const sut = make();
    sut.set('k', row('a'), ['user:7'], sut.ticket());
    sut.patch('k', (stored) => ({ ...stored!, at: 60_000 }));
    sut.patch('missing', () => {
      throw new Error('not called on a miss');
    });
    expect(sut.get('k')!.at).toBe(60_000);
    // Still under its tags.
    sut.invalidateTag('user:7');
    expect(sut.get('k')).toBeUndefined();
  });

  it('should cache a null result only when asked, with its own tags', async () => {
    const sut = make();
    const load = jest.fn(() => Promise.resolve(null));
    await sut.getOrLoad('none', load, () => []);
    await sut.getOrLoad('none', load, () => []);
    expect(load).toHaveBeenCalledTimes(2);
    await sut.getOrLoad('grant', load, () => [], { cacheNull: true, nullTags: ['grant:1:2'] });
    await sut.getOrLoad('grant', load, () => [], { cacheNull: true, nullTags: ['grant:1:2'] });
    expect(load).toHaveBeenCalledTimes(3);
    sut.invalidateTag('grant:1:2');
    await sut.getOrLoad('grant', load, () => [], { cacheNull: true, nullTags: ['grant:1:2'] });
    expect(load).toHaveBeenCalledTimes(4);
  });

  it('should drop what is stored under a key when a reload finds the row gone', async () => {
    const sut = make();
    sut.set('k', row('a'), [], sut.ticket());
    await sut.load('k', () => Promise.resolve(null), () => []);
    expect(sut.get('k')).toBeUndefined();
  });

  it('should expire entries after the TTL', () => {
    const sut = make({ ttlMs: 60_000 });
    sut.set('k', row('a'), [], sut.ticket());
    now += 59_999;
    expect(sut.get('k')).toBeDefined();
    now += 1;
    expect(sut.get('k')).toBeUndefined();
  });

  it('should store nothing with a TTL of 0', () => {
    const sut = make({ ttlMs: 0 });
    expect(sut.set('k', row('a'), [], sut.ticket())).toBe(false);
    expect(sut.get('k')).toBeUndefined();
  });

  it('should evict the least recently used entry beyond max, and untag it', () => {
    const sut = make({ max: 2 });
    sut.set('a', row('a'), ['t:a'], sut.ticket());
    sut.set('b', row('b'), ['t:b'], sut.ticket());
    sut.get('a');
    sut.set('c', row('c'), ['t:c'], sut.ticket());
    expect([sut.get('a')?.name, sut.get('b')?.name, sut.get('c')?.name]).toEqual(['a', undefined, 'c']);
    expect(sut.size).toBe(2);
  });

  it('should neither serve nor store while disabled', async () => {
    const sut = make();
    sut.set('k', row('a'), [], sut.ticket());
    enabled = false;
    expect(sut.get('k')).toBeUndefined();
    const load = jest.fn(() => Promise.resolve(row('b')));
    await sut.getOrLoad('k', load, () => []);
    expect(load).toHaveBeenCalledTimes(1);
    enabled = true;
    expect(sut.get('k')?.name).toBe('a');
  });
});
