/** The caches of HotCaches, by what they hold. */
export type CacheKind = 'apiKeys' | 'pterodactylKeys' | 'sessions' | 'servers' | 'allocations' | 'grants' | 'configs' | 'daemonNodes';

/**
 * A write to a table, as the TypeORM subscriber sees it (op, and the values when it has them) or as
 * the change feed hears it (table and id only: op `unknown`). `id` is undefined when the writer did
 * not name rows (a QueryBuilder update or delete), or for a TRUNCATE.
 */
export interface RowChange {
  table: string;
  op: 'insert' | 'update' | 'remove' | 'unknown';
  id?: string;
  /** The row before the write, when known (save() and remove() load it). */
  before?: Record<string, unknown>;
  /** The written values: a whole entity, or only the columns a QueryBuilder update sets. */
  after?: Record<string, unknown>;
  /** The properties the update changed, when known. */
  changed?: readonly string[];
}

/** What a change drops: entries tagged so, and whole caches when the rows are unknown. */
interface Invalidation {
  tags: string[];
  clear: CacheKind[];
}

/**
 * Tables only servers' Wings configurations are built from (a server's variable values, its egg's
 * variables, its node's location, mounts and their links to nodes and servers). They change seldom
 * and are not cached row by row: any write to one drops every cached configuration.
 */
const CONFIGURATION_TABLES = ['egg_variable', 'server_variable', 'location', 'mount', 'mount_node', 'mount_server'] as const;
const CONFIGURATION_ONLY: ReadonlySet<string> = new Set(CONFIGURATION_TABLES);

/**
 * Small tables each process holds whole in memory, reloaded on any change (HotCaches.onChange); no
 * cache entry is built from them. Their migrations' triggers notify by statement.
 */
const WHOLE_TABLES = ['panel_setting', 'admin_role'] as const;

/**
 * The tables whose rows the caches are built from. The AddChangeNotifications migration's trigger
 * watches the first eight, row by row, and AddPterodactylKeyChangeNotifications the ninth;
 * AddConfigurationChangeNotifications the configuration tables, by statement; AddPanelSettings and
 * AddAdminRoles the settings and roles.
 */
export const WATCHED_TABLES = ['user', 'api_key', 'session', 'server', 'node', 'egg', 'allocation', 'subuser', 'pterodactyl_api_key', ...CONFIGURATION_TABLES, ...WHOLE_TABLES] as const;

/**
 * Columns that only record use: the auth path writes them (and patches its cached copy itself), and
 * a stale value in a cached copy is harmless, so a write of only these invalidates nothing. A session
 * refresh moves `expiresAt` later together with `refreshedAt`; moving it any other way is a change.
 * The migration's trigger has the same list in column names.
 */
const BOOKKEEPING: Record<string, readonly string[]> = {
  api_key: ['lastUsedAt'],
  pterodactyl_api_key: ['lastUsedAt'],
  session: ['lastSeenAt', 'refreshedAt', 'expiresAt'],
  // A daemon's call marks its node seen (and, the first time, contacted): DaemonNodes patches its
  // cached copy, and nothing else cached reads either column.
  node: ['lastSeenAt', 'daemonContactedAt'],
};

const asTime = (value: unknown): number | undefined => (value instanceof Date ? value.getTime() : undefined);

export const isBookkeeping = (change: RowChange): boolean => {
  const columns = BOOKKEEPING[change.table];
  if (change.op !== 'update' || !columns || !change.changed || change.changed.length === 0) {
    return false;
  }
  if (!change.changed.every((c) => columns.includes(c))) {
    return false;
  }
  if (change.table === 'session' && change.changed.includes('expiresAt')) {
    // A refresh: expiresAt and refreshedAt written together, the expiry later than the refresh.
    const expiresAt = asTime(change.after?.expiresAt);
    const refreshedAt = asTime(change.after?.refreshedAt);
    const before = asTime(change.before?.expiresAt);
    return expiresAt !== undefined && refreshedAt !== undefined && expiresAt > refreshedAt && (before === undefined || expiresAt >= before);
  }
  return true;
};

/** A row id (or foreign key) as text, whatever type the driver gave it; undefined when it is not one. */
export const idText = (value: unknown): string | undefined =>
  typeof value === 'string' || typeof value === 'number' || typeof value === 'bigint' ? String(value) : undefined;

/**
 * What a change drops. Every cached value is tagged with the rows it was built from:
 * - an API key, Pterodactyl key or session: `api_key:<id>` / `pterodactyl_api_key:<id>` /
 *   `session:<id>`, and `user:<id>` of its owner;
 * - a node by its daemon token identifier: `node:<id>`;
 * - a server (by uuid and by identifier): `server:<id>`, `user:<owner>`, `node:<id>`, `egg:<id>`;
 * - a server's allocations: `server:<id>`, `allocations:<server id>`, `allocation:<id>` of each;
 * - a subuser grant, or its absence: `grant:<server>:<user>`, `server:<id>`, `user:<id>`;
 * - a server's Wings configuration: `server:<id>`, `node:<id>`, `egg:<id>`, `allocations:<server id>`
 *   and `allocation:<id>` of each (the tables of CONFIGURATION_TABLES clear them all).
 * A change to a known row drops its tag; a change to unknown rows clears every cache that could
 * hold one of them (for a removal, also those that its cascades reach).
 */
export const invalidationFor = (change: RowChange): Invalidation => {
  if (isBookkeeping(change)) {
    return { tags: [], clear: [] };
  }
  const { table, id, op } = change;
  const removal = op === 'remove' || op === 'unknown';
  switch (table) {
    case 'user':
      // Deleting a user cascades to its keys, sessions and subuser grants.
      return id !== undefined
        ? { tags: [`user:${id}`], clear: [] }
        : { tags: [], clear: op === 'insert' ? [] : ['apiKeys', 'pterodactylKeys', 'sessions', 'servers', ...(removal ? (['grants'] as const) : [])] };
    case 'api_key':
      return id !== undefined ? { tags: [`api_key:${id}`], clear: [] } : { tags: [], clear: op === 'insert' ? [] : ['apiKeys'] };
    case 'pterodactyl_api_key':
      return id !== undefined ? { tags: [`pterodactyl_api_key:${id}`], clear: [] } : { tags: [], clear: op === 'insert' ? [] : ['pterodactylKeys'] };
    case 'session':
      return id !== undefined ? { tags: [`session:${id}`], clear: [] } : { tags: [], clear: op === 'insert' ? [] : ['sessions'] };
    case 'server':
      // Deleting a server frees its allocations and cascades to its subusers.
      return id !== undefined
        ? { tags: [`server:${id}`], clear: [] }
        : { tags: [], clear: op === 'insert' ? [] : ['servers', 'configs', ...(removal ? (['allocations', 'grants'] as const) : [])] };
    case 'node':
      return id !== undefined
        ? { tags: [`node:${id}`], clear: [] }
        : { tags: [], clear: op === 'insert' ? [] : ['servers', 'configs', 'daemonNodes', ...(removal ? (['allocations'] as const) : [])] };
    case 'egg':
      return id !== undefined ? { tags: [`egg:${id}`], clear: [] } : { tags: [], clear: op === 'insert' ? [] : ['servers', 'configs'] };
    case 'allocation':
      return allocationInvalidation(change);
    case 'subuser':
      return subuserInvalidation(change);
    default:
      return CONFIGURATION_ONLY.has(table) ? { tags: [], clear: ['configs'] } : { tags: [], clear: [] };
  }
};

/** An allocation moves between servers' lists: both the old and the new server's lists must go. */
const allocationInvalidation = ({ id, op, before, after }: RowChange): Invalidation => {
  const servers = [idText(before?.serverId), idText(after?.serverId)].filter((s): s is string => s !== undefined);
  const knowsServers = before !== undefined && after !== undefined && 'serverId' in after;
  if (id !== undefined && (knowsServers || op === 'remove')) {
    // Its old list holds it (allocation:<id>); its new list is tagged by server.
    return { tags: [`allocation:${id}`, ...servers.map((s) => `allocations:${s}`)], clear: [] };
  }
  if (op === 'insert' && after !== undefined) {
    return { tags: servers.map((s) => `allocations:${s}`), clear: [] };
  }
  return { tags: [], clear: ['allocations', 'configs'] };
};

/** A grant is cached by (server, user), its absence too: a new row must drop the cached "no grant". */
const subuserInvalidation = ({ before, after }: RowChange): Invalidation => {
  const pairs = [before, after].flatMap((row) => {
    const server = idText(row?.serverId);
    const user = idText(row?.userId);
    return server !== undefined && user !== undefined ? [`grant:${server}:${user}`] : [];
  });
  const known = after !== undefined && idText(after.serverId) !== undefined && idText(after.userId) !== undefined;
  return known ? { tags: [...new Set(pairs)], clear: [] } : { tags: [], clear: ['grants'] };
};
