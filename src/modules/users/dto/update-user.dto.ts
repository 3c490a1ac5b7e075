import { PartialType } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, Matches } from 'class-validator';
import { Optional } from 'src/common/validation/decorators';
import { CreateUserDto } from 'src/modules/users/dto/create-user.dto';

// Explicit nulls are refused: every field is optional, none is nullable.
export class UpdateUserDto extends PartialType(CreateUserDto, { skipNullProperties: false }) {
  /** The administrator roles the user holds, replacing those held (`[]`: none). Only a full administrator may set them. */
  @Optional()
  @IsArray()
  @ArrayMaxSize(50)
  @Matches(/^[1-9]\d{0,18}$/, { each: true, message: 'each of roleIds must be a role id' })
  roleIds?: string[];
}
