import { PartialType } from '@nestjs/swagger';
import { IsString, Matches, MaxLength } from 'class-validator';
import { Optional } from 'src/common/validation/decorators';
import type { LocationEntity } from 'src/modules/nodes/location.entity';

export class CreateLocationDto {
  @IsString()
  @Matches(/^[A-Za-z0-9_.-]{1,60}$/, { message: 'short must be 1 to 60 letters, digits, _, . or -' })
  short!: string;

  @Optional({ nullable: true })
  @IsString()
  @MaxLength(191)
  long?: string | null;
}

export class UpdateLocationDto extends PartialType(CreateLocationDto, { skipNullProperties: false }) {}

export class LocationResponseDto {
  id!: string;
  short!: string;
  long!: string | null;
  createdAt!: string;
  updatedAt!: string;
}

export const toLocationResponse = (l: LocationEntity): LocationResponseDto => ({
  id: l.id,
  short: l.short,
  long: l.long,
  createdAt: l.createdAt.toISOString(),
  updatedAt: l.updatedAt.toISOString(),
});
