import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { BackupEntity } from 'src/modules/backups/backup.entity';
import { BackupsController } from 'src/modules/backups/backups.controller';
import { BackupsRepository } from 'src/modules/backups/backups.repository';
import { BackupsService } from 'src/modules/backups/backups.service';
import { BackupStatusService } from 'src/modules/backups/remote/backup-status.service';
import { RemoteBackupsController } from 'src/modules/backups/remote/remote-backups.controller';
import { NodesModule } from 'src/modules/nodes/nodes.module';
import { ServersModule } from 'src/modules/servers/servers.module';

/** Server backups (docs/wings.md#backups). BackupsService is exported for the schedule runner. */
@Module({
  // NodesModule: the daemon-token guard of the remote routes looks the calling node up.
  imports: [TypeOrmModule.forFeature([BackupEntity]), ServersModule, NodesModule],
  controllers: [BackupsController, RemoteBackupsController],
  providers: [BackupsRepository, BackupsService, BackupStatusService],
  exports: [BackupsService],
})
export class BackupsModule {}
