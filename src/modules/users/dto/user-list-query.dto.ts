import { IsString, MaxLength } from 'class-validator';
import { CursorPaginationQueryDto } from 'src/common/http/cursor';
import { Optional } from 'src/common/validation/decorators';

export class UserListQueryDto extends CursorPaginationQueryDto {
  /** Part of the username, e-mail or name (case-insensitive). */
  @Optional()
  @IsString()
  @MaxLength(191)
  search?: string;
}
