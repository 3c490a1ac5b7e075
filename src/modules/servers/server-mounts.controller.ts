import { Controller, Delete, Get, Param, Put } from '@nestjs/common';
import { ServerNodeScoped } from 'src/modules/servers/admin-server-scope';
import { ApiTags } from '@nestjs/swagger';
import { AdminScope } from 'src/common/auth/admin-scope';
import { Authenticated } from 'src/common/auth/authenticated.decorator';
import { Actor, CurrentActor } from 'src/common/auth/current-actor.decorator';
import { ApiData, ApiDataWithMeta } from 'src/common/http/api-responses';
import { DecimalIdPipe } from 'src/common/validation/decimal-id.pipe';
import { MountError } from 'src/modules/mounts/mounts.errors';
import { AdminServerMountDto, ClientServerMountDto, ServerMountChangeDto } from 'src/modules/servers/dto/server-mount.dto';
import { CurrentServer, ServerAccess, ServerRoute } from 'src/modules/servers/server-access';
import { ServerMountsService } from 'src/modules/servers/server-mounts.service';
import { ServerError } from 'src/modules/servers/servers.errors';

const serverId = new DecimalIdPipe(ServerError.NOT_FOUND);
const mountId = new DecimalIdPipe(MountError.NOT_FOUND);

type Changed = { data: AdminServerMountDto[]; meta: ServerMountChangeDto };

/** Mounts on a server (docs/admin-mounts.md): attached and detached by administrators. */
@ApiTags('admin: servers')
@Controller('api/admin/servers/:id/mounts')
export class AdminServerMountsController {
  constructor(private readonly service: ServerMountsService) {}

  /** Attached mounts, and those that could be (linked to the server's egg and node). */
  @Get()
  @Authenticated({ admin: AdminScope.SERVERS_READ })
  @ServerNodeScoped()
  @ApiData(AdminServerMountDto, { isArray: true })
  async list(@Param('id', serverId) id: string): Promise<{ data: AdminServerMountDto[] }> {
    return { data: await this.service.list(id) };
  }

  /** 409 unless the mount is linked to the server's egg and node; idempotent. The node is told to sync. */
  @Put(':mountId')
  @Authenticated({ admin: AdminScope.SERVERS_WRITE })
  @ServerNodeScoped()
  @ApiDataWithMeta(AdminServerMountDto, ServerMountChangeDto)
  attach(@Param('id', serverId) id: string, @Param('mountId', mountId) mount: string, @CurrentActor() actor: Actor): Promise<Changed> {
    return this.service.attach(id, mount, actor);
  }

  @Delete(':mountId')
  @Authenticated({ admin: AdminScope.SERVERS_WRITE })
  @ServerNodeScoped()
  @ApiDataWithMeta(AdminServerMountDto, ServerMountChangeDto)
  detach(@Param('id', serverId) id: string, @Param('mountId', mountId) mount: string, @CurrentActor() actor: Actor): Promise<Changed> {
    return this.service.detach(id, mount, actor);
  }
}

@ApiTags('client: servers')
@Controller('api/client/servers/:server')
export class ClientServerMountsController {
  constructor(private readonly service: ServerMountsService) {}

  /** The mounts the server's container gets: name, where they appear and whether they are read-only. */
  @Get('mounts')
  @ServerRoute('server.view')
  @ApiData(ClientServerMountDto, { isArray: true })
  async list(@CurrentServer() access: ServerAccess): Promise<{ data: ClientServerMountDto[] }> {
    return { data: await this.service.forUsers(access) };
  }
}
