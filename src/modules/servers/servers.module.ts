import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditModule } from 'src/modules/audit/audit.module';
import { EggsModule } from 'src/modules/eggs/eggs.module';
import { MailModule } from 'src/modules/mail/mail.module';
import { MountsModule } from 'src/modules/mounts/mounts.module';
import { AdminServerMountsController, ClientServerMountsController } from 'src/modules/servers/server-mounts.controller';
import { ServerMountsService } from 'src/modules/servers/server-mounts.service';
import { NodesModule } from 'src/modules/nodes/nodes.module';
import { AdminServerChangesService } from 'src/modules/servers/admin-server-changes.service';
import { AdminServersController } from 'src/modules/servers/admin-servers.controller';
import { AdminServersService } from 'src/modules/servers/admin-servers.service';
import { ClientServerSettingsController } from 'src/modules/servers/client-server-settings.controller';
import { ClientServerSettingsService } from 'src/modules/servers/client-server-settings.service';
import { ClientServersController } from 'src/modules/servers/client-servers.controller';
import { ClientServersService } from 'src/modules/servers/client-servers.service';
import { RemoteController } from 'src/modules/servers/remote/remote.controller';
import { RemoteService } from 'src/modules/servers/remote/remote.service';
import { DaemonTokenGuard } from 'src/modules/servers/remote/daemon-token.guard';
import { ServerAccessGuard } from 'src/modules/servers/server-access';
import { ServerContextResolver } from 'src/modules/servers/server-context';
import { ServerActivityLog } from 'src/modules/servers/server-activity';
import { ServerActivityCountEntity, ServerActivityEntity } from 'src/modules/servers/server-activity.entity';
import { ServerConfigService } from 'src/modules/servers/server-config.service';
import { ServerDeletionSteps } from 'src/modules/servers/server-deletion';
import { ServerVariableEntity } from 'src/modules/servers/server-variable.entity';
import { ServerEntity } from 'src/modules/servers/server.entity';
import { ServerNodeOrigins } from 'src/modules/servers/server-node-origins';
import { ServerRecords } from 'src/modules/servers/server-records';
import { ServersRepository } from 'src/modules/servers/servers.repository';
import { ServerSearchRepository } from 'src/modules/servers/server-search.repository';
import { ServerListRepository } from 'src/modules/servers/server-list.repository';
import { SubuserEntity } from 'src/modules/servers/subusers/subuser.entity';
import { SubusersController } from 'src/modules/servers/subusers/subusers.controller';
import { SubusersRepository } from 'src/modules/servers/subusers/subusers.repository';
import { SubusersService } from 'src/modules/servers/subusers/subusers.service';
import { SftpAuthService } from 'src/modules/servers/remote/sftp-auth.service';
import { PasswordResetModule } from 'src/modules/password-reset/password-reset.module';
import { SshKeysModule } from 'src/modules/ssh-keys/ssh-keys.module';
import { UsersModule } from 'src/modules/users/users.module';
import { DrainsService } from 'src/modules/servers/transfers/drains.service';
import { NodeDrainEntity } from 'src/modules/servers/transfers/node-drain.entity';
import { ServerTransferEntity } from 'src/modules/servers/transfers/server-transfer.entity';
import { NodeDrainController, ServerTransfersController } from 'src/modules/servers/transfers/transfers.controller';
import { TransfersCron } from 'src/modules/servers/transfers/transfers.cron';
import { TransfersRepository } from 'src/modules/servers/transfers/transfers.repository';
import { TransfersService } from 'src/modules/servers/transfers/transfers.service';

@Module({
  imports: [TypeOrmModule.forFeature([ServerEntity, ServerVariableEntity, ServerActivityEntity, ServerActivityCountEntity, SubuserEntity, ServerTransferEntity, NodeDrainEntity]), AuditModule, EggsModule, NodesModule, MountsModule, UsersModule, SshKeysModule, PasswordResetModule, MailModule],
  controllers: [AdminServersController, ClientServersController, ClientServerSettingsController, SubusersController, RemoteController, AdminServerMountsController, ClientServerMountsController, ServerTransfersController, NodeDrainController],
  providers: [
    ServersRepository,
    ServerSearchRepository,
    ServerListRepository,
    SubusersRepository,
    SubusersService,
    ServerContextResolver,
    ServerAccessGuard,
    ServerActivityLog,
    ServerConfigService,
    ServerDeletionSteps,
    AdminServersService,
    AdminServerChangesService,
    ClientServersService,
    ClientServerSettingsService,
    RemoteService,
    SftpAuthService,
    DaemonTokenGuard,
    ServerNodeOrigins,
    ServerRecords,
    ServerMountsService,
    TransfersRepository,
    TransfersService,
    DrainsService,
    TransfersCron,
  ],
  exports: [
    TransfersService,
    DrainsService,
    TransfersCron,
    ServerNodeOrigins,
    ServerRecords,
    ServerContextResolver,
    ServerActivityLog,
    ServerConfigService,
    ServerDeletionSteps,
    AdminServersService,
    AdminServerChangesService,
    ServerAccessGuard,
    ClientServersService,
    ClientServerSettingsService,
    SubusersService,
  ],
})
export class ServersModule {}
