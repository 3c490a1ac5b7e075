import { ApiParam } from '@nestjs/swagger';
import { applyDecorators, CanActivate, createParamDecorator, ExecutionContext, Injectable, SetMetadata, UseGuards } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthenticatedRequest } from 'src/common/auth/auth-context';
import { Authenticated } from 'src/common/auth/authenticated.decorator';
import { AppException } from 'src/common/errors/app.exception';
import type { ServerPermission } from 'src/modules/servers/server-permissions';
import { ServerContext, ServerContextResolver } from 'src/modules/servers/server-context';
import { ServerError } from 'src/modules/servers/servers.errors';

export const SERVER_PERMISSION_METADATA = 'hatchery:server-permission';

/** The ServerContext of a `@ServerRoute` (the name its handlers' parameters use). */
export type ServerAccess = ServerContext;

type ServerRequest = AuthenticatedRequest & { serverAccess?: ServerContext };

/**
 * Resolves the route's `{server}` for the caller (ServerContextResolver: 404 when it does not exist
 * for them), then requires the route's permission, and refuses a suspended server's users anything
 * but viewing it, and everyone anything but viewing a server that is being transferred.
 */
@Injectable()
export class ServerAccessGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly contexts: ServerContextResolver,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<ServerRequest>();
    const permission = this.reflector.get<ServerPermission>(SERVER_PERMISSION_METADATA, context.getHandler());
    if (!req.auth) {
      throw new Error('ServerAccessGuard ran before authentication');
    }
    const ref = (req.params as Record<string, unknown>).server;
    const access = await this.contexts.forCaller(req.auth, typeof ref === 'string' ? ref : undefined, permission);
    if (!access.permissions.includes(permission)) {
      throw new AppException(ServerError.PERMISSION_DENIED, { message: `This action requires the ${permission} permission on this server` });
    }
    // A suspended server is frozen for its users: they still see it (and that it is suspended); admins keep every action.
    if (access.server.suspended && access.role !== 'admin' && permission !== 'server.view') {
      throw new AppException(ServerError.SUSPENDED);
    }
    // A server moving between nodes is looked at, not used (Pterodactyl's ServerStateConflictException);
    // an administrator may still open its console, to follow the transfer's log.
    if (access.server.transferring && permission !== 'server.view' && !(access.role === 'admin' && permission === 'websocket.connect')) {
      throw new AppException(ServerError.TRANSFERRING);
    }
    req.serverAccess = access;
    return true;
  }
}

/**
 * A client route on `{server}` that needs `permission` there (docs/api.md#server-access). The guard,
 * not a handler parameter, reads `{server}`, so it is declared to the OpenAPI document here.
 */
export const ServerRoute = (permission: ServerPermission): MethodDecorator =>
  applyDecorators(
    Authenticated(),
    SetMetadata(SERVER_PERMISSION_METADATA, permission),
    UseGuards(ServerAccessGuard),
    ApiParam({ name: 'server', type: String, description: "The server's short identifier or UUID" }),
  );

export const CurrentServer = createParamDecorator((_data: unknown, ctx: ExecutionContext): ServerContext => {
  const access = ctx.switchToHttp().getRequest<ServerRequest>().serverAccess;
  if (!access) {
    throw new Error('CurrentServer used on a route without @ServerRoute');
  }
  return access;
});
