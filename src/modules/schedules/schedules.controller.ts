import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiData, ApiPage } from 'src/common/http/api-responses';
import { Actor, CurrentActor } from 'src/common/auth/current-actor.decorator';
import { PaginationQueryDto, Paginated, toPage } from 'src/common/http/pagination';
import { DecimalIdPipe } from 'src/common/validation/decimal-id.pipe';
import { ScheduleResponseDto, ScheduleTaskResponseDto } from 'src/modules/schedules/dto/schedule-response.dto';
import { CreateScheduleDto, UpdateScheduleDto } from 'src/modules/schedules/dto/schedule.dto';
import { CreateTaskDto } from 'src/modules/schedules/dto/task.dto';
import { ScheduleError } from 'src/modules/schedules/schedules.errors';
import { SchedulesService } from 'src/modules/schedules/schedules.service';
import { CurrentServer, ServerAccess, ServerRoute } from 'src/modules/servers/server-access';

const scheduleId = new DecimalIdPipe(ScheduleError.NOT_FOUND);
const taskId = new DecimalIdPipe(ScheduleError.TASK_NOT_FOUND);

/** A server's schedules and their tasks. */
@ApiTags('client: schedules')
@Controller('api/client/servers/:server/schedules')
export class SchedulesController {
  constructor(private readonly service: SchedulesService) {}

  @Get()
  @ServerRoute('server.schedule.read')
  @ApiPage(ScheduleResponseDto)
  list(@CurrentServer() access: ServerAccess, @Query() query: PaginationQueryDto): Promise<Paginated<ScheduleResponseDto>> {
    return this.service.list(access, toPage(query));
  }

  @Post()
  @ServerRoute('server.schedule.create')
  @ApiData(ScheduleResponseDto, { status: 201 })
  async create(@CurrentServer() access: ServerAccess, @Body() dto: CreateScheduleDto, @CurrentActor() actor: Actor): Promise<{ data: ScheduleResponseDto }> {
    return { data: await this.service.create(access, dto, actor) };
  }

  @Get(':schedule')
  @ServerRoute('server.schedule.read')
  @ApiData(ScheduleResponseDto)
  async get(@CurrentServer() access: ServerAccess, @Param('schedule', scheduleId) id: string): Promise<{ data: ScheduleResponseDto }> {
    return { data: await this.service.get(access, id) };
  }

  @Post(':schedule')
  @HttpCode(200)
  @ServerRoute('server.schedule.update')
  @ApiData(ScheduleResponseDto)
  async update(
    @CurrentServer() access: ServerAccess,
    @Param('schedule', scheduleId) id: string,
    @Body() dto: UpdateScheduleDto,
    @CurrentActor() actor: Actor,
  ): Promise<{ data: ScheduleResponseDto }> {
    return { data: await this.service.update(access, id, dto, actor) };
  }

  /** Force run: 202, the tasks run after the answer (their time offsets still apply). */
  @Post(':schedule/run')
  @HttpCode(202)
  @ServerRoute('server.schedule.update')
  @ApiData(ScheduleResponseDto, { status: 202 })
  async run(@CurrentServer() access: ServerAccess, @Param('schedule', scheduleId) id: string, @CurrentActor() actor: Actor): Promise<{ data: ScheduleResponseDto }> {
    return { data: await this.service.forceRun(access, id, actor) };
  }

  @Delete(':schedule')
  @HttpCode(204)
  @ServerRoute('server.schedule.delete')
  async delete(@CurrentServer() access: ServerAccess, @Param('schedule', scheduleId) id: string, @CurrentActor() actor: Actor): Promise<void> {
    await this.service.delete(access, id, actor);
  }

  @Post(':schedule/tasks')
  @ServerRoute('server.schedule.update')
  @ApiData(ScheduleTaskResponseDto, { status: 201 })
  async createTask(
    @CurrentServer() access: ServerAccess,
    @Param('schedule', scheduleId) id: string,
    @Body() dto: CreateTaskDto,
    @CurrentActor() actor: Actor,
  ): Promise<{ data: ScheduleTaskResponseDto }> {
    return { data: await this.service.createTask(access, id, dto, actor) };
  }

  @Delete(':schedule/tasks/:task')
  @HttpCode(204)
  @ServerRoute('server.schedule.update')
  async deleteTask(
    @CurrentServer() access: ServerAccess,
    @Param('schedule', scheduleId) id: string,
    @Param('task', taskId) task: string,
    @CurrentActor() actor: Actor,
  ): Promise<void> {
    await this.service.deleteTask(access, id, task, actor);
  }
}
