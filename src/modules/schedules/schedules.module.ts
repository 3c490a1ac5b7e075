import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { BackupsModule } from 'src/modules/backups/backups.module';
import { ScheduledBackups, ScheduledServerBackups } from 'src/modules/schedules/scheduled-backups';
import { ScheduleActivityLog } from 'src/modules/schedules/schedule-activity';
import { ScheduleRunner } from 'src/modules/schedules/schedule-runner.service';
import { ScheduleTaskEntity } from 'src/modules/schedules/schedule-task.entity';
import { ScheduleTaskExecutor } from 'src/modules/schedules/schedule-task.executor';
import { ScheduleEntity } from 'src/modules/schedules/schedule.entity';
import { SchedulesController } from 'src/modules/schedules/schedules.controller';
import { SchedulesCron } from 'src/modules/schedules/schedules.cron';
import { SchedulesRepository } from 'src/modules/schedules/schedules.repository';
import { SchedulesService } from 'src/modules/schedules/schedules.service';
import { ServersModule } from 'src/modules/servers/servers.module';

@Module({
  imports: [TypeOrmModule.forFeature([ScheduleEntity, ScheduleTaskEntity]), ServersModule, BackupsModule],
  controllers: [SchedulesController],
  providers: [
    SchedulesRepository,
    SchedulesService,
    ScheduleActivityLog,
    ScheduleRunner,
    ScheduleTaskExecutor,
    SchedulesCron,
    { provide: ScheduledBackups, useClass: ScheduledServerBackups },
  ],
  exports: [ScheduleRunner, SchedulesService],
})
export class SchedulesModule {}
