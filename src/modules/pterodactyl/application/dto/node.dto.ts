import { PartialType } from '@nestjs/swagger';
import { IsIn, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { Optional } from 'src/common/validation/decorators';
import { NODE_SCHEMES } from 'src/modules/nodes/node.entity';
import { LaravelBoolean, LaravelInt } from 'src/modules/pterodactyl/common/laravel-rules';

/** Pterodactyl's node body (StoreNodeRequest, from the Node model's rules). */
export class StoreNodeBody {
  @Matches(/^[\w .-]{1,100}$/)
  name!: string;

  @Optional({ nullable: true })
  @IsString()
  @MaxLength(65_535)
  description?: string | null;

  @LaravelInt()
  @Min(1)
  location_id!: number;

  @Optional()
  @LaravelBoolean()
  public?: boolean;

  @IsString()
  @Matches(/^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?$/)
  fqdn!: string;

  @IsIn(NODE_SCHEMES)
  scheme!: 'http' | 'https';

  @Optional()
  @LaravelBoolean()
  behind_proxy?: boolean;

  @Optional()
  @LaravelBoolean()
  maintenance_mode?: boolean;

  @LaravelInt()
  @Min(1)
  @Max(2_147_483_647)
  memory!: number;

  @Optional()
  @LaravelInt()
  @Min(-1)
  @Max(10_000)
  memory_overallocate?: number;

  @LaravelInt()
  @Min(1)
  @Max(2_147_483_647)
  disk!: number;

  @Optional()
  @LaravelInt()
  @Min(-1)
  @Max(10_000)
  disk_overallocate?: number;

  @Optional()
  @LaravelInt()
  @Min(1)
  @Max(1024)
  upload_size?: number;

  @Optional()
  @LaravelInt()
  @Min(1)
  @Max(65_535)
  daemon_listen?: number;

  @Optional()
  @LaravelInt()
  @Min(1)
  @Max(65_535)
  daemon_sftp?: number;

  @Optional()
  @Matches(/^\/[\w.\-/]+$/)
  daemon_base?: string;
}

/** On update every field is optional. */
export class UpdateNodeBody extends PartialType(StoreNodeBody, { skipNullProperties: false }) {}

/** The body in Hatchery's field names, only what was given. */
export const toHatchery = (b: UpdateNodeBody) => {
  const fields = {
    name: b.name,
    description: b.description,
    locationId: b.location_id === undefined ? undefined : String(b.location_id),
    public: b.public,
    fqdn: b.fqdn,
    scheme: b.scheme,
    behindProxy: b.behind_proxy,
    maintenanceMode: b.maintenance_mode,
    memory: b.memory,
    memoryOverallocate: b.memory_overallocate,
    disk: b.disk,
    diskOverallocate: b.disk_overallocate,
    uploadSize: b.upload_size,
    daemonListen: b.daemon_listen,
    daemonSftp: b.daemon_sftp,
    daemonBase: b.daemon_base,
  };
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as Partial<typeof fields>;
};
