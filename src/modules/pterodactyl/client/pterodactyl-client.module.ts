import { Module } from '@nestjs/common';
import { AccountModule } from 'src/modules/account/account.module';
import { AuditModule } from 'src/modules/audit/audit.module';
import { BackupsModule } from 'src/modules/backups/backups.module';
import { DatabasesModule } from 'src/modules/databases/databases.module';
import { FilesModule } from 'src/modules/files/files.module';
import { NodesModule } from 'src/modules/nodes/nodes.module';
import { PterodactylClientBackupsSchedulesController } from 'src/modules/pterodactyl/client/client-backups-schedules.controller';
import { PterodactylClientFilesController } from 'src/modules/pterodactyl/client/client-files.controller';
import { PterodactylClientAccountController } from 'src/modules/pterodactyl/client/client-account.controller';
import { PterodactylClientAccountSecurityController } from 'src/modules/pterodactyl/client/client-account-security.controller';
import { PterodactylClientAuthGuard } from 'src/modules/pterodactyl/client/client-access';
import { PterodactylClientServerListService } from 'src/modules/pterodactyl/client/client-server-list.service';
import { PterodactylServerPresenter } from 'src/modules/pterodactyl/client/client-server-presenter';
import { PterodactylClientServerDatabasesNetworkController } from 'src/modules/pterodactyl/client/client-server-databases-network.controller';
import { PterodactylClientServerSettingsController } from 'src/modules/pterodactyl/client/client-server-settings.controller';
import { PterodactylClientServersController } from 'src/modules/pterodactyl/client/client-servers.controller';
import { SchedulesModule } from 'src/modules/schedules/schedules.module';
import { ServersModule } from 'src/modules/servers/servers.module';
import { SshKeysModule } from 'src/modules/ssh-keys/ssh-keys.module';
import { TwoFactorModule } from 'src/modules/two-factor/two-factor.module';

/** The Pterodactyl client API (`/pterodactyl/api/client/**`, docs/pterodactyl-compat.md#client-api), over Hatchery's own services. */
@Module({
  imports: [ServersModule, NodesModule, FilesModule, BackupsModule, SchedulesModule, DatabasesModule, SshKeysModule, AccountModule, TwoFactorModule, AuditModule],
  controllers: [
    PterodactylClientAccountController, PterodactylClientAccountSecurityController, PterodactylClientServersController, PterodactylClientFilesController, PterodactylClientBackupsSchedulesController,
    PterodactylClientServerDatabasesNetworkController, PterodactylClientServerSettingsController,
  ],
  providers: [PterodactylClientAuthGuard, PterodactylClientServerListService, PterodactylServerPresenter],
})
export class PterodactylClientModule {}
