import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiBearerAuth, ApiCookieAuth, ApiSecurity } from '@nestjs/swagger';
import type { AdminScope } from 'src/common/auth/admin-scope';

export const AUTH_METADATA = 'hatchery:auth';
export const PUBLIC_METADATA = 'hatchery:public';
export const DAEMON_METADATA = 'hatchery:daemon';
export const PTERODACTYL_METADATA = 'hatchery:pterodactyl';
export const SESSION_COOKIE = 'hatchery_session';
export const NODE_SCOPED_METADATA = 'hatchery:node-scoped';

export interface AuthenticatedOptions {
  /**
   * Admin route: the caller's grants (a full administrator's, or their roles') must hold this scope;
   * an API key must also carry it. A grant limited to some nodes reaches the route only when it is
   * `@NodeScoped()`.
   */
  admin?: AdminScope;
  /** Only a full administrator (by a session, or a key with every admin scope): roles never reach it. */
  fullAdmin?: boolean;
  /**
   * Any administrator: a full one, or anyone holding a role (by a key, with some admin scope). For
   * the caller's own application keys, which can never reach beyond their owner's grants.
   */
  anyAdmin?: boolean;
  /** Only an API key may call this route (a session gets 401). */
  apiKeyOnly?: boolean;
  /** Only a signed-in session may call this route (account changes, sign-out). */
  sessionOnly?: boolean;
  /** The session must be fresh (signed in within the last 5 minutes). */
  freshSession?: boolean;
  /**
   * The route manages the account's credentials (API keys, SSH keys, sessions): an API key limited
   * by scopes is refused, so that it cannot mint a way around its own limits.
   */
  credentials?: boolean;
  /**
   * The route stays open to a session the two-factor policy holds at setup (docs/api.md#two-factor-policy):
   * what setting up a second factor needs. Every other route answers 403 TWO_FACTOR_SETUP_REQUIRED.
   */
  twoFactorSetup?: boolean;
}

/** The route needs a caller; options narrow who. Every route declares this or `@Public()`. */
export const Authenticated = (options: AuthenticatedOptions = {}): MethodDecorator & ClassDecorator =>
  applyDecorators(
    SetMetadata(AUTH_METADATA, options),
    ...(options.sessionOnly ? [] : [ApiBearerAuth(), ApiSecurity('api-key')]),
    ...(options.apiKeyOnly ? [] : [ApiCookieAuth(SESSION_COOKIE)]),
  );

/**
 * The admin route keeps within the nodes the caller's grant reaches (`req.adminNodes`): it checks the
 * server or node it names (a guard of its module) or filters its list (`@AdminNodes()`). An admin route
 * without it is closed to a grant limited to some nodes.
 */
export const NodeScoped = (): MethodDecorator & ClassDecorator => SetMetadata(NODE_SCOPED_METADATA, true);

/** The route is open to anonymous callers. */
export const Public = (): MethodDecorator & ClassDecorator => SetMetadata(PUBLIC_METADATA, true);

/** The route is called by a node's daemon and checked by DaemonTokenGuard instead of a user credential. */
export const DaemonOnly = (): MethodDecorator & ClassDecorator => SetMetadata(DAEMON_METADATA, true);

/**
 * The route belongs to the Pterodactyl-compatible layer: its own guard (PterodactylKeyGuard, on the
 * route) authenticates a `ptla_`/`ptlc_` key instead of Hatchery's credentials.
 */
export const PterodactylOnly = (): MethodDecorator & ClassDecorator => SetMetadata(PTERODACTYL_METADATA, true);
