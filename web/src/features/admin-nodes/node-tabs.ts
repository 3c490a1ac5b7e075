/** The tabs of a node's page, as `?tab=` names them (kept apart from the page, so the route's search check does not load it). */
export const NODE_TABS = ['settings', 'configuration', 'allocations', 'servers', 'usage'] as const;
export type NodeTab = (typeof NODE_TABS)[number];
