import { applyDecorators, CanActivate, ExecutionContext, Injectable, UseGuards } from '@nestjs/common';
import type { AuthenticatedRequest } from 'src/common/auth/auth-context';
import { NodeScoped } from 'src/common/auth/authenticated.decorator';
import { AppException } from 'src/common/errors/app.exception';
import { DECIMAL_ID } from 'src/common/validation/decimal-id.pipe';
import { ServerError } from 'src/modules/servers/servers.errors';
import { ServersRepository } from 'src/modules/servers/servers.repository';

/**
 * An admin route about the server its `:id` names: a caller whose grant is limited to some nodes
 * reaches only the servers on them, and meets 404 for any other, as for a server that does not exist
 * (docs/permissions.md#administrator-roles).
 */
@Injectable()
class AdminServerNodeGuard implements CanActivate {
  constructor(private readonly servers: ServersRepository) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<AuthenticatedRequest>();
    if (!req.adminNodes) {
      return true;
    }
    const id = (req.params as Record<string, string | undefined>).id ?? '';
    const server = DECIMAL_ID.test(id) ? await this.servers.findById(id) : null;
    if (!server || !req.adminNodes.has(server.nodeId)) {
      throw new AppException(ServerError.NOT_FOUND);
    }
    return true;
  }
}

/** The route's `:id` is a server: reachable by a node-limited grant for the servers on its nodes only. */
export const ServerNodeScoped = (): MethodDecorator & ClassDecorator => applyDecorators(NodeScoped(), UseGuards(AdminServerNodeGuard));
