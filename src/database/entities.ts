import { ApiKeyEntity } from 'src/modules/api-keys/api-key.entity';
import { AuditLogEntity } from 'src/modules/audit/audit-log.entity';
import { BackupEntity } from 'src/modules/backups/backup.entity';
import { BackupHostEntity } from 'src/modules/backups/backup-host.entity';
import { DatabaseHostEntity } from 'src/modules/databases/database-host.entity';
import { ServerDatabaseEntity } from 'src/modules/databases/server-database.entity';
import { EggVariableEntity } from 'src/modules/eggs/egg-variable.entity';
import { EggEntity } from 'src/modules/eggs/egg.entity';
import { NestEntity } from 'src/modules/eggs/nest.entity';
import { AllocationEntity } from 'src/modules/nodes/allocation.entity';
import { LocationEntity } from 'src/modules/nodes/location.entity';
import { NodeEntity } from 'src/modules/nodes/node.entity';
import { ScheduleTaskEntity } from 'src/modules/schedules/schedule-task.entity';
import { ScheduleEntity } from 'src/modules/schedules/schedule.entity';
import { ServerActivityEntity } from 'src/modules/servers/server-activity.entity';
import { ServerVariableEntity } from 'src/modules/servers/server-variable.entity';
import { ServerEntity } from 'src/modules/servers/server.entity';
import { SubuserEntity } from 'src/modules/servers/subusers/subuser.entity';
import { SshKeyEntity } from 'src/modules/ssh-keys/ssh-key.entity';
import { PasswordResetTokenEntity } from 'src/modules/password-reset/password-reset-token.entity';
import { RecoveryCodeEntity } from 'src/modules/two-factor/recovery-code.entity';
import { UserTwoFactorEntity } from 'src/modules/two-factor/user-two-factor.entity';
import { TwoFactorChallengeEntity } from 'src/modules/two-factor/two-factor-challenge.entity';
import { SessionEntity } from 'src/modules/sessions/session.entity';
import { UserEntity } from 'src/modules/users/user.entity';
import { PterodactylKeyEntity } from 'src/modules/pterodactyl/keys/pterodactyl-key.entity';

/** Every entity, registered once for the app, the TypeORM CLI and the tests. */
export const ENTITIES = [UserEntity, SessionEntity, ApiKeyEntity, AuditLogEntity, NestEntity, EggEntity, EggVariableEntity, LocationEntity, NodeEntity, AllocationEntity, ServerEntity, ServerVariableEntity, ServerActivityEntity, SubuserEntity, SshKeyEntity, DatabaseHostEntity, ServerDatabaseEntity, ScheduleEntity, ScheduleTaskEntity, BackupEntity, BackupHostEntity, UserTwoFactorEntity, RecoveryCodeEntity, PasswordResetTokenEntity, TwoFactorChallengeEntity, PterodactylKeyEntity];
