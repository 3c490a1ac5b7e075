import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditModule } from 'src/modules/audit/audit.module';
import { BackupEntity } from 'src/modules/backups/backup.entity';
import { BackupHostEntity } from 'src/modules/backups/backup-host.entity';
import { BackupsController } from 'src/modules/backups/backups.controller';
import { BackupsRepository } from 'src/modules/backups/backups.repository';
import { BackupsService } from 'src/modules/backups/backups.service';
import { BackupHostsController } from 'src/modules/backups/hosts/backup-hosts.controller';
import { BackupHostsRepository } from 'src/modules/backups/hosts/backup-hosts.repository';
import { BackupHostsService } from 'src/modules/backups/hosts/backup-hosts.service';
import { BackupStorage } from 'src/modules/backups/hosts/backup-storage';
import { S3StorageClient } from 'src/modules/backups/hosts/s3-storage.client';
import { StaleUploadsCleanup } from 'src/modules/backups/hosts/stale-uploads.cleanup';
import { BackupStatusService } from 'src/modules/backups/remote/backup-status.service';
import { RemoteBackupsController } from 'src/modules/backups/remote/remote-backups.controller';
import { NodesModule } from 'src/modules/nodes/nodes.module';
import { ServersModule } from 'src/modules/servers/servers.module';

/**
 * Server backups (docs/wings.md#backups) and the backup hosts they go to (docs/backup-hosts.md).
 * BackupsService is exported for the schedule runner.
 */
@Module({
  // NodesModule: the daemon-token guard of the remote routes looks the calling node up, and a node names its backup host.
  imports: [TypeOrmModule.forFeature([BackupEntity, BackupHostEntity]), ServersModule, NodesModule, AuditModule],
  controllers: [BackupsController, RemoteBackupsController, BackupHostsController],
  providers: [
    BackupsRepository,
    BackupsService,
    BackupStatusService,
    BackupHostsRepository,
    BackupHostsService,
    BackupStorage,
    S3StorageClient,
    StaleUploadsCleanup,
  ],
  exports: [BackupsService],
})
export class BackupsModule {}
