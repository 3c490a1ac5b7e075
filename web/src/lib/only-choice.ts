/**
 * The one thing a form can choose when there is exactly one, to preselect it (the only location of a new
 * node, the only nest or egg in the server wizard); undefined while loading or when there is a choice.
 */
export const onlyChoice = <T>(items: readonly T[] | undefined): T | undefined => (items?.length === 1 ? items[0] : undefined);
