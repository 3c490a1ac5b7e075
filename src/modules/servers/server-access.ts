import { applyDecorators, CanActivate, createParamDecorator, ExecutionContext, Injectable, SetMetadata, UseGuards } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { AuthenticatedRequest, AuthContext } from 'src/common/auth/auth-context';
import { Authenticated } from 'src/common/auth/authenticated.decorator';
import { AppException } from 'src/common/errors/app.exception';
import { ALL_SERVER_PERMISSIONS, isServerPermission, ServerPermission } from 'src/modules/servers/server-permissions';
import { ServerError } from 'src/modules/servers/servers.errors';
import { LoadedServer, ServersRepository } from 'src/modules/servers/servers.repository';
import { SubusersRepository } from 'src/modules/servers/subusers/subusers.repository';

export const SERVER_PERMISSION_METADATA = 'hatchery:server-permission';
const SERVER_REF = /^(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9a-z]{8})$/i;

/** A server's full uuid or its 8-character identifier (`{server}` in paths, the end of an SFTP username). */
export const isServerRef = (ref: string | undefined): ref is string => ref !== undefined && SERVER_REF.test(ref);

export type ServerRole = 'owner' | 'admin' | 'subuser';

/** The server a route acts on, and what the caller may do there. */
export interface ServerAccess {
  /** Shared with every request (HotCaches stores it frozen): read it, never change it. */
  server: Readonly<LoadedServer>;
  role: ServerRole;
  permissions: readonly ServerPermission[];
}

type ServerRequest = AuthenticatedRequest & { serverAccess?: ServerAccess };

/**
 * Owners and admins hold every server permission, subusers what they were granted. Anyone else
 * sees a 404, as if the server did not exist.
 */
@Injectable()
export class ServerAccessService {
  constructor(
    private readonly servers: ServersRepository,
    private readonly subusers: SubusersRepository,
  ) {}

  async resolve(auth: AuthContext, ref: string | undefined): Promise<ServerAccess> {
    if (!isServerRef(ref)) {
      throw new AppException(ServerError.IDENTIFIER_INVALID);
    }
    const server = await this.servers.findByRef(ref);
    if (!server) {
      throw new AppException(ServerError.NOT_FOUND);
    }
    if (String(server.ownerId) === String(auth.user.id)) {
      return { server, role: 'owner', permissions: ALL_SERVER_PERMISSIONS };
    }
    if (auth.user.admin) {
      return { server, role: 'admin', permissions: ALL_SERVER_PERMISSIONS };
    }
    const grant = await this.subusers.findGrant(server.id, auth.user.id);
    if (grant) {
      return { server, role: 'subuser', permissions: grant.permissions.filter(isServerPermission) };
    }
    throw new AppException(ServerError.NOT_FOUND);
  }
}

@Injectable()
export class ServerAccessGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly access: ServerAccessService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<ServerRequest>();
    const permission = this.reflector.get<ServerPermission>(SERVER_PERMISSION_METADATA, context.getHandler());
    if (!req.auth) {
      throw new Error('ServerAccessGuard ran before authentication');
    }
    const ref = (req.params as Record<string, unknown>).server;
    const access = await this.access.resolve(req.auth, typeof ref === 'string' ? ref : undefined);
    if (!access.permissions.includes(permission)) {
      throw new AppException(ServerError.PERMISSION_DENIED, { message: `This action requires the ${permission} permission on this server` });
    }
    // A suspended server is frozen for its users: they still see it (and that it is suspended); admins keep every action.
    if (access.server.suspended && access.role !== 'admin' && permission !== 'server.view') {
      throw new AppException(ServerError.SUSPENDED);
    }
    req.serverAccess = access;
    return true;
  }
}

/** A client route on `{server}` that needs `permission` there (interface.md §4). */
export const ServerRoute = (permission: ServerPermission): MethodDecorator =>
  applyDecorators(Authenticated(), SetMetadata(SERVER_PERMISSION_METADATA, permission), UseGuards(ServerAccessGuard));

export const CurrentServer = createParamDecorator((_data: unknown, ctx: ExecutionContext): ServerAccess => {
  const access = ctx.switchToHttp().getRequest<ServerRequest>().serverAccess;
  if (!access) {
    throw new Error('CurrentServer used on a route without @ServerRoute');
  }
  return access;
});
