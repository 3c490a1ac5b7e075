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
