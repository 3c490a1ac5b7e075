import { MountResponseDto } from 'src/modules/mounts/dto/mount.dto';
import type { ServerMountRow } from 'src/modules/mounts/mounts.service';
import { SyncOutcomeDto } from 'src/modules/servers/dto/server-response.dto';

/** A mount on the admin server page: attached or not, and what it is linked to. */
export class AdminServerMountDto extends MountResponseDto {
  attached!: boolean;
  /** Linked to the server's egg. */
  eggLinked!: boolean;
  /** Linked to the server's node; an attached mount reaches Wings only while it is. */
  nodeLinked!: boolean;
}

/** After an attach or detach: whether the node was told (it applies the change at the server's next start either way). */
export class ServerMountChangeDto extends SyncOutcomeDto {
  /** Whether this call changed anything (attaching twice is a no-op). */
  changed!: boolean;
}

/** A mount as the server's owner and subusers see it. */
export class ClientServerMountDto {
  name!: string;
  description!: string | null;
  /** Where it appears inside the server's container. */
  target!: string;
  readOnly!: boolean;
}

export const toAdminServerMount = ({ mount, attached, eggLinked, nodeLinked }: ServerMountRow): AdminServerMountDto => ({
  id: mount.id,
  uuid: mount.uuid,
  name: mount.name,
  description: mount.description,
  source: mount.source,
  target: mount.target,
  readOnly: mount.readOnly,
  userMountable: mount.userMountable,
  createdAt: mount.createdAt.toISOString(),
  updatedAt: mount.updatedAt.toISOString(),
  attached,
  eggLinked,
  nodeLinked,
});
