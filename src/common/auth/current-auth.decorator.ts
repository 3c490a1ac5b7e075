import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { AuthContext, AuthenticatedRequest } from 'src/common/auth/auth-context';

/** The AuthContext the global guard resolved. Only on `@Authenticated` routes. */
export const CurrentAuth = createParamDecorator((_data: unknown, ctx: ExecutionContext): AuthContext => {
  const auth = ctx.switchToHttp().getRequest<AuthenticatedRequest>().auth;
  if (!auth) {
    throw new Error('CurrentAuth used on a route without @Authenticated');
  }
  return auth;
});

/**
 * On a `@NodeScoped()` admin route: the nodes the caller may reach there, null for every node. Ids of
 * nodes, as strings.
 */
export const AdminNodes = createParamDecorator((_data: unknown, ctx: ExecutionContext): ReadonlySet<string> | null => {
  const req = ctx.switchToHttp().getRequest<AuthenticatedRequest>();
  if (req.adminNodes === undefined) {
    throw new Error('AdminNodes used on a route that is not an admin route');
  }
  return req.adminNodes;
});
