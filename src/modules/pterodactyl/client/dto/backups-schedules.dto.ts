import { IsBoolean, IsIn, IsInt, IsString, MaxLength, Min, MinLength } from 'class-validator';
import { Optional } from 'src/common/validation/decorators';
import { asHatchery } from 'src/modules/pterodactyl/client/client-validation';
import { CreateScheduleDto } from 'src/modules/schedules/dto/schedule.dto';
import { CreateTaskDto } from 'src/modules/schedules/dto/task.dto';

export class StoreBackupBody {
  @Optional()
  @IsString()
  @MaxLength(191)
  name?: string;

  /** Newline-separated patterns. */
  @Optional()
  @IsString()
  @MaxLength(32 * 1024)
  ignored?: string;

  @Optional()
  @IsBoolean()
  is_locked?: boolean;
}

export class RestoreBody {
  @Optional()
  @IsBoolean()
  truncate?: boolean;
}

const CRON_FIELD = (): PropertyDecorator => (target, key) => {
  IsString()(target, key);
  MaxLength(191)(target, key);
};

export class StoreScheduleBody {
  @IsString()
  @MinLength(1)
  @MaxLength(191)
  name!: string;

  @CRON_FIELD() minute!: string;
  @CRON_FIELD() hour!: string;
  @CRON_FIELD() day_of_month!: string;
  @CRON_FIELD() month!: string;
  @CRON_FIELD() day_of_week!: string;

  @Optional()
  @IsBoolean()
  is_active?: boolean;

  @Optional()
  @IsBoolean()
  only_when_online?: boolean;
}

export class StoreTaskBody {
  @IsIn(['command', 'power', 'backup'])
  action!: string;

  @Optional()
  @IsString()
  payload?: string;

  @IsInt()
  @Min(0)
  time_offset!: number;

  /** Read and ignored: Hatchery appends a task at the end of its schedule. */
  @Optional()
  @IsInt()
  sequence_id?: number;

  @Optional()
  @IsBoolean()
  continue_on_failure?: boolean;
}

/** A schedule body as Hatchery's schedule (its five cron fields as one cron; errors on them name the Pterodactyl field). */
export const scheduleDto = (body: StoreScheduleBody): CreateScheduleDto =>
  asHatchery(
    CreateScheduleDto,
    {
      name: body.name,
      cron: { minute: body.minute, hour: body.hour, day_of_month: body.day_of_month, month: body.month, day_of_week: body.day_of_week },
      is_active: body.is_active ?? false,
      only_when_online: body.only_when_online ?? false,
    },
    (path) => path.replace(/^cron\.?/, '') || 'minute',
  );

/** A task body as Hatchery's task (an empty payload is none; `sequence_id` is not read). */
export const taskDto = (body: StoreTaskBody): CreateTaskDto =>
  asHatchery(CreateTaskDto, {
    action: body.action,
    ...(body.payload !== undefined && body.payload !== '' ? { payload: body.payload } : {}),
    time_offset: body.time_offset,
    continue_on_failure: body.continue_on_failure ?? false,
  });
