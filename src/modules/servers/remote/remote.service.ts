import { Injectable } from '@nestjs/common';
import { Clock } from 'src/common/clock';
import { about, PanelEvents } from 'src/common/events/panel-events';
import { AppException } from 'src/common/errors/app.exception';
import { NodeEntity } from 'src/modules/nodes/node.entity';
import { ActivityItemDto } from 'src/modules/servers/remote/remote.dto';
import { DaemonServerConfiguration, InstallScript, ServerConfigService } from 'src/modules/servers/server-config.service';
import { ServerError } from 'src/modules/servers/servers.errors';
import { ServerActivityLog } from 'src/modules/servers/server-activity';
import type { LoadedServer } from 'src/modules/servers/server.entity';
import { ServersRepository } from 'src/modules/servers/servers.repository';
import { UserEntity } from 'src/modules/users/user.entity';
import { TransfersService } from 'src/modules/servers/transfers/transfers.service';
import { UsersService } from 'src/modules/users/users.service';

const BOOT_PAGE_DEFAULT = 50;
const BOOT_PAGE_MAX = 500;

/**
 * The boot list's page size from Wings' `boot_servers_per_page`: above the cap it is clamped, below 1
 * it is the default. Wings asks for every later page with the same number and reads `per_page` and
 * `last_page` from the answer, so the pages it walks stay consistent.
 */
export const bootPageSize = (requested: number | undefined): number =>
  requested === undefined || requested < 1 ? BOOT_PAGE_DEFAULT : Math.min(requested, BOOT_PAGE_MAX);

@Injectable()
export class RemoteService {
  constructor(
    private readonly servers: ServersRepository,
    private readonly config: ServerConfigService,
    private readonly clock: Clock,
    private readonly activityLog: ServerActivityLog,
    private readonly users: UsersService,
    private readonly transfers: TransfersService,
    private readonly events: PanelEvents,
  ) {}

  /** Wings reads `meta` as numbers and asks for pages current_page+1..last_page next. */
  async list(node: NodeEntity, page: number, perPage: number) {
    const { ids, total } = await this.servers.idPageOnNode(node.id, (page - 1) * perPage, perPage);
    const configurations = await this.config.configurationsOf(ids);
    const data = ids.flatMap((id) => {
      const configuration = configurations.get(id);
      return configuration ? [{ uuid: configuration.settings.uuid, ...configuration }] : [];
    });
    const from = total === 0 ? 0 : (page - 1) * perPage + 1;
    return {
      data,
      meta: {
        current_page: page,
        from,
        last_page: Math.max(1, Math.ceil(total / perPage)),
        per_page: perPage,
        to: from === 0 ? 0 : from + data.length - 1,
        total,
      },
    };
  }

  /**
   * The server's configuration for the node it is on, or, for the target of its active transfer,
   * with the allocations held for it there (docs/wings.md#transfers).
   */
  async configuration(node: NodeEntity, uuid: string): Promise<DaemonServerConfiguration> {
    const server = await this.servers.findByUuidOnNode(uuid, node.id);
    if (server) {
      return this.config.configuration(server);
    }
    const incoming = await this.transfers.targetConfiguration(node, uuid);
    if (!incoming) {
      throw new AppException(ServerError.NOT_FOUND);
    }
    return incoming;
  }

  async installScript(node: NodeEntity, uuid: string): Promise<InstallScript> {
    return this.config.installScript(await this.server(node, uuid));
  }

  /** Ok → status cleared; failure → install_failed or reinstall_failed. */
  async installStatus(node: NodeEntity, uuid: string, successful: boolean, reinstall: boolean): Promise<void> {
    const server = await this.server(node, uuid);
    await this.servers.update(server.id, {
      status: successful ? null : reinstall ? 'reinstall_failed' : 'install_failed',
      installedAt: this.clock.now(),
    });
    await this.events.publish({ event: successful ? 'server.installed' : 'server.install_failed', ...about(server, node), data: { reinstall } });
  }

  /**
   * Sent once per Wings boot: anything left "installing" or "restoring" there is over. A restore
   * the daemon never reported on did not finish, so it is logged as failed.
   */
  async reset(node: NodeEntity): Promise<void> {
    const now = this.clock.now();
    await this.servers.transaction(async (manager) => {
      for (const server of await this.servers.findRestoringOnNode(node.id, manager)) {
        const started = await this.activityLog.latest(server.id, 'server.backup.restore', manager);
        const { uuid, name } = started?.metadata ?? {};
        const metadata = { ...(started ? { uuid, name } : {}), reason: 'The daemon restarted during the restore' };
        await this.activityLog.byDaemon(server.id, 'server.backup.restore-failed', metadata, { manager, at: now });
      }
      await this.servers.resetStuckOnNode(node.id, manager);
    });
  }

  /** Only `server:*` events of servers on this node are kept; a batch is stored whole or not at all. */
  async recordActivity(node: NodeEntity, items: ActivityItemDto[]): Promise<void> {
    const kept = items.filter((i) => i.event.startsWith('server:'));
    if (kept.length === 0) {
      return;
    }
    const servers = await this.servers.findByUuidsOnNode(node.id, [...new Set(kept.map((i) => i.server))]);
    const byUuid = new Map(servers.map((s) => [s.uuid, s]));
    const users = await this.users.findByUuids([...new Set(kept.map((i) => i.user).filter((u): u is string => !!u))]);
    const entries = kept.flatMap((item) => {
      const server = byUuid.get(item.server);
      if (!server) {
        return [];
      }
      const actor: UserEntity | undefined = item.user ? users.get(item.user) : undefined;
      return [
        {
          serverId: server.id,
          event: `server.${item.event.slice('server:'.length)}`,
          metadata: item.metadata ?? {},
          user: actor ?? null,
          ip: item.ip ?? null,
          at: new Date(item.timestamp),
        },
      ];
    });
    await this.activityLog.many(entries);
  }

  private async server(node: NodeEntity, uuid: string): Promise<LoadedServer> {
    const server = await this.servers.findByUuidOnNode(uuid, node.id);
    if (!server) {
      throw new AppException(ServerError.NOT_FOUND);
    }
    return server;
  }
}
