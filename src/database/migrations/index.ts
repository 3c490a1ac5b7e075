import type { MixedList } from 'typeorm';
import { CreateUsersSessionsApiKeys1795315755628 } from 'src/database/migrations/1795315755628-CreateUsersSessionsApiKeys';
import { AddEggsNestsAuditLog1795317728241 } from 'src/database/migrations/1795317728241-AddEggsNestsAuditLog';
import { AddLocationsNodesAllocations1795319433215 } from 'src/database/migrations/1795319433215-AddLocationsNodesAllocations';
import { ExpandServers1795319827218 } from 'src/database/migrations/1795319827218-ExpandServers';
import { AddSubusers1795325211659 } from 'src/database/migrations/1795325211659-AddSubusers';
import { AddSchedules1795325500827 } from 'src/database/migrations/1795325500827-AddSchedules';
import { AddDatabaseHosts1795325589072 } from 'src/database/migrations/1795325589072-AddDatabaseHosts';
import { AddSshKeys1795326159280 } from 'src/database/migrations/1795326159280-AddSshKeys';
import { AddBackups1795327366808 } from 'src/database/migrations/1795327366808-AddBackups';
import { AddTwoFactorAndPasswordResets1795327621174 } from 'src/database/migrations/1795327621174-AddTwoFactorAndPasswordResets';
import { AddChangeNotifications1795336765267 } from 'src/database/migrations/1795336765267-AddChangeNotifications';
import { AddEggForceOutgoingIp1795420145602 } from 'src/database/migrations/1795420145602-AddEggForceOutgoingIp';
import { AddTwoFactorChallenges1795534712689 } from 'src/database/migrations/1795534712689-AddTwoFactorChallenges';
import { AddUserSuspended1795556895760 } from 'src/database/migrations/1795556895760-AddUserSuspended';
import { AddPterodactylApiKeys1795556975889 } from 'src/database/migrations/1795556975889-AddPterodactylApiKeys';
import { AddExternalIds1795557281824 } from 'src/database/migrations/1795557281824-AddExternalIds';
import { AddIntegerIdsToNestsEggsVariables1795559118375 } from 'src/database/migrations/1795559118375-AddIntegerIdsToNestsEggsVariables';
import { AddNodeDaemonContactedAt1795783510512 } from 'src/database/migrations/1795783510512-AddNodeDaemonContactedAt';
import { AddUserInvitedAndLastSignIn1795784174896 } from 'src/database/migrations/1795784174896-AddUserInvitedAndLastSignIn';
import { AlterRecoveryCodeHashToVarchar1795828478256 } from 'src/database/migrations/1795828478256-AlterRecoveryCodeHashToVarchar';
import { AddUserLanguage1795828933876 } from 'src/database/migrations/1795828933876-AddUserLanguage';
import { AddMounts1795839722574 } from 'src/database/migrations/1795839722574-AddMounts';
import { AddBackupHosts1795839742992 } from 'src/database/migrations/1795839742992-AddBackupHosts';
import { AddServerTransfers1795839764456 } from 'src/database/migrations/1795839764456-AddServerTransfers';
import { AddLogCursorsAndCounts1795852714964 } from 'src/database/migrations/1795852714964-AddLogCursorsAndCounts';
import { AddListIndexes1795853487031 } from 'src/database/migrations/1795853487031-AddListIndexes';
import { AddConfigurationChangeNotifications1795900000000 } from 'src/database/migrations/1795900000000-AddConfigurationChangeNotifications';
import { AddNodeNameTrigramIndex1795910000000 } from 'src/database/migrations/1795910000000-AddNodeNameTrigramIndex';
import { AddPterodactylKeyChangeNotifications1795920000000 } from 'src/database/migrations/1795920000000-AddPterodactylKeyChangeNotifications';
import { AddUsageHistory1795950000000 } from 'src/database/migrations/1795950000000-AddUsageHistory';
import { AddWebhooks1795960000000 } from 'src/database/migrations/1795960000000-AddWebhooks';
import { AddAuthProviders1795970000000 } from 'src/database/migrations/1795970000000-AddAuthProviders';
import { AddPanelSettings1795990000000 } from 'src/database/migrations/1795990000000-AddPanelSettings';

/** Every migration, in order. Add each generated migration here. */
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export const MIGRATIONS: MixedList<Function> = [CreateUsersSessionsApiKeys1795315755628, AddEggsNestsAuditLog1795317728241, AddLocationsNodesAllocations1795319433215, ExpandServers1795319827218, AddSubusers1795325211659, AddSchedules1795325500827, AddDatabaseHosts1795325589072, AddSshKeys1795326159280, AddBackups1795327366808, AddTwoFactorAndPasswordResets1795327621174, AddChangeNotifications1795336765267, AddEggForceOutgoingIp1795420145602, AddTwoFactorChallenges1795534712689, AddUserSuspended1795556895760, AddPterodactylApiKeys1795556975889, AddExternalIds1795557281824, AddIntegerIdsToNestsEggsVariables1795559118375, AddNodeDaemonContactedAt1795783510512, AddUserInvitedAndLastSignIn1795784174896, AlterRecoveryCodeHashToVarchar1795828478256, AddUserLanguage1795828933876, AddMounts1795839722574, AddBackupHosts1795839742992, AddServerTransfers1795839764456, AddLogCursorsAndCounts1795852714964, AddListIndexes1795853487031, AddConfigurationChangeNotifications1795900000000, AddNodeNameTrigramIndex1795910000000, AddPterodactylKeyChangeNotifications1795920000000, AddUsageHistory1795950000000, AddWebhooks1795960000000, AddAuthProviders1795970000000, AddPanelSettings1795990000000];
