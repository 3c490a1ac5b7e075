import { Injectable, Logger } from '@nestjs/common';
import type { Actor } from 'src/common/auth/current-actor.decorator';
import { AppException } from 'src/common/errors/app.exception';
import { AuditService } from 'src/modules/audit/audit.service';
import { DaemonGateway } from 'src/modules/daemon-gateway/daemon.gateway';
import { MountsService } from 'src/modules/mounts/mounts.service';
import { AdminServerMountDto, ClientServerMountDto, ServerMountChangeDto, toAdminServerMount } from 'src/modules/servers/dto/server-mount.dto';
import type { ServerContext } from 'src/modules/servers/server-context';
import type { LoadedServer } from 'src/modules/servers/server.entity';
import { ServerError } from 'src/modules/servers/servers.errors';
import { ServersRepository } from 'src/modules/servers/servers.repository';
import { errorMessage } from 'src/common/errors/error-message';

/** A server's mounts: attached by administrators, listed to its users, sent to Wings in its configuration. */
@Injectable()
export class ServerMountsService {
  private readonly logger = new Logger(ServerMountsService.name);

  constructor(
    private readonly servers: ServersRepository,
    private readonly mounts: MountsService,
    private readonly daemon: DaemonGateway,
    private readonly audit: AuditService,
  ) {}

  /** The mounts attached to the server and those that could be (linked to its egg and node). */
  async list(serverId: string): Promise<AdminServerMountDto[]> {
    return (await this.mounts.forServer(await this.require(serverId))).map(toAdminServerMount);
  }

  /** Attaches a mount linked to the server's egg and node (409 otherwise); attaching twice changes nothing. */
  attach(serverId: string, mountId: string, actor: Actor): Promise<{ data: AdminServerMountDto[]; meta: ServerMountChangeDto }> {
    return this.change(serverId, mountId, actor, 'attach');
  }

  detach(serverId: string, mountId: string, actor: Actor): Promise<{ data: AdminServerMountDto[]; meta: ServerMountChangeDto }> {
    return this.change(serverId, mountId, actor, 'detach');
  }

  /** What the server's container gets: attached mounts still linked to its node. */
  async forUsers({ server }: ServerContext): Promise<ClientServerMountDto[]> {
    const rows = await this.mounts.forServer(server);
    return rows
      .filter((r) => r.attached && r.nodeLinked)
      .map(({ mount }) => ({ name: mount.name, description: mount.description, target: mount.target, readOnly: mount.readOnly }));
  }

  private async change(
    serverId: string,
    mountId: string,
    actor: Actor,
    how: 'attach' | 'detach',
  ): Promise<{ data: AdminServerMountDto[]; meta: ServerMountChangeDto }> {
    const changed = await this.servers.transaction(async (manager) => {
      const server = await this.servers.findById(serverId, manager);
      if (!server) {
        throw new AppException(ServerError.NOT_FOUND);
      }
      const result = how === 'attach' ? await this.mounts.attach(server, mountId, manager) : await this.mounts.detach(server, mountId, manager);
      if (result.changed) {
        await this.audit.record(manager, actor, {
          action: how === 'attach' ? 'server.mount.attached' : 'server.mount.detached',
          targetType: 'server',
          targetId: serverId,
          changes: { [how === 'attach' ? 'after' : 'before']: { mountId, mount: result.mount.name } },
        });
      }
      return result.changed;
    });
    const server = await this.require(serverId);
    const outcome = await this.sync(server);
    return { data: (await this.mounts.forServer(server)).map(toAdminServerMount), meta: { changed, ...outcome } };
  }

  /** Tells the node to read the configuration again; a node that is down hears of it at the server's next start. */
  private async sync(server: LoadedServer): Promise<{ daemonSynced: boolean; syncError?: string }> {
    try {
      await this.daemon.sync(server.node, server.uuid);
      return { daemonSynced: true };
    } catch (e) {
      const message = errorMessage(e);
      this.logger.warn({ serverId: server.id, error: message }, 'could not sync the server with its daemon after a mount change');
      return { daemonSynced: false, syncError: message };
    }
  }

  private async require(id: string): Promise<LoadedServer> {
    const server = await this.servers.findById(id);
    if (!server) {
      throw new AppException(ServerError.NOT_FOUND);
    }
    return server;
  }
}
