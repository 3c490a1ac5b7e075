import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiAccepted, ApiData, ApiPage } from 'src/common/http/api-responses';
import type { AuthContext } from 'src/common/auth/auth-context';
import { Actor, CurrentActor } from 'src/common/auth/current-actor.decorator';
import { CurrentAuth } from 'src/common/auth/current-auth.decorator';
import { PaginationQueryDto, toPage } from 'src/common/http/pagination';
import { DecimalIdPipe } from 'src/common/validation/decimal-id.pipe';
import { BackupError } from 'src/modules/backups/backups.errors';
import { BackupList, BackupsService } from 'src/modules/backups/backups.service';
import { BackupDownloadDto, BackupListMetaDto, BackupResponseDto, CreateBackupDto, RestoreBackupDto } from 'src/modules/backups/dto/backup.dto';
import { CurrentServer, ServerAccess, ServerRoute } from 'src/modules/servers/server-access';

const backupId = new DecimalIdPipe(BackupError.NOT_FOUND);

/** A server's backups, kept on its node by Wings' local adapter; `{backup}` is the backup's id. */
@ApiTags('client: backups')
@Controller('api/client/servers/:server/backups')
export class BackupsController {
  constructor(private readonly service: BackupsService) {}

  /** Newest first; `meta` adds `backupCount` (in progress or successful) and `backupLimit`. */
  @Get()
  @ServerRoute('server.backup.read')
  @ApiPage(BackupResponseDto, { meta: BackupListMetaDto })
  list(@CurrentServer() access: ServerAccess, @Query() query: PaginationQueryDto): Promise<BackupList> {
    return this.service.list(access, toPage(query));
  }

  @Post()
  @ServerRoute('server.backup.create')
  @ApiData(BackupResponseDto, { status: 201 })
  async create(@CurrentServer() access: ServerAccess, @CurrentActor() actor: Actor, @Body() dto: CreateBackupDto): Promise<{ data: BackupResponseDto }> {
    return { data: await this.service.create(access, actor, dto) };
  }

  @Get(':backup')
  @ServerRoute('server.backup.read')
  @ApiData(BackupResponseDto)
  async view(@CurrentServer() access: ServerAccess, @Param('backup', backupId) id: string): Promise<{ data: BackupResponseDto }> {
    return { data: await this.service.view(access, id) };
  }

  @Get(':backup/download')
  @ServerRoute('server.backup.download')
  @ApiData(BackupDownloadDto)
  async download(
    @CurrentServer() access: ServerAccess,
    @CurrentAuth() auth: AuthContext,
    @CurrentActor() actor: Actor,
    @Param('backup', backupId) id: string,
  ): Promise<{ data: BackupDownloadDto }> {
    return { data: await this.service.downloadUrl(access, auth, actor, id) };
  }

  /** Locks or unlocks; server.backup.delete, as a lock is what keeps a backup from being deleted. */
  @Post(':backup/lock')
  @HttpCode(200)
  @ServerRoute('server.backup.delete')
  @ApiData(BackupResponseDto)
  async lock(@CurrentServer() access: ServerAccess, @CurrentActor() actor: Actor, @Param('backup', backupId) id: string): Promise<{ data: BackupResponseDto }> {
    return { data: await this.service.toggleLock(access, actor, id) };
  }

  /** Accepted: the daemon stops the server and restores in the background. */
  @Post(':backup/restore')
  @HttpCode(202)
  @ServerRoute('server.backup.restore')
  @ApiAccepted('The node stops the server and restores in the background; the server shows restoring_backup until it reports back')
  async restore(
    @CurrentServer() access: ServerAccess,
    @CurrentActor() actor: Actor,
    @Param('backup', backupId) id: string,
    @Body() dto: RestoreBackupDto,
  ): Promise<void> {
    await this.service.restore(access, actor, id, dto.truncate ?? false);
  }

  @Delete(':backup')
  @HttpCode(204)
  @ServerRoute('server.backup.delete')
  async delete(@CurrentServer() access: ServerAccess, @CurrentActor() actor: Actor, @Param('backup', backupId) id: string): Promise<void> {
    await this.service.delete(access, actor, id);
  }
}
