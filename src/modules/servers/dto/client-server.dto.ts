import { IsIn, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { PaginationQueryDto } from 'src/common/http/pagination';
import { CursorPaginationQueryDto } from 'src/common/http/cursor';
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

/** Event names are dotted lower-case words (`server.schedule.run.finish`). */
const ACTIVITY_EVENT_FILTER = /^[a-z0-9_-]+(\.[a-z0-9_-]+)*(\.\*)?$/;

export class ServerActivityQueryDto extends CursorPaginationQueryDto {
  /**
   * Keeps the entries of this event (`server.power.start`), or, ending in `.*`, of every event
   * under that name (`server.schedule.*` keeps `server.schedule.run.finish` and the others).
   */
  @Optional()
  @IsString()
  @MaxLength(64)
  @Matches(ACTIVITY_EVENT_FILTER, { message: 'event must be an event name such as server.power.start, or a prefix ending in .* such as server.schedule.*' })
  event?: string;
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
