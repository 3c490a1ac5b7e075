import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { AuthenticatedRequest } from 'src/common/auth/auth-context';

/** Who made a change, as the audit log records it. */
export interface Actor {
  userId: string;
  username: string;
  email: string;
  /** `session`, or `api-key:<identifier>`. */
  via: string;
  ip: string | null;
  /**
   * false when the caller administers only through roles: it may not touch full administrators, role
   * holders, the admin flag or who holds a role (UsersService). Undefined for the CLI.
   */
  fullAdmin?: boolean;
}

/** The caller of an `@Authenticated` route, with its address, for audit entries. */
export const CurrentActor = createParamDecorator((_data: unknown, ctx: ExecutionContext): Actor => {
  const req = ctx.switchToHttp().getRequest<AuthenticatedRequest>();
  const auth = req.auth;
  if (!auth) {
    throw new Error('CurrentActor used on a route without @Authenticated');
  }
  return {
    userId: auth.user.id,
    username: auth.user.username,
    email: auth.user.email,
    via: auth.method === 'session' ? 'session' : `api-key:${auth.apiKey.identifier}`,
    ip: req.ip,
    fullAdmin: auth.user.admin,
  };
});
