import { IsString, Matches, MaxLength } from 'class-validator';
import { DATABASE_NAME, REMOTE } from 'src/modules/databases/database-names';
import type { DatabaseHostEntity } from 'src/modules/databases/database-host.entity';
import type { DatabaseStatus, ServerDatabaseEntity } from 'src/modules/databases/server-database.entity';

export class CreateServerDatabaseDto {
  /**
   * Letters, digits and `_`. The database becomes `s{server-id}_{name}` and its user
   * `u{server-id}_{name}`; the name may be as long as keeps the user within MySQL's 32 characters.
   */
  @IsString()
  @MaxLength(48)
  @Matches(DATABASE_NAME, { message: 'name may hold only letters, digits and _' })
  name!: string;

  /** Where connections may come from: an IP, a host name or a pattern; `%` = any source. */
  @IsString()
  @Matches(REMOTE, { message: 'remote must be 1 to 60 of letters, digits and . % _ : / -; % means any source' })
  remote!: string;
}

export class DatabaseHostAddressDto {
  hostname!: string;
  port!: number;
}

/** A list element (and the record of a rotation). Never holds a password. */
export class ServerDatabaseResponseDto {
  id!: string;
  name!: string;
  username!: string;
  remote!: string;
  status!: DatabaseStatus;
  host!: DatabaseHostAddressDto;
  createdAt!: string;
  updatedAt!: string;
}

/** The `data` of a creation; its `meta.password` is the only time the password is shown. */
export class CreatedServerDatabaseDto {
  id!: string;
  name!: string;
  username!: string;
  host!: string;
  port!: number;
}

export class DatabasePasswordMetaDto {
  password!: string;
}

export const toServerDatabaseResponse = (d: ServerDatabaseEntity, host: DatabaseHostEntity): ServerDatabaseResponseDto => ({
  id: d.id,
  name: d.database,
  username: d.username,
  remote: d.remote,
  status: d.status,
  host: { hostname: host.host, port: host.port },
  createdAt: d.createdAt.toISOString(),
  updatedAt: d.updatedAt.toISOString(),
});

export const toCreatedServerDatabase = (d: ServerDatabaseEntity, host: DatabaseHostEntity): CreatedServerDatabaseDto => ({
  id: d.id,
  name: d.database,
  username: d.username,
  host: host.host,
  port: host.port,
});
