import { PartialType } from '@nestjs/swagger';
import { IsBoolean, IsString, MaxLength, MinLength } from 'class-validator';
import { Optional } from 'src/common/validation/decorators';
import { IsEnvName, IsVariableRules } from 'src/modules/eggs/dto/egg-validators';

// class-validator checks stacked decorators bottom-up and the pipe reports only the first failure,
// so the type check sits lowest: a missing or mistyped field is told so, not that it is too long.
export class CreateEggVariableDto {
  @MaxLength(191)
  @MinLength(1)
  @IsString()
  name!: string;

  @Optional()
  @MaxLength(65_535)
  @IsString()
  description?: string;

  @IsEnvName()
  envVariable!: string;

  @Optional()
  @MaxLength(65_535)
  @IsString()
  defaultValue?: string;

  @Optional()
  @IsBoolean()
  userViewable?: boolean;

  @Optional()
  @IsBoolean()
  userEditable?: boolean;

  /** Pipe-separated Laravel rules, e.g. `required|integer|between:1,65535`. */
  @Optional()
  @IsVariableRules()
  rules?: string;
}

export class UpdateEggVariableDto extends PartialType(CreateEggVariableDto, { skipNullProperties: false }) {}
