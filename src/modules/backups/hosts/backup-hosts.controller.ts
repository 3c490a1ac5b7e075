import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { AdminScope } from 'src/common/auth/admin-scope';
import { Authenticated } from 'src/common/auth/authenticated.decorator';
import { Actor, CurrentActor } from 'src/common/auth/current-actor.decorator';
import { ApiData, ApiPage } from 'src/common/http/api-responses';
import { PaginationQueryDto, Paginated, toPage } from 'src/common/http/pagination';
import { DecimalIdPipe } from 'src/common/validation/decimal-id.pipe';
import { BackupError } from 'src/modules/backups/backups.errors';
import { BackupHostResponseDto, BackupHostTestDto, CreateBackupHostDto, UpdateBackupHostDto } from 'src/modules/backups/hosts/backup-host.dto';
import { BackupHostsService } from 'src/modules/backups/hosts/backup-hosts.service';

const hostId = new DecimalIdPipe(BackupError.HOST_NOT_FOUND);

/** Where nodes send their backups: on the node (`wings`) or to an S3 bucket (scope nodes.*). */
@ApiTags('admin: backup hosts')
@Controller('api/admin/backup-hosts')
export class BackupHostsController {
  constructor(private readonly service: BackupHostsService) {}

  @Get()
  @Authenticated({ admin: AdminScope.BACKUP_HOSTS_READ })
  @ApiPage(BackupHostResponseDto)
  list(@Query() query: PaginationQueryDto): Promise<Paginated<BackupHostResponseDto>> {
    return this.service.list(toPage(query));
  }

  @Post()
  @Authenticated({ admin: AdminScope.BACKUP_HOSTS_WRITE })
  @ApiData(BackupHostResponseDto, { status: 201 })
  async create(@Body() dto: CreateBackupHostDto, @CurrentActor() actor: Actor): Promise<{ data: BackupHostResponseDto }> {
    return { data: await this.service.create(dto, actor) };
  }

  @Get(':id')
  @Authenticated({ admin: AdminScope.BACKUP_HOSTS_READ })
  @ApiData(BackupHostResponseDto)
  async get(@Param('id', hostId) id: string): Promise<{ data: BackupHostResponseDto }> {
    return { data: await this.service.get(id) };
  }

  /** Any field; `secretAccessKey` replaces the stored one, left out it is kept. */
  @Patch(':id')
  @Authenticated({ admin: AdminScope.BACKUP_HOSTS_WRITE })
  @ApiData(BackupHostResponseDto)
  async update(@Param('id', hostId) id: string, @Body() dto: UpdateBackupHostDto, @CurrentActor() actor: Actor): Promise<{ data: BackupHostResponseDto }> {
    return { data: await this.service.update(id, dto, actor) };
  }

  /** 409 while a node uses the host or backups are stored on it. */
  @Delete(':id')
  @HttpCode(204)
  @Authenticated({ admin: AdminScope.BACKUP_HOSTS_WRITE })
  async delete(@Param('id', hostId) id: string, @CurrentActor() actor: Actor): Promise<void> {
    await this.service.delete(id, actor);
  }

  /** Writes and deletes a small object in the bucket: `ok`, or S3's error. */
  @Post(':id/test')
  @HttpCode(200)
  @Authenticated({ admin: AdminScope.BACKUP_HOSTS_WRITE })
  @ApiData(BackupHostTestDto)
  async test(@Param('id', hostId) id: string): Promise<{ data: BackupHostTestDto }> {
    return { data: await this.service.test(id) };
  }
}
