import { applyDecorators } from '@nestjs/common';
import { ApiProperty, PartialType } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import { IsBoolean, IsObject, IsString, MaxLength, MinLength, ValidateBy, ValidateNested } from 'class-validator';
import { Optional } from 'src/common/validation/decorators';
import { CronField, cronFieldError, validateCron } from 'src/modules/schedules/cron-expression';

/** A JSON integer is read as its digits; strings are trimmed. */
const toCronText = ({ value }: { value: unknown }): unknown =>
  typeof value === 'number' && Number.isInteger(value) ? String(value) : typeof value === 'string' ? value.trim() : value;

/** One cron field, checked by cron-parser on its own so the error names the field. */
const CronFieldValue = (field: CronField): PropertyDecorator =>
  applyDecorators(
    Transform(toCronText),
    ValidateBy({
      name: 'cronField',
      validator: {
        validate: (value: unknown) => cronFieldError(field, value) === null,
        defaultMessage: (args) => cronFieldError(field, args?.value) ?? `${field} is not valid`,
      },
    }),
  );

/** The whole expression, once every field is good on its own: it must name a real date (not 30 February). */
const SatisfiableCron = (): PropertyDecorator =>
  ValidateBy({
    name: 'satisfiableCron',
    validator: {
      validate: (value: unknown) => typeof value !== 'object' || value === null || validateCron(value as Record<string, unknown>).every((e) => e.field !== 'cron'),
      defaultMessage: (args) => validateCron(args?.value as Record<string, unknown>).find((e) => e.field === 'cron')?.message ?? 'cron never matches a date',
    },
  });

/** Each field is a number, a list, a range, a step or `*`, evaluated in UTC. */
export class CronDto {
  @ApiProperty({ example: '*/5', description: '0-59' })
  @CronFieldValue('minute')
  minute!: string;

  @ApiProperty({ example: '*', description: '0-23' })
  @CronFieldValue('hour')
  hour!: string;

  @ApiProperty({ example: '*', description: '1-31' })
  @CronFieldValue('day_of_month')
  day_of_month!: string;

  @ApiProperty({ example: '*', description: '1-12' })
  @CronFieldValue('month')
  month!: string;

  @ApiProperty({ example: '1-5', description: '0-7, 0 and 7 are Sunday' })
  @CronFieldValue('day_of_week')
  day_of_week!: string;
}

export class CreateScheduleDto {
  @IsString()
  @MinLength(1)
  @MaxLength(191)
  name!: string;

  @IsObject()
  @ValidateNested()
  @Type(() => CronDto)
  @SatisfiableCron()
  cron!: CronDto;

  /** Defaults to true. */
  @Optional()
  @IsBoolean()
  is_active?: boolean;

  /** Defaults to false. When true a run is skipped unless the daemon reports the server running (or starting). */
  @Optional()
  @IsBoolean()
  only_when_online?: boolean;
}

/** The same fields as create; those given are changed. */
export class UpdateScheduleDto extends PartialType(CreateScheduleDto, { skipNullProperties: false }) {}
