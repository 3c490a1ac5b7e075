import { applyDecorators, CanActivate, ExecutionContext, Injectable, UseGuards } from '@nestjs/common';
import type { AuthenticatedRequest } from 'src/common/auth/auth-context';
import { NodeScoped } from 'src/common/auth/authenticated.decorator';
import { AppException } from 'src/common/errors/app.exception';
import { NodeError } from 'src/modules/nodes/nodes.errors';

/**
 * An admin route about the node its `:node` (else `:id`) names: a caller whose grant is limited to other nodes meets
 * 404, as for a node that does not exist (docs/permissions.md#administrator-roles).
 */
@Injectable()
export class AdminNodeParamGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const req = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const params = req.params as Record<string, string | undefined>;
    const id = params.node ?? params.id;
    if (req.adminNodes && (id === undefined || !req.adminNodes.has(id))) {
      throw new AppException(NodeError.NOT_FOUND);
    }
    return true;
  }
}

/** The route's `:id` is a node: reachable by a node-limited grant for its own nodes only. */
export const NodeParamScoped = (): MethodDecorator & ClassDecorator => applyDecorators(NodeScoped(), UseGuards(AdminNodeParamGuard));
