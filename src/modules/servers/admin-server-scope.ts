import { applyDecorators, CanActivate, ExecutionContext, Injectable, UseGuards } from '@nestjs/common';
import type { AuthenticatedRequest } from 'src/common/auth/auth-context';
import { NodeScoped } from 'src/common/auth/authenticated.decorator';
import { AppException } from 'src/common/errors/app.exception';
import { DECIMAL_ID } from 'src/common/validation/decimal-id.pipe';
import { ServerError } from 'src/modules/servers/servers.errors';
import { ServerRecords } from 'src/modules/servers/server-records';

/**
 * An admin route about the server its `:server` (else `:id`) names: a caller whose grant is limited to some nodes
 * reaches only the servers on them, and meets 404 for any other, as for a server that does not exist
 * (docs/permissions.md#administrator-roles).
 */
@Injectable()
export class AdminServerNodeGuard implements CanActivate {
  constructor(private readonly servers: ServerRecords) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<AuthenticatedRequest>();
    if (!req.adminNodes) {
      return true;
    }
    const params = req.params as Record<string, string | undefined>;
    const id = params.server ?? params.id ?? '';
    const nodeId = DECIMAL_ID.test(id) ? await this.servers.nodeOf(id) : null;
    if (nodeId === null || !req.adminNodes.has(nodeId)) {
      throw new AppException(ServerError.NOT_FOUND);
    }
    return true;
  }
}

/** The route's `:id` is a server: reachable by a node-limited grant for the servers on its nodes only. */
export const ServerNodeScoped = (): MethodDecorator & ClassDecorator => applyDecorators(NodeScoped(), UseGuards(AdminServerNodeGuard));
