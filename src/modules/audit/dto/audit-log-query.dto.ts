import { DECIMAL_ID } from 'src/common/validation/decimal-id.pipe';
import { IsString, Matches, MaxLength } from 'class-validator';
import { CursorPaginationQueryDto } from 'src/common/http/cursor';
import { Optional } from 'src/common/validation/decorators';

export class AuditLogQueryDto extends CursorPaginationQueryDto {
  /** Exact action, e.g. `egg.updated`. */
  @Optional()
  @IsString()
  @MaxLength(64)
  action?: string;

  @Optional()
  @Matches(DECIMAL_ID, { message: 'actorId must be a user id' })
  actorId?: string;

  /** e.g. `egg`, `nest`, `egg_variable`. */
  @Optional()
  @IsString()
  @MaxLength(32)
  targetType?: string;

  @Optional()
  @IsString()
  @MaxLength(64)
  targetId?: string;
}
