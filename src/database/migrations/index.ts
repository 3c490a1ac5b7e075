import type { MixedList } from 'typeorm';
import { CreateUsersSessionsApiKeys1795315755628 } from 'src/database/migrations/1795315755628-CreateUsersSessionsApiKeys';
import { AddEggsNestsAuditLog1795317728241 } from 'src/database/migrations/1795317728241-AddEggsNestsAuditLog';
import { AddLocationsNodesAllocations1795319433215 } from 'src/database/migrations/1795319433215-AddLocationsNodesAllocations';
import { ExpandServers1795319827218 } from 'src/database/migrations/1795319827218-ExpandServers';
import { AddSchedules1795325500827 } from 'src/database/migrations/1795325500827-AddSchedules';

/** Every migration, in order. Add each generated migration here. */
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export const MIGRATIONS: MixedList<Function> = [CreateUsersSessionsApiKeys1795315755628, AddEggsNestsAuditLog1795317728241, AddLocationsNodesAllocations1795319433215, ExpandServers1795319827218, AddSchedules1795325500827];
