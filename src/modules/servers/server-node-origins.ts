import { Injectable } from '@nestjs/common';
import { AuthContext, isLimitedKey } from 'src/common/auth/auth-context';
import { NodeOrigins } from 'src/modules/nodes/node-origins';
import { ServerListRepository } from 'src/modules/servers/server-list.repository';

/**
 * Which daemons a caller's web UI page may reach (the console's WebSocket): the nodes of the servers it
 * can open, owned or shared with it as a subuser, and every node for an administrator. Read when the page
 * is served (one indexed query for a non-admin, none for an admin), so it is never stale for a new page:
 * nothing to invalidate when access changes.
 */
@Injectable()
export class ServerNodeOrigins {
  constructor(
    private readonly servers: ServerListRepository,
    private readonly origins: NodeOrigins,
  ) {}

  async forCaller(auth: AuthContext): Promise<string[]> {
    if (auth.user.admin && !isLimitedKey(auth)) {
      return this.origins.connectSources();
    }
    return this.origins.ofNodes(await this.servers.nodeIdsVisibleTo(auth.user.id));
  }
}
