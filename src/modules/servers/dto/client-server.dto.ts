import { IsIn, IsString, MaxLength, MinLength } from 'class-validator';
import { PaginationQueryDto } from 'src/common/http/pagination';
import { Optional } from 'src/common/validation/decorators';

export class ClientServerListQueryDto extends PaginationQueryDto {
  /** None: the caller's own servers and those shared with them; `owner`: own only; `subuser`: shared only; `admin-all`: every server (admins). */
  @Optional()
  @IsIn(['owner', 'subuser', 'admin-all'])
  type?: 'owner' | 'subuser' | 'admin-all';

  /**
   * Keeps the servers whose name, identifier, uuid, description, node name, owner's username, or an
   * allocation's address (`ip`, alias, `ip:port`) contains this text, ignoring case.
   */
  @Optional()
  @IsString()
  @MaxLength(100)
  search?: string;
}

/** The action is checked by the service, so a bad one gets the message that lists the allowed actions. */
export class PowerDto {
  @IsString()
  action!: string;
}

export class CommandDto {
  @IsString()
  @MinLength(1)
  @MaxLength(4096)
  command!: string;
}
