import { nodeIdsNamed, serverIdsAtAddress } from 'src/modules/nodes/nodes.sql';
import { userIdsNamed } from 'src/modules/users/users.sql';

/**
 * The ids of the servers a search (the ILIKE `pattern`) matches: by name, identifier, uuid or
 * description, by their node's name, their owner's username, or an allocation's address, alias or
 * `ip:port`. A union of branches that each an index answers (the trigram indexes of AddListIndexes
 * and AddNodeNameTrigramIndex, then the servers of the nodes and users found), where one condition
 * ORing them over joins read every server. Patterns shorter than three characters have no trigram and
 * are matched by scans: no index gives the same rows cheaper, since such a search matches most of the
 * panel (at 100,000 servers "7" matches 96 %, "77" 17 %, "ab" 11 %, every hex pair about a tenth of
 * the uuids) and its exact total must visit every match (docs/benchmarks.md, "second pass").
 */
export const searchMatchIds = (pattern: string): string => `SELECT ms.id FROM server ms
    WHERE ms.name ILIKE ${pattern} OR ms.identifier ILIKE ${pattern} OR ms.uuid::text ILIKE ${pattern} OR ms.description ILIKE ${pattern}
  UNION SELECT ms.id FROM server ms WHERE ms.node_id IN (${nodeIdsNamed(pattern)})
  UNION SELECT ms.id FROM server ms WHERE ms.owner_id IN (${userIdsNamed(pattern)})
  UNION ${serverIdsAtAddress(pattern)}`;

/** How many servers there are, on one node or on all (a bigint): the sum of the counts AddListIndexes' triggers keep per node. */
export const serverCount = (nodeId?: string): string => `SELECT COALESCE(SUM(c.servers), 0)::bigint AS total FROM server_totals c${nodeId ? ` WHERE c.node_id = ${nodeId}` : ''}`;

/**
 * The ids of one page of every server in id order (`take` and `skip` are bigint parameters), read from
 * the nearer end of the primary key: a page in the second half is the reverse of a page counted from the
 * end, so the last page costs what the first does. The rows come in no order: the caller orders them.
 */
export const everyServerIdsPage = (take: string, skip: string): string => {
  const total = `(${serverCount()})`;
  // The outer LIMIT tells the planner how few ids come, so their rows are then read by key.
  return `SELECT u.id FROM ((SELECT e.id FROM server e WHERE ${skip}::bigint <= ${total} / 2 ORDER BY e.id LIMIT ${take} OFFSET ${skip})
    UNION ALL (SELECT e.id FROM server e WHERE ${skip}::bigint > ${total} / 2 ORDER BY e.id DESC
      LIMIT GREATEST(LEAST(${take}::bigint, ${total} - ${skip}), 0) OFFSET GREATEST(${total} - ${skip} - ${take}, 0))) u LIMIT ${take}`;
};
