import type { AdminScope } from 'src/common/auth/admin-scope';
import type { HttpRequest } from 'src/common/http/http';

/**
 * The rows an AuthContext carries, each declared by the module that owns it (users: `user`,
 * sessions: `session`, api-keys: `apiKey`) by declaration merging, as HotCacheEntries is: src/common
 * imports nothing from src/modules. Marked public for knip, which does not count the merging as a use.
 * @public
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface AuthContextRows {}
type Row<K extends string> = K extends keyof AuthContextRows ? AuthContextRows[K] : never;

/** Who is calling: a user, by one of a session or an API key. */
export type AuthContext =
  | { method: 'session'; user: Row<'user'>; session: Row<'session'> }
  | { method: 'api-key'; user: Row<'user'>; apiKey: Row<'apiKey'>; scopes: ReadonlySet<AdminScope>; limited: boolean };

/**
 * `adminNodes`: on an admin route, the nodes the caller's grant of its scope reaches (null: every node;
 * set by the auth guard, read by `@NodeScoped()` routes).
 */
export type AuthenticatedRequest = HttpRequest & { auth?: AuthContext; adminNodes?: ReadonlySet<string> | null };

type SessionAuth = Extract<AuthContext, { method: 'session' }>;

/** Narrows an AuthContext on a `sessionOnly` route; the guard has already refused API keys there. */
export const requireSession = (auth: AuthContext): SessionAuth => {
  if (auth.method !== 'session') {
    throw new Error('requireSession on a route that is not sessionOnly');
  }
  return auth;
};

/**
 * An API key that lacks some admin scope its owner holds (a full administrator's, or a role holder's):
 * it reaches only what its scopes name. A key holding every scope its owner holds (any key of a user
 * who administers nothing) acts with all of its owner's rights.
 */
export const isLimitedKey = (auth: AuthContext): boolean => auth.method === 'api-key' && auth.limited;

/** Whether the caller may use the admin rights `scope` covers: an admin by session, or by a key that carries it. */
export const holdsAdminScope = (auth: AuthContext, scope: AdminScope): boolean =>
  auth.user.admin && (auth.method === 'session' || auth.scopes.has(scope));
