/**
 * Whose servers a search covers: every server, a user's own, those they own or are a subuser of
 * (`visible`), or every server but those (`others`, what an administrator sees of everyone else's).
 */
export type ServerSearchScope = { kind: 'all' } | { kind: 'owned' | 'visible' | 'others'; userId: string };

/**
 * Text each named column must contain (case-insensitively, wildcards taken literally), and `any`:
 * an `ip`, `ip:port` or `:port` of one of the server's allocations (the port as a prefix), else the
 * exact uuid, identifier or external id, the start of the uuid, or part of the name.
 */
export interface ServerSearchFilters {
  uuid?: string;
  name?: string;
  description?: string;
  externalId?: string;
  any?: string;
}
