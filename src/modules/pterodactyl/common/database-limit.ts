import { NO_DATABASES } from 'src/modules/servers/feature-limits';

/**
 * `feature_limits.databases` as Pterodactyl means it: null is unlimited and 0 is none
 * (DatabaseManagementService refuses when the limit is not null and the count has reached it).
 * Hatchery's limit is 0 for unlimited and NO_DATABASES for none.
 */
export const toPterodactylDatabaseLimit = (ours: number): number | null => (ours === 0 ? null : ours === NO_DATABASES ? 0 : ours);

export const fromPterodactylDatabaseLimit = (theirs: number | null): number => (theirs === null ? 0 : theirs === 0 ? NO_DATABASES : theirs);
