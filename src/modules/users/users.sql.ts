/**
 * SQL on the users module's table (`user`) for the one-statement list queries of another module (see
 * src/modules/nodes/nodes.sql.ts for why): the users module still writes every word about its table.
 */

/** Whether the user `userId` names has a username matching the ILIKE `pattern`. */
export const usernameMatches = (userId: string, pattern: string): string => `EXISTS (SELECT 1 FROM "user" so WHERE so.id = ${userId} AND so.username ILIKE ${pattern})`;

/** The ids of the users whose username matches the ILIKE `pattern`. */
export const userIdsNamed = (pattern: string): string => `SELECT so.id FROM "user" so WHERE so.username ILIKE ${pattern}`;

/** The user's username beside each row (a derived table holding the id `userId` names): the join, and the column as `owner_username`. */
export const joinOwnerUsername = (userId: string): { join: string; columns: string } => ({
  join: `JOIN "user" o ON o.id = ${userId}`,
  columns: 'o.username AS owner_username',
});
