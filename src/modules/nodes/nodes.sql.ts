/**
 * SQL on the nodes module's tables (`node`, `allocation`) for the one-statement queries of another
 * module: list pages that show a server's node and addresses, searches that match them, the nodes a
 * server can be deployed to. A module reads another's rows through its service, but a page that needed
 * a second round trip per filter could not be cut in SQL; here the nodes module still writes every
 * word about its tables, so a change to them stays in this module (src/modules/module-boundaries.spec.ts).
 *
 * Each fragment is correlated with the caller's query through the SQL expressions it is given (the
 * outer row's node or server id) and takes its values as the caller's bound parameters (`$n`).
 */

/** Whether the node `nodeId` names has a name matching the ILIKE `pattern`. */
export const nodeNameMatches = (nodeId: string, pattern: string): string => `EXISTS (SELECT 1 FROM node sn WHERE sn.id = ${nodeId} AND sn.name ILIKE ${pattern})`;

/** The ids of the nodes whose name matches the ILIKE `pattern`. */
export const nodeIdsNamed = (pattern: string): string => `SELECT sn.id FROM node sn WHERE sn.name ILIKE ${pattern}`;

/**
 * An allocation's address as `ip:port`, the expression its trigram index holds (AddListIndexes). A
 * pattern that matches the ip alone matches it too, so one condition covers both.
 */
const ADDRESS = (a: string): string => `(${a}.ip || ':' || ${a}.port::text)`;

/** Whether one of the server's allocations matches the ILIKE `pattern` by address, alias or `ip:port`. */
export const allocationMatches = (serverId: string, pattern: string): string =>
  `EXISTS (SELECT 1 FROM allocation sa WHERE sa.server_id = ${serverId} AND (${ADDRESS('sa')} ILIKE ${pattern} OR sa.alias ILIKE ${pattern}))`;

/** The ids of the servers with an allocation matching the ILIKE `pattern` by address, alias or `ip:port`, through the allocation's trigram indexes. */
export const serverIdsAtAddress = (pattern: string): string =>
  `SELECT sa.server_id FROM allocation sa WHERE sa.server_id IS NOT NULL AND (${ADDRESS('sa')} ILIKE ${pattern} OR sa.alias ILIKE ${pattern})`;

/**
 * Whether one of the server's allocations is on address `ip` (when given) with a port starting as the
 * LIKE `portPrefix` (when given); `ip` must hold no LIKE wildcard (an IPv4 address). The address
 * pattern it adds (`ip:port…`) follows from the two conditions, and lets the trigram index find them.
 */
export const allocationAt = (serverId: string, ip: string | null, portPrefix: string | null): string =>
  `EXISTS (SELECT 1 FROM allocation a WHERE a.server_id = ${serverId} AND ${ip ? `a.ip = ${ip}` : 'TRUE'} AND ${portPrefix ? `a.port::text LIKE ${portPrefix}` : 'TRUE'}
    AND ${ADDRESS('a')} LIKE ${ip ?? `'%'`} || ':' || ${portPrefix ?? `'%'`})`;

/** The node's name beside each row of `rows` (a derived table holding `node_id`): the join, and the column as `node_name`. */
export const joinNodeName = (nodeId: string): { join: string; columns: string } => ({
  join: `JOIN node n ON n.id = ${nodeId}`,
  columns: 'n.name AS node_name',
});

/**
 * A row per allocation of the server (or one with nulls when it has none): the join, its columns as
 * `a_id`, `a_ip`, `a_alias`, `a_port`, `a_notes`, and the order of a server's allocations (by address).
 */
export const joinServerAllocations = (serverId: string): { join: string; columns: string; order: string } => ({
  join: `LEFT JOIN allocation a ON a.server_id = ${serverId}`,
  columns: 'a.id AS a_id, a.ip AS a_ip, a.alias AS a_alias, a.port AS a_port, a.notes AS a_notes',
  order: 'a.ip, a.port',
});

/**
 * The ids of public nodes (in the locations of the bigint[] `locations`, when given) with room for
 * `memory` and `disk` more MiB within their overallocation (-1: no limit). `given` is the caller's query of
 * what the servers on the node `nodeId` names are given, in one row: `memory`, `disk` (MiB, null for none);
 * it runs for the candidate nodes only, as the caller's per-node index finds their servers.
 */
export const deployableNodeIds = (given: (nodeId: string) => string, p: { memory: string; disk: string; locations?: string }): string => {
  const fits = (column: 'memory' | 'disk', param: string): string =>
    `(n.${column}_overallocate = -1 OR COALESCE(g.${column}, 0) + ${param} <= n.${column} * (1 + n.${column}_overallocate / 100.0))`;
  return `SELECT n.id FROM node n CROSS JOIN LATERAL (${given('n.id')}) g
    WHERE n.public = true ${p.locations ? `AND n.location_id = ANY(${p.locations}::bigint[])` : ''}
    AND ${fits('memory', p.memory)} AND ${fits('disk', p.disk)}`;
};
