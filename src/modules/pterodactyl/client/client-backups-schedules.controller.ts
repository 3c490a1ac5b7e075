import { Controller, Delete, Get, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import { AppException } from 'src/common/errors/app.exception';
import type { HttpRequest } from 'src/common/http/http';
import { isDecimalId } from 'src/common/validation/decimal-id.pipe';
import { AppConfigService } from 'src/config/app-config.service';
import type { AuthContext } from 'src/common/auth/auth-context';
import type { Actor } from 'src/common/auth/current-actor.decorator';
import { BackupsService } from 'src/modules/backups/backups.service';
import { ClientActor, ClientAuth, ClientServerRoute } from 'src/modules/pterodactyl/client/client-access';
import { backupItem, scheduleItem, taskItem } from 'src/modules/pterodactyl/client/client-transformers';
import { FractalItem, FractalList, FractalPage, list, page, pageOf } from 'src/modules/pterodactyl/common/fractal';
import { PterodactylBody } from 'src/modules/pterodactyl/common/pterodactyl-body';
import { PterodactylController } from 'src/modules/pterodactyl/common/pterodactyl-route';
import { ScheduleError } from 'src/modules/schedules/schedules.errors';
import { SchedulesService } from 'src/modules/schedules/schedules.service';
import { CurrentServer, ServerAccess } from 'src/modules/servers/server-access';
import { RestoreBody, scheduleDto, StoreBackupBody, StoreScheduleBody, StoreTaskBody, taskDto } from 'src/modules/pterodactyl/client/dto/backups-schedules.dto';

const scheduleRef = (id: string): string => {
  if (!isDecimalId(id)) {
    throw new AppException(ScheduleError.NOT_FOUND);
  }
  return id;
};

/** `/pterodactyl/api/client/servers/{server}`: backups (BackupController) and schedules (ScheduleController, ScheduleTaskController). */
@PterodactylController()
@Controller('pterodactyl/api/client/servers/:server')
export class PterodactylClientBackupsSchedulesController {
  constructor(
    private readonly backups: BackupsService,
    private readonly schedules: SchedulesService,
    private readonly config: AppConfigService,
  ) {}

  /** Pages of 20 (at most 50), with `meta.backup_count`: the backups that did not fail. */
  @Get('backups')
  @ClientServerRoute('server.backup.read')
  async listBackups(@CurrentServer() access: ServerAccess, @Query() query: Record<string, unknown>, @Req() req: HttpRequest): Promise<FractalPage & { meta: { backup_count: number } }> {
    const requested = pageOf({ per_page: '20', ...query });
    const at = { ...requested, perPage: Math.min(requested.perPage, 50), skip: (requested.page - 1) * Math.min(requested.perPage, 50) };
    const { data, meta } = await this.backups.list(access, at);
    const body = page(data.map(backupItem), meta.pagination.total, at, req, this.config.http.appUrl);
    return { ...body, meta: { ...body.meta, backup_count: meta.backupCount } };
  }

  @Post('backups')
  @HttpCode(200)
  @ClientServerRoute('server.backup.create')
  async createBackup(@CurrentServer() access: ServerAccess, @ClientActor() actor: Actor, @PterodactylBody(StoreBackupBody) body: StoreBackupBody): Promise<FractalItem> {
    // As Pterodactyl: the lock is kept only from a caller who may delete backups.
    const locked = access.permissions.includes('server.backup.delete') ? (body.is_locked ?? false) : false;
    const name = body.name?.trim();
    return backupItem(await this.backups.create(access, actor, { ...(name ? { name } : {}), ignored: body.ignored, is_locked: locked }));
  }

  @Get('backups/:backup')
  @ClientServerRoute('server.backup.read')
  async viewBackup(@CurrentServer() access: ServerAccess, @Param('backup') uuid: string): Promise<FractalItem> {
    return backupItem(await this.backups.view(access, await this.backups.idOfUuid(access, uuid)));
  }

  @Get('backups/:backup/download')
  @ClientServerRoute('server.backup.download')
  async downloadBackup(
    @CurrentServer() access: ServerAccess,
    @ClientAuth() auth: AuthContext,
    @ClientActor() actor: Actor,
    @Param('backup') uuid: string,
  ): Promise<{ object: string; attributes: { url: string } }> {
    const { url } = await this.backups.downloadUrl(access, auth, actor, await this.backups.idOfUuid(access, uuid));
    return { object: 'signed_url', attributes: { url } };
  }

  @Post('backups/:backup/lock')
  @HttpCode(200)
  @ClientServerRoute('server.backup.delete')
  async lockBackup(@CurrentServer() access: ServerAccess, @ClientActor() actor: Actor, @Param('backup') uuid: string): Promise<FractalItem> {
    return backupItem(await this.backups.toggleLock(access, actor, await this.backups.idOfUuid(access, uuid)));
  }

  @Post('backups/:backup/restore')
  @HttpCode(204)
  @ClientServerRoute('server.backup.restore')
  async restoreBackup(
    @CurrentServer() access: ServerAccess,
    @ClientActor() actor: Actor,
    @Param('backup') uuid: string,
    @PterodactylBody(RestoreBody) body: RestoreBody,
  ): Promise<void> {
    await this.backups.restore(access, actor, await this.backups.idOfUuid(access, uuid), body.truncate ?? false);
  }

  @Delete('backups/:backup')
  @HttpCode(204)
  @ClientServerRoute('server.backup.delete')
  async deleteBackup(@CurrentServer() access: ServerAccess, @ClientActor() actor: Actor, @Param('backup') uuid: string): Promise<void> {
    await this.backups.delete(access, actor, await this.backups.idOfUuid(access, uuid));
  }

  /** Every schedule of the server, each with its tasks (not paginated, as Pterodactyl). */
  @Get('schedules')
  @ClientServerRoute('server.schedule.read')
  async listSchedules(@CurrentServer() access: ServerAccess): Promise<FractalList> {
    const { data } = await this.schedules.list(access, { page: 1, perPage: 1000, skip: 0 });
    return list(data.map(scheduleItem));
  }

  @Post('schedules')
  @HttpCode(200)
  @ClientServerRoute('server.schedule.create')
  async createSchedule(@CurrentServer() access: ServerAccess, @ClientActor() actor: Actor, @PterodactylBody(StoreScheduleBody) body: StoreScheduleBody): Promise<FractalItem> {
    return scheduleItem(await this.schedules.create(access, scheduleDto(body), actor));
  }

  @Get('schedules/:schedule')
  @ClientServerRoute('server.schedule.read')
  async viewSchedule(@CurrentServer() access: ServerAccess, @Param('schedule') id: string): Promise<FractalItem> {
    return scheduleItem(await this.schedules.get(access, scheduleRef(id)));
  }

  @Post('schedules/:schedule')
  @HttpCode(200)
  @ClientServerRoute('server.schedule.update')
  async updateSchedule(
    @CurrentServer() access: ServerAccess,
    @ClientActor() actor: Actor,
    @Param('schedule') id: string,
    @PterodactylBody(StoreScheduleBody) body: StoreScheduleBody,
  ): Promise<FractalItem> {
    return scheduleItem(await this.schedules.update(access, scheduleRef(id), scheduleDto(body), actor));
  }

  @Post('schedules/:schedule/execute')
  @HttpCode(202)
  @ClientServerRoute('server.schedule.update')
  async executeSchedule(@CurrentServer() access: ServerAccess, @ClientActor() actor: Actor, @Param('schedule') id: string): Promise<void> {
    await this.schedules.forceRun(access, scheduleRef(id), actor);
  }

  @Delete('schedules/:schedule')
  @HttpCode(204)
  @ClientServerRoute('server.schedule.delete')
  async deleteSchedule(@CurrentServer() access: ServerAccess, @ClientActor() actor: Actor, @Param('schedule') id: string): Promise<void> {
    await this.schedules.delete(access, scheduleRef(id), actor);
  }

  @Post('schedules/:schedule/tasks')
  @HttpCode(200)
  @ClientServerRoute('server.schedule.update')
  async createTask(
    @CurrentServer() access: ServerAccess,
    @ClientActor() actor: Actor,
    @Param('schedule') id: string,
    @PterodactylBody(StoreTaskBody) body: StoreTaskBody,
  ): Promise<FractalItem> {
    return taskItem(await this.schedules.createTask(access, scheduleRef(id), taskDto(body), actor));
  }

  @Delete('schedules/:schedule/tasks/:task')
  @HttpCode(204)
  @ClientServerRoute('server.schedule.update')
  async deleteTask(@CurrentServer() access: ServerAccess, @ClientActor() actor: Actor, @Param('schedule') id: string, @Param('task') task: string): Promise<void> {
    if (!isDecimalId(task)) {
      throw new AppException(ScheduleError.TASK_NOT_FOUND);
    }
    await this.schedules.deleteTask(access, scheduleRef(id), task, actor);
  }
}
