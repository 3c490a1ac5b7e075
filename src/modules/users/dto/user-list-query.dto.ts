import { IsString, MaxLength } from 'class-validator';
import { PaginationQueryDto } from 'src/common/http/pagination';
import { Optional } from 'src/common/validation/decorators';

export class UserListQueryDto extends PaginationQueryDto {
  /** Part of the username, e-mail or name (case-insensitive). */
  @Optional()
  @IsString()
  @MaxLength(191)
  search?: string;
}
