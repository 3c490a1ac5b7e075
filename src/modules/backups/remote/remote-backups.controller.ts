import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiResponse, ApiTags } from '@nestjs/swagger';
import { uuidParam } from 'src/common/validation/uuid-param';
import { BackupError } from 'src/modules/backups/backups.errors';
import { BackupStatusDto, RestoreStatusDto } from 'src/modules/backups/remote/backup-status.dto';
import { BackupStatusService, PartUrlsDto } from 'src/modules/backups/remote/backup-status.service';
import { NodeEntity } from 'src/modules/nodes/node.entity';
import { CallingNode, DaemonRoute } from 'src/modules/servers/remote/daemon-token.guard';

const backupUuid = uuidParam(BackupError.NOT_FOUND);

/** Wings' backup reports (docs/wings.md#backups); `{backup}` is the backup's uuid. */
@ApiTags('remote (daemon)')
@Controller('api/remote/backups')
@DaemonRoute()
export class RemoteBackupsController {
  constructor(private readonly service: BackupStatusService) {}

  /** S3 adapter: starts the multipart upload and answers `{ parts: [presigned PUT URLs], part_size }` for an archive of `size` bytes. */
  @Get(':backup')
  @ApiResponse({ status: 200, type: PartUrlsDto })
  async partUrls(@CallingNode() node: NodeEntity, @Param('backup', backupUuid) uuid: string, @Query('size') size: unknown): Promise<PartUrlsDto> {
    return this.service.partUrls(node, uuid, size);
  }

  @Post(':backup')
  @HttpCode(204)
  async status(@CallingNode() node: NodeEntity, @Param('backup', backupUuid) uuid: string, @Body() dto: BackupStatusDto): Promise<void> {
    await this.service.complete(node, uuid, dto);
  }

  @Post(':backup/restore')
  @HttpCode(204)
  async restoreStatus(@CallingNode() node: NodeEntity, @Param('backup', backupUuid) uuid: string, @Body() dto: RestoreStatusDto): Promise<void> {
    await this.service.restored(node, uuid, dto.successful);
  }
}
