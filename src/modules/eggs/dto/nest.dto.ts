import { PartialType } from '@nestjs/swagger';
import { IsString, MaxLength, MinLength } from 'class-validator';
import { Optional } from 'src/common/validation/decorators';

// class-validator checks stacked decorators bottom-up and the pipe reports only the first failure,
// so the type check sits lowest: a missing or mistyped field is told so, not that it is too long.
export class CreateNestDto {
  @MaxLength(191)
  @MinLength(1)
  @IsString()
  name!: string;

  @Optional({ nullable: true })
  @MaxLength(65_535)
  @IsString()
  description?: string | null;

  /** Defaults to the creator's e-mail. */
  @Optional()
  @MaxLength(191)
  @MinLength(1)
  @IsString()
  author?: string;
}

export class UpdateNestDto extends PartialType(CreateNestDto, { skipNullProperties: false }) {}
