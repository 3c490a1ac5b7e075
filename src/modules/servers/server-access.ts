import { applyDecorators, CanActivate, createParamDecorator, ExecutionContext, Injectable, SetMetadata, UseGuards } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AdminScope } from 'src/common/auth/admin-scope';
import { AuthenticatedRequest, AuthContext, holdsAdminScope } from 'src/modules/auth/auth-context';
import { AuthError } from 'src/common/auth/auth.errors';
import { Authenticated } from 'src/common/auth/authenticated.decorator';
import { AppException } from 'src/common/errors/app.exception';
import { ALL_SERVER_PERMISSIONS, isServerPermission, ServerPermission } from 'src/modules/servers/server-permissions';
import { ServerError } from 'src/modules/servers/servers.errors';
import type { LoadedServer } from 'src/modules/servers/server.entity';
import { ServersRepository } from 'src/modules/servers/servers.repository';
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

/** What an admin's `servers.read` covers on a server reached through admin rights; every other permission needs `servers.write`. */
export const READ_PERMISSIONS: readonly ServerPermission[] = [
  'server.view',
  'websocket.connect',
  'server.files.read',
  'server.backup.read',
  'server.backup.download',
  'server.database.read',
  'server.schedule.read',
  'server.subuser.read',
  'server.allocation.read',
  'server.startup.read',
  'server.activity.read',
];

const isRead = (permission: ServerPermission): boolean => READ_PERMISSIONS.includes(permission);

/**
 * The server permissions admin rights give the caller on any server: all of them by session or by
 * a key holding both server scopes, the reads with `servers.read`, the rest with `servers.write`.
 */
const adminPermissions = (auth: AuthContext): readonly ServerPermission[] => {
  const read = holdsAdminScope(auth, AdminScope.SERVERS_READ);
  const write = holdsAdminScope(auth, AdminScope.SERVERS_WRITE);
  return read && write ? ALL_SERVER_PERMISSIONS : ALL_SERVER_PERMISSIONS.filter((p) => (isRead(p) ? read : write));
};

/**
 * Owners hold every server permission, subusers what they were granted, admins what their
 * credential's server scopes allow (all of it by session). Anyone else sees a 404, as if the
 * server did not exist. With `permission`, an admin key that reaches the server but lacks the scope
 * for it gets 403 MISSING_SCOPE, unless a subuser grant of the same user covers it.
 */
@Injectable()
export class ServerAccessService {
  constructor(
    private readonly servers: ServersRepository,
    private readonly subusers: SubusersRepository,
  ) {}

  /** The server the schedule runner acts on: there is no caller, so no role or permissions to resolve. */
  forRunner(id: string): Promise<LoadedServer | null> {
    return this.servers.findById(id);
  }

  async resolve(auth: AuthContext, ref: string | undefined, permission?: ServerPermission): Promise<ServerAccess> {
    if (!isServerRef(ref)) {
      throw new AppException(ServerError.IDENTIFIER_INVALID);
    }
    const server = await this.servers.findByRef(ref);
    if (!server) {
      throw new AppException(ServerError.NOT_FOUND);
    }
    if (server.ownerId === auth.user.id) {
      return { server, role: 'owner', permissions: ALL_SERVER_PERMISSIONS };
    }
    const asAdmin = adminPermissions(auth);
    if (asAdmin.length === ALL_SERVER_PERMISSIONS.length) {
      return { server, role: 'admin', permissions: ALL_SERVER_PERMISSIONS };
    }
    const grant = await this.subusers.findGrant(server.id, auth.user.id);
    const granted = grant ? grant.permissions.filter(isServerPermission) : [];
    if (!grant && asAdmin.length === 0) {
      throw new AppException(ServerError.NOT_FOUND);
    }
    // Each permission is held as an admin or as a subuser; the role is the one that covers this request, admin first.
    const permissions = ALL_SERVER_PERMISSIONS.filter((p) => granted.includes(p) || asAdmin.includes(p));
    const asAdminHere = permission === undefined ? asAdmin.length > 0 : asAdmin.includes(permission);
    const role: ServerRole = grant && !asAdminHere ? 'subuser' : 'admin';
    if (role === 'admin' && permission !== undefined && !asAdmin.includes(permission)) {
      throw new AppException(AuthError.MISSING_SCOPE, { message: `The API key lacks the ${missingScopeFor(permission)} scope this action requires` });
    }
    return { server, role, permissions };
  }
}

const missingScopeFor = (permission: ServerPermission): AdminScope => (isRead(permission) ? AdminScope.SERVERS_READ : AdminScope.SERVERS_WRITE);

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
    const access = await this.access.resolve(req.auth, typeof ref === 'string' ? ref : undefined, permission);
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

/** A client route on `{server}` that needs `permission` there (docs/api.md#server-access). */
export const ServerRoute = (permission: ServerPermission): MethodDecorator =>
  applyDecorators(Authenticated(), SetMetadata(SERVER_PERMISSION_METADATA, permission), UseGuards(ServerAccessGuard));

export const CurrentServer = createParamDecorator((_data: unknown, ctx: ExecutionContext): ServerAccess => {
  const access = ctx.switchToHttp().getRequest<ServerRequest>().serverAccess;
  if (!access) {
    throw new Error('CurrentServer used on a route without @ServerRoute');
  }
  return access;
});
