import { applyDecorators, CanActivate, createParamDecorator, ExecutionContext, Injectable, OnModuleInit, SetMetadata, Type, UseGuards } from '@nestjs/common';
import type { AuthenticatedRequest } from 'src/common/auth/auth-context';
import { AdminNodeParamGuard } from 'src/modules/nodes/admin-node-scope';
import { AdminServerNodeGuard } from 'src/modules/servers/admin-server-scope';
import { Reflector } from '@nestjs/core';
import { ApiExcludeController } from '@nestjs/swagger';
import { PterodactylOnly } from 'src/common/auth/authenticated.decorator';
import { bearerToken, isPterodactylKeyShape } from 'src/common/auth/bearer';
import type { Actor } from 'src/common/auth/current-actor.decorator';
import { AppException } from 'src/common/errors/app.exception';
import { headerOf, HttpRequest } from 'src/common/http/http';
import { RateLimitTrackers } from 'src/common/rate-limit/rate-limit-trackers';
import { ApplicationResource, PterodactylKeyType } from 'src/modules/pterodactyl/keys/pterodactyl-key.entity';
import { ipAllowed, keyAllows, PterodactylKeysService, ResolvedPterodactylKey } from 'src/modules/pterodactyl/keys/pterodactyl-keys.service';
import { PterodactylError } from 'src/modules/pterodactyl/common/pterodactyl-errors';
import { PanelSettings } from 'src/modules/settings/panel-settings.service';
import { AdminRoles } from 'src/modules/roles/admin-roles';
import { type AdminArea, scopeOf } from 'src/common/auth/admin-scope';

const ROUTE_METADATA = 'hatchery:pterodactyl-route';

/**
 * How an application route keeps within the nodes of a key whose owner's grant is limited to some
 * (docs/permissions.md#administrator-roles): its list is filtered (`list`, with `@AdminNodes()`), or
 * the server or node its path names is checked (404 outside). A route with none refuses such a key.
 */
type NodeCheck = 'list' | 'server' | 'node';

type RouteRule = { family: 'client' } | { family: 'application'; resource: ApplicationResource; access: 'read' | 'write'; nodes?: NodeCheck };


type PterodactylRequest = HttpRequest & { pterodactylKey?: ResolvedPterodactylKey };

const resolved = new WeakMap<HttpRequest, Promise<ResolvedPterodactylKey | null>>();

/** The Pterodactyl key a request's Bearer token stands for, looked up once per request (rate limits and the guard share it). */
const keyOfRequest = (req: HttpRequest, keys: PterodactylKeysService): Promise<ResolvedPterodactylKey | null> => {
  let key = resolved.get(req);
  if (!key) {
    const bearer = bearerToken(headerOf(req, 'authorization'));
    key = bearer && isPterodactylKeyShape(bearer) ? keys.resolve(bearer) : Promise.resolve(null);
    resolved.set(req, key);
  }
  return key;
};

/**
 * Rate limits count a request made with a live Pterodactyl key against that key, as they count
 * Hatchery's own keys (a billing system's many keys behind one address do not share one count), and
 * against its owner under the rules counted by account (password, e-mail and two-factor changes); a
 * key that does not verify counts against the address.
 */
@Injectable()
export class PterodactylKeyRateLimitTracker implements OnModuleInit {
  constructor(
    private readonly trackers: RateLimitTrackers,
    private readonly keys: PterodactylKeysService,
  ) {}

  onModuleInit(): void {
    this.trackers.register(async (req) => {
      const key = await keyOfRequest(req, this.keys);
      return key ? { tracker: `pterodactyl-key:${key.identifier}`, userId: key.user.id } : null;
    });
  }
}

/**
 * Authenticates a Pterodactyl key in Pterodactyl's order (its AuthenticateKey, AuthenticateIPAccess,
 * AuthenticateApplicationUser middleware, then AdminAcl): the key (401), the caller's address (403),
 * an application key's owner being an administrator (403), the key's permission for the resource (403).
 */
@Injectable()
export class PterodactylKeyGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly keys: PterodactylKeysService,
    private readonly settings: PanelSettings,
    private readonly roles: AdminRoles,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const rule = this.reflector.getAllAndOverride<RouteRule | undefined>(ROUTE_METADATA, [context.getHandler(), context.getClass()]);
    if (!rule) {
      throw new Error('PterodactylKeyGuard on a route without a Pterodactyl route rule');
    }
    const req = context.switchToHttp().getRequest<PterodactylRequest>();
    const key = await keyOfRequest(req, this.keys);
    if (!key || (rule.family === 'application' && key.keyType !== PterodactylKeyType.APPLICATION)) {
      throw new AppException(PterodactylError.UNAUTHENTICATED);
    }
    if (rule.family === 'client' && key.keyType !== PterodactylKeyType.CLIENT) {
      throw new AppException(PterodactylError.APPLICATION_KEY_ON_CLIENT);
    }
    if (!ipAllowed(key.allowedIps, req.ip)) {
      throw new AppException(PterodactylError.IP_NOT_ALLOWED, {
        message: `This IP address (${req.ip}) does not have permission to access the API using these credentials.`,
      });
    }
    // A suspended owner's keys are refused, as every other way in is (sessions, Hatchery keys, SFTP).
    if (key.user.suspended) {
      throw new AppException(PterodactylError.ACCOUNT_SUSPENDED);
    }
    // Pterodactyl's RequireTwoFactorAuthentication, for both key kinds (Hatchery's own keys are refused the same way).
    if (this.settings.holdsForTwoFactorSetup(key.user)) {
      throw new AppException(PterodactylError.TWO_FACTOR_REQUIRED);
    }
    if (rule.family === 'application') {
      // The key never reaches beyond its owner: a demoted owner means a dead key; a role holder's key
      // reaches only what the roles grant, within their nodes where they are limited to some.
      const grants = this.roles.grantsOfUser(key.user);
      if (grants.scopes.size === 0) {
        throw new AppException(PterodactylError.NOT_ADMIN);
      }
      const nodes = grants.scopes.get(scopeOf(APPLICATION_AREAS[rule.resource], rule.access));
      if (nodes === undefined || (nodes !== null && rule.nodes === undefined) || !keyAllows(key.permissions, rule.resource, rule.access)) {
        throw new AppException(PterodactylError.UNAUTHORIZED);
      }
      (req as AuthenticatedRequest).adminNodes = nodes;
    }
    await this.keys.markUsed(key);
    req.pterodactylKey = key;
    return true;
  }
}

/** The administration area each application resource belongs to (docs/permissions.md#administrator-roles). */
const APPLICATION_AREAS: Record<ApplicationResource, AdminArea> = {
  servers: 'servers',
  nodes: 'nodes',
  allocations: 'nodes',
  users: 'users',
  locations: 'locations',
  nests: 'eggs',
  eggs: 'eggs',
  database_hosts: 'database_hosts',
  server_databases: 'servers',
};

/** The route's paths: both the real application path and the one under `/pterodactyl`. */
export const applicationPaths = (path: string): string[] => [`api/application/${path}`, `pterodactyl/api/application/${path}`];

/** A controller of the layer: out of Hatchery's OpenAPI document (docs/pterodactyl-compat.md#openapi). */
export const PterodactylController = (): ClassDecorator => applyDecorators(ApiExcludeController(), PterodactylOnly());

const NODE_GUARDS: Record<NodeCheck, Type<CanActivate>[]> = { list: [], server: [AdminServerNodeGuard], node: [AdminNodeParamGuard] };

/** An application API route: an application key with `access` on `resource`; `nodes`: how it keeps within a role's nodes. */
export const ApplicationRoute = (resource: ApplicationResource, access: 'read' | 'write', nodes?: NodeCheck): MethodDecorator =>
  applyDecorators(
    SetMetadata(ROUTE_METADATA, { family: 'application', resource, access, ...(nodes ? { nodes } : {}) } satisfies RouteRule),
    UseGuards(PterodactylKeyGuard, ...(nodes ? NODE_GUARDS[nodes] : [])),
  );

/** A client API route: a client key. */
export const ClientRoute = (): MethodDecorator => applyDecorators(SetMetadata(ROUTE_METADATA, { family: 'client' } satisfies RouteRule), UseGuards(PterodactylKeyGuard));

/** The key the request authenticated with, and its owner. */
export const PterodactylCaller = createParamDecorator((_data: unknown, ctx: ExecutionContext): ResolvedPterodactylKey => {
  const key = ctx.switchToHttp().getRequest<PterodactylRequest>().pterodactylKey;
  if (!key) {
    throw new Error('PterodactylCaller on a route without PterodactylKeyGuard');
  }
  return key;
});

/** Who made a change through the layer, as the audit log records it. */
export const PterodactylActor = createParamDecorator((_data: unknown, ctx: ExecutionContext): Actor => {
  const req = ctx.switchToHttp().getRequest<PterodactylRequest>();
  const key = req.pterodactylKey;
  if (!key) {
    throw new Error('PterodactylActor on a route without PterodactylKeyGuard');
  }
  return { userId: key.user.id, username: key.user.username, email: key.user.email, via: `pterodactyl-key:${key.identifier}`, ip: req.ip, fullAdmin: key.user.admin };
});

/** The request itself (for pagination links). */
export const PterodactylRequestOf = createParamDecorator((_data: unknown, ctx: ExecutionContext): HttpRequest => ctx.switchToHttp().getRequest<HttpRequest>());
