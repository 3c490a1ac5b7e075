/*
 * Cached rows go in through `storeRow` and come out through `copyRow`, so that no caller ever holds
 * the stored object: a caller that changes what it was given (`key.lastUsedAt = now`) changes only
 * its copy. Entities (class instances, as TypeORM loads them) are copied every time; plain JSON
 * values (jsonb columns, string arrays: an egg's config files and startup detection, a key's
 * permissions) are frozen once when stored, and they and dates are shared by every copy, since
 * walking them made the copy of a server with its egg the costliest step of a warm request.
 * Changing a shared JSON value in place throws a TypeError instead of changing the cache.
 */

const isPlain = (value: object): boolean => {
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null || Array.isArray(value);
};

/** The stored form of a loaded row: a deep copy (dates included) whose plain JSON parts are frozen. */
export const storeRow = <T>(value: T): T => {
  if (value === null || typeof value !== 'object') {
    return value;
  }
  if (value instanceof Date) {
    return new Date(value.getTime()) as T;
  }
  if (Array.isArray(value)) {
    const items = value.map((item: unknown) => storeRow(item));
    return (items.every(isShared) ? Object.freeze(items) : items) as T;
  }
  const source = value as Record<string, unknown>;
  const copy = Object.create(Object.getPrototypeOf(value) as object | null) as Record<string, unknown>;
  for (const key of Object.keys(source)) {
    copy[key] = storeRow(source[key]);
  }
  return (isPlain(copy) && Object.values(copy).every(isShared) ? Object.freeze(copy) : copy) as T;
};

/**
 * Primitives, plain JSON values frozen by storeRow, and dates (never changed in place in this
 * codebase: the lint forbids Date's setters) can be handed out as they are.
 */
const isShared = (value: unknown): boolean => value === null || typeof value !== 'object' || value instanceof Date || Object.isFrozen(value);

/** A caller's copy of a stored row: entities copied (relations too), frozen JSON and dates shared. */
export const copyRow = <T>(value: T): T => {
  if (isShared(value)) {
    return value;
  }
  if (Array.isArray(value)) {
    return value.map((item: unknown) => copyRow(item)) as T;
  }
  const copy: Record<string, unknown> = Object.assign(Object.create(Object.getPrototypeOf(value) as object | null) as Record<string, unknown>, value);
  for (const key of Object.keys(copy)) {
    if (!isShared(copy[key])) {
      copy[key] = copyRow(copy[key]);
    }
  }
  return copy as T;
};

const deepFreeze = <T>(value: T): T => {
  if (value !== null && typeof value === 'object' && !(value instanceof Date) && !Object.isFrozen(value)) {
    for (const key of Object.keys(value)) {
      deepFreeze((value as Record<string, unknown>)[key]);
    }
    Object.freeze(value);
  }
  return value;
};

/**
 * For rows every request reads and no caller changes (a server with its node, egg and owner; its
 * allocations; subuser grants): stored once with every object frozen and handed out as they are.
 * Copying them cost more than the rest of a warm request (V8 keeps such wide, dynamically built
 * objects in dictionary mode, where each copy walks a hash table). A caller changing one throws a
 * TypeError instead of changing the cache; the tests run every route against warm caches.
 */
export const freezeRow = <T>(value: T): T => deepFreeze(storeRow(value));

export const shareRow = <T>(value: T): T => value;
