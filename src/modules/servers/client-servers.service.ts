import { Injectable } from '@nestjs/common';
import type { Actor } from 'src/common/auth/current-actor.decorator';
import { AdminScope } from 'src/common/auth/admin-scope';
import { AuthContext, holdsAdminScope } from 'src/common/auth/auth-context';
import { AppException } from 'src/common/errors/app.exception';
import { CursorPage, CursorPaginated, cursorPaginated } from 'src/common/http/cursor';
import { Page, paginated, Paginated } from 'src/common/http/pagination';
import { DaemonGateway, POWER_ACTIONS, PowerAction } from 'src/modules/daemon-gateway/daemon.gateway';
import { DaemonTokenSigner } from 'src/modules/daemon-gateway/daemon-token-signer';
import {
  ClientServerDetailsDto,
  PowerResultDto,
  ServerActivityDto,
  ServerDetailsDto,
  toClientServerDetails,
  toListedServerDetails,
  WebsocketTokenDto,
  WebsocketUnavailableDto,
} from 'src/modules/servers/dto/server-response.dto';
import { ServerResourcesDto, toServerResources } from 'src/modules/servers/dto/server-resources.dto';
import type { ServerAccess } from 'src/modules/servers/server-access';
import { ALL_SERVER_PERMISSIONS, isServerPermission, WINGS_ADMIN_EXTRAS } from 'src/modules/servers/server-permissions';
import { ServerError } from 'src/modules/servers/servers.errors';
import type { ServerEntity } from 'src/modules/servers/server.entity';
import { ServerSnapshot, wingsPermissionsOf } from 'src/modules/servers/server-context';
import { ClientListScope, ServerListRepository } from 'src/modules/servers/server-list.repository';
import { ServerAllocations } from 'src/modules/nodes/server-allocations';
import { ServerActivityLog } from 'src/modules/servers/server-activity';
import type { ServerActivityEntity } from 'src/modules/servers/server-activity.entity';
import type { ServerSearchFilters, ServerSearchScope } from 'src/modules/servers/server-search';
import { ServerSearchRepository } from 'src/modules/servers/server-search.repository';

const STATUS_TIMEOUT_MS = 5_000;

export type WebsocketCredentials = WebsocketTokenDto | WebsocketUnavailableDto;

/** One activity entry as the list shows it; addresses only when `showIp`. */
const activityItem =
  (showIp: boolean) =>
  (r: ServerActivityEntity): ServerActivityDto => ({
    id: r.id,
    event: r.event,
    actor: r.actorId === null && r.actorUsername === null ? null : { id: r.actorId, username: r.actorUsername },
    metadata: r.metadata,
    ip: showIp ? r.ip : null,
    via: r.via,
    timestamp: r.createdAt.toISOString(),
  });

@Injectable()
export class ClientServersService {
  constructor(
    private readonly serverLists: ServerListRepository,
    private readonly nodeAllocations: ServerAllocations,
    private readonly daemon: DaemonGateway,
    private readonly tokens: DaemonTokenSigner,
    private readonly activityLog: ServerActivityLog,
    private readonly serverSearch: ServerSearchRepository,
  ) {}

  /** The identifiers of a page of the servers in `scope` that match `filters` (ServerSearchRepository), in id order, and how many match. */
  identifierPage(scope: ServerSearchScope, filters: ServerSearchFilters, page: Page): Promise<{ identifiers: string[]; total: number }> {
    return this.serverSearch.identifierPage(scope, filters, page.skip, page.perPage);
  }

  /**
   * Live state comes from the daemon on the details page; the list shows the panel's state, so a dead node never slows it.
   * Without a type, the servers the caller owns and those shared with them, as one list.
   */
  async list(auth: AuthContext, type: 'owner' | 'subuser' | 'admin-all' | undefined, page: Page, search?: string): Promise<Paginated<ServerDetailsDto>> {
    const userId = auth.user.id;
    const scope: ClientListScope =
      type === undefined
        ? { kind: 'visible', userId }
        : type === 'subuser'
          ? { kind: 'shared', userId }
          : type === 'admin-all' && holdsAdminScope(auth, AdminScope.SERVERS_READ)
            ? { kind: 'all' }
            : { kind: 'owned', userId };
    const { rows, total } = await this.serverLists.clientListPage(scope, page.skip, page.perPage, search);
    // Owned servers carry every permission, shared ones the permissions granted there.
    const data = rows.map((s) =>
      toListedServerDetails(
        s,
        this.panelStatus(s) ?? 'unknown',
        s.grant === null ? ALL_SERVER_PERMISSIONS : s.grant.filter(isServerPermission),
      ),
    );
    return paginated(data, total, page);
  }

  async details(access: ServerAccess, auth: AuthContext): Promise<ClientServerDetailsDto> {
    const { server } = access;
    const [allocations, status] = await Promise.all([this.nodeAllocations.snapshotsOf(server.id), this.liveStatus(server)]);
    return toClientServerDetails(server, allocations, status, access.permissions, auth.user.username);
  }

  async power(access: ServerAccess, action: string, actor: Actor): Promise<PowerResultDto> {
    if (!(POWER_ACTIONS as readonly string[]).includes(action)) {
      throw new AppException(ServerError.INVALID_POWER_ACTION, { details: { allowed: POWER_ACTIONS } });
    }
    this.ensureUsable(access.server);
    try {
      await this.daemon.power(access.server.node, access.server.uuid, action as PowerAction);
    } catch (e) {
      throw e instanceof AppException ? e : new AppException(ServerError.POWER_FAILED);
    }
    await this.activity(access.server, actor, `server.power.${action}`, { action });
    return { success: true, message: `The ${action} action was sent to the server` };
  }

  async command(access: ServerAccess, command: string, actor: Actor): Promise<void> {
    this.ensureUsable(access.server);
    await this.daemon.commands(access.server.node, access.server.uuid, [command]);
    await this.activity(access.server, actor, 'server.console.command', { command });
  }

  async resources(access: ServerAccess): Promise<ServerResourcesDto> {
    return toServerResources(await this.daemon.liveServerDetails(access.server.node, access.server.uuid));
  }

  /**
   * A console JWT for the node's daemon (DaemonTokenSigner). Owners and admins get `*` (admins also
   * the admin.* extras); anyone else only the Wings permissions their panel permissions map to.
   */
  async websocket(access: ServerAccess, auth: AuthContext): Promise<WebsocketCredentials> {
    const { server } = access;
    if (!server.node) {
      throw new AppException(ServerError.NO_NODE);
    }
    try {
      await this.daemon.currentServerDetails(server.node, server.uuid, STATUS_TIMEOUT_MS);
    } catch (e) {
      if (e instanceof AppException && e.status === 404) {
        return {
          unavailable: true,
          message: 'The server is not available on its node right now',
          diagnostics: {
            error: e.message,
            serverUuid: server.uuid,
            serverIdentifier: server.identifier,
            nodeId: server.nodeId,
            serverStatus: server.status,
          },
        };
      }
      throw new AppException(ServerError.WEBSOCKET_PREPARE_FAILED, { details: { nodeId: server.nodeId } });
    }
    const permissions = [...wingsPermissionsOf(access), ...(access.role !== 'subuser' && auth.user.admin ? WINGS_ADMIN_EXTRAS : [])];
    const token = this.tokens.consoleToken(server.node, server.uuid, auth.user, permissions);
    const scheme = server.node.scheme === 'https' ? 'wss' : 'ws';
    return { token, socket: `${scheme}://${server.node.fqdn}:${server.node.daemonListen}/api/servers/${server.uuid}/ws` };
  }

  /** Addresses are personal data of whoever acted: owners and admins see them, subusers get `ip: null`. */
  async activityPage(access: ServerAccess, page: Page, event?: string): Promise<Paginated<ServerActivityDto>> {
    const [rows, total] = await this.activityLog.page(access.server.id, page, event);
    return paginated(rows.map(activityItem(access.role !== 'subuser')), total, page);
  }

  /** The same list as cursor pages (src/common/http/cursor.ts). */
  async activityCursorPage(access: ServerAccess, page: CursorPage, event?: string): Promise<CursorPaginated<ServerActivityDto>> {
    const keyed = await this.activityLog.keysetPage(access.server.id, page.keyset, page.perPage + 1, event);
    const item = activityItem(access.role !== 'subuser');
    return cursorPaginated(keyed, page, (k) => k.key, (kept) => kept.map((k) => item(k.row)));
  }

  private async activity(server: ServerSnapshot, actor: Actor, event: string, metadata: Record<string, unknown>): Promise<void> {
    await this.activityLog.byUser(server.id, actor, event, metadata);
  }

  private ensureUsable(server: ServerSnapshot): void {
    if (server.suspended) {
      throw new AppException(ServerError.SUSPENDED);
    }
  }

  private panelStatus(server: Pick<ServerEntity, 'status' | 'suspended'>): string | null {
    return server.status ?? (server.suspended ? 'suspended' : null);
  }

  /** The panel's own state when it has one (installing, suspended...), else the daemon's. */
  private async liveStatus(server: ServerSnapshot): Promise<string> {
    const own = this.panelStatus(server);
    if (own) {
      return own;
    }
    try {
      return (await this.daemon.liveServerDetails(server.node, server.uuid, STATUS_TIMEOUT_MS)).state ?? 'offline';
    } catch {
      return 'unknown';
    }
  }
}
