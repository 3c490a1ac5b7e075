import { applyDecorators, CanActivate, createParamDecorator, ExecutionContext, Injectable, SetMetadata, UseGuards } from '@nestjs/common';
import { ALL_ADMIN_SCOPES } from 'src/common/auth/admin-scope';
import type { ApiKeyEntity } from 'src/modules/api-keys/api-key.entity';
import type { AuthContext, AuthenticatedRequest } from 'src/common/auth/auth-context';
import type { Actor } from 'src/common/auth/current-actor.decorator';
import { ClientRoute } from 'src/modules/pterodactyl/common/pterodactyl-route';
import type { ResolvedPterodactylKey } from 'src/modules/pterodactyl/keys/pterodactyl-keys.service';
import { SERVER_PERMISSION_METADATA, ServerAccessGuard } from 'src/modules/servers/server-access';
import type { ServerPermission } from 'src/modules/servers/server-permissions';

type ClientRequest = AuthenticatedRequest & { pterodactylKey?: ResolvedPterodactylKey };

/**
 * The caller of a client key as Hatchery's own client API sees a caller: the key's owner through an
 * API key that holds every admin scope its owner holds (Pterodactyl's client key acts with all of
 * its user's rights; Hatchery's full keys do the same). Audit entries name the Pterodactyl key.
 */
const authOf = (key: ResolvedPterodactylKey): AuthContext => ({
  method: 'api-key',
  user: key.user,
  apiKey: { id: key.id, identifier: key.identifier, userId: key.user.id, name: key.memo } as ApiKeyEntity,
  scopes: new Set(key.user.admin ? ALL_ADMIN_SCOPES : []),
  limited: false,
});

/** After PterodactylKeyGuard: the client key's owner becomes the request's AuthContext, for Hatchery's guards and services. */
@Injectable()
export class PterodactylClientAuthGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const req = context.switchToHttp().getRequest<ClientRequest>();
    if (!req.pterodactylKey) {
      throw new Error('PterodactylClientAuthGuard ran before PterodactylKeyGuard');
    }
    req.auth = authOf(req.pterodactylKey);
    return true;
  }
}


/** A client API route on the account (no server). */
export const ClientAccountRoute = (): MethodDecorator => applyDecorators(ClientRoute(), UseGuards(PterodactylClientAuthGuard));

/**
 * A client API route on `{server}`: the same check as Hatchery's `@ServerRoute(permission)` (the
 * server must exist for the caller, the permission held, a suspended server only viewed).
 */
export const ClientServerRoute = (permission: ServerPermission): MethodDecorator =>
  applyDecorators(ClientRoute(), UseGuards(PterodactylClientAuthGuard), SetMetadata(SERVER_PERMISSION_METADATA, permission), UseGuards(ServerAccessGuard));

/** Who acted through the layer, as activity and audit entries record it. */
export const ClientActor = createParamDecorator((_data: unknown, ctx: ExecutionContext): Actor => {
  const req = ctx.switchToHttp().getRequest<ClientRequest>();
  const key = req.pterodactylKey;
  if (!key) {
    throw new Error('ClientActor on a route without PterodactylKeyGuard');
  }
  return { userId: key.user.id, username: key.user.username, email: key.user.email, via: `pterodactyl-key:${key.identifier}`, ip: req.ip };
});

/** The caller's AuthContext (ClientAccountRoute / ClientServerRoute). */
export const ClientAuth = createParamDecorator((_data: unknown, ctx: ExecutionContext): AuthContext => {
  const auth = ctx.switchToHttp().getRequest<ClientRequest>().auth;
  if (!auth) {
    throw new Error('ClientAuth on a route without PterodactylClientAuthGuard');
  }
  return auth;
});
