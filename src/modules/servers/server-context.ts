import { Injectable } from '@nestjs/common';
import { AdminScope } from 'src/common/auth/admin-scope';
import { AuthError } from 'src/common/auth/auth.errors';
import { AppException } from 'src/common/errors/app.exception';
import { HotCaches } from 'src/common/hot-cache/hot-caches';
import { DaemonGateway, DaemonNode } from 'src/modules/daemon-gateway/daemon.gateway';
import { AuthContext, holdsAdminScope } from 'src/common/auth/auth-context';
import { ALL_SERVER_PERMISSIONS, isServerPermission, ServerPermission, toWingsPermissions, WINGS_ALL } from 'src/modules/servers/server-permissions';
import type { LoadedServer, ServerStatus } from 'src/modules/servers/server.entity';
import { ServerError } from 'src/modules/servers/servers.errors';
import { ServersRepository } from 'src/modules/servers/servers.repository';
import { SubusersRepository } from 'src/modules/servers/subusers/subusers.repository';

declare module 'src/common/hot-cache/hot-caches' {
  interface HotCacheEntries {
    servers: ServerSnapshot;
  }
}

/**
 * A server as every server route, SFTP sign-in, console token, signed URL and the schedule runner
 * see it: plain values (dates as epoch milliseconds), built from the row by `serverSnapshot` only,
 * shared from the cache by every request and never changed.
 */
export interface ServerSnapshot {
  readonly id: string;
  readonly uuid: string;
  readonly identifier: string;
  readonly name: string;
  readonly description: string | null;
  readonly status: ServerStatus | null;
  readonly suspended: boolean;
  readonly ownerId: string;
  readonly nodeId: string;
  readonly eggId: string;
  readonly allocationId: string | null;
  readonly startup: string;
  readonly image: string;
  readonly memory: number;
  readonly swap: number;
  readonly disk: number;
  readonly io: number;
  readonly cpu: number;
  readonly threads: string | null;
  readonly oomDisabled: boolean;
  readonly databaseLimit: number;
  readonly allocationLimit: number;
  readonly backupLimit: number;
  readonly skipScripts: boolean;
  readonly installedAt: number | null;
  readonly createdAt: number;
  readonly updatedAt: number;
  /** How to reach its node: address, daemon settings, its sealed token. */
  readonly node: DaemonNode;
  /** It is moving to another node (docs/admin-guide.md#transfers): its users may only look at it. */
  readonly transferring: boolean;
  /** Its node is in maintenance mode (Pterodactyl's `is_node_under_maintenance`). */
  readonly nodeMaintenance: boolean;
  readonly owner: { readonly id: string; readonly username: string };
  readonly egg: {
    readonly id: string;
    readonly name: string;
    readonly features: readonly string[];
    readonly dockerImages: readonly { readonly name: string; readonly image: string }[];
  };
}

export type ServerRole = 'owner' | 'admin' | 'subuser';

/** The server a request acts on, and the caller's role and permissions there. */
export interface ServerContext {
  readonly server: ServerSnapshot;
  readonly role: ServerRole;
  readonly permissions: readonly ServerPermission[];
}

const SERVER_REF = /^(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9a-z]{8})$/i;

/** A server's full uuid or its 8-character identifier (`{server}` in paths, the end of an SFTP username). */
const isServerRef = (ref: string | undefined): ref is string => ref !== undefined && SERVER_REF.test(ref);

/**
 * The Wings permissions a context carries into a console token or an SFTP login: `*` for an owner
 * or admin holding every permission, else what its permissions map to (an admin key limited to
 * reads gets a console it can watch but not drive).
 */
export const wingsPermissionsOf = (context: ServerContext): string[] =>
  context.role !== 'subuser' && context.permissions.length === ALL_SERVER_PERMISSIONS.length ? [...WINGS_ALL] : toWingsPermissions(context.permissions);

/** What a cached server was built from (see invalidationFor). */
const serverTags = (s: ServerSnapshot): string[] => [`server:${s.id}`, `user:${s.ownerId}`, `node:${s.nodeId}`, `egg:${s.eggId}`];

const serverSnapshot = (s: LoadedServer, node: DaemonNode): ServerSnapshot => ({
  id: s.id,
  uuid: s.uuid,
  identifier: s.identifier,
  name: s.name,
  description: s.description,
  status: s.status,
  suspended: s.suspended,
  ownerId: s.ownerId,
  nodeId: s.nodeId,
  eggId: s.eggId,
  allocationId: s.allocationId,
  startup: s.startup,
  image: s.image,
  memory: s.memory,
  swap: s.swap,
  disk: s.disk,
  io: s.io,
  cpu: s.cpu,
  threads: s.threads,
  oomDisabled: s.oomDisabled,
  databaseLimit: s.databaseLimit,
  allocationLimit: s.allocationLimit,
  backupLimit: s.backupLimit,
  skipScripts: s.skipScripts,
  installedAt: s.installedAt?.getTime() ?? null,
  createdAt: s.createdAt.getTime(),
  updatedAt: s.updatedAt.getTime(),
  node,
  transferring: (s.activeTransfer ?? null) !== null,
  nodeMaintenance: s.node.maintenanceMode,
  owner: { id: s.owner.id, username: s.owner.username },
  egg: {
    id: s.egg.id,
    name: s.egg.name,
    features: [...(s.egg.features ?? [])],
    dockerImages: s.egg.dockerImages.map((d) => ({ name: d.name, image: d.image })),
  },
});

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

const missingScopeFor = (permission: ServerPermission): AdminScope => (isRead(permission) ? AdminScope.SERVERS_READ : AdminScope.SERVERS_WRITE);

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
 * The one resolver of ServerContext (docs/permissions.md). Owners hold every server permission,
 * subusers what they were granted, admins what their admin rights allow (all of it by session or to
 * an admin account signing in over SFTP). Anyone else has no context: the server does not exist for
 * them. Servers and grants come from HotCaches when warm: a warm server request makes no query.
 */
@Injectable()
export class ServerContextResolver {
  constructor(
    private readonly servers: ServersRepository,
    private readonly subusers: SubusersRepository,
    private readonly daemon: DaemonGateway,
    private readonly caches: HotCaches,
  ) {}

  /**
   * The server by full uuid or 8-character identifier; any change to the server, its node, egg or
   * owner drops the cached snapshot.
   */
  byRef(ref: string): Promise<ServerSnapshot | null> {
    if (!isServerRef(ref)) {
      return Promise.resolve(null);
    }
    const key = ref.toLowerCase();
    return this.caches.servers.getOrLoad(key, async () => this.snapshot(await this.servers.findByRef(key)), serverTags);
  }

  /** The server the schedule runner acts on, read afresh: there is no caller, so no role or permissions. */
  async forRunner(id: string): Promise<ServerSnapshot | null> {
    return this.snapshot(await this.servers.findById(id));
  }

  /**
   * An HTTP caller's context on `ref` (404 when the server does not exist for them). With
   * `permission`, an admin key that reaches the server but lacks the scope for it gets 403
   * MISSING_SCOPE, unless a subuser grant of the same user covers it.
   */
  async forCaller(auth: AuthContext, ref: string | undefined, permission?: ServerPermission): Promise<ServerContext> {
    if (!isServerRef(ref)) {
      throw new AppException(ServerError.IDENTIFIER_INVALID);
    }
    const server = await this.byRef(ref);
    const context = server && (await this.resolve(server, auth.user.id, adminPermissions(auth), permission));
    if (!context) {
      throw new AppException(ServerError.NOT_FOUND);
    }
    return context;
  }

  /** An account's context on a server it signs in to over SFTP (an admin account holds everything); null when it has none. */
  forAccount(server: ServerSnapshot, user: { id: string; admin: boolean }): Promise<ServerContext | null> {
    return this.resolve(server, user.id, user.admin ? ALL_SERVER_PERMISSIONS : []);
  }

  /**
   * The caller's contexts on a page of servers (by identifier, in that order) in at most two queries
   * whatever its length: the servers and the subuser grants not cached yet. A server gone meanwhile,
   * or one the caller cannot reach, is left out.
   */
  async forCallerMany(auth: AuthContext, identifiers: string[]): Promise<ServerContext[]> {
    const servers = await this.byIdentifiers(identifiers);
    const asAdmin = adminPermissions(auth);
    const grants = await this.subusers.grantsOf(
      servers.filter((server) => !this.grantIsMoot(server, auth.user.id, asAdmin)).map((server) => server.id),
      auth.user.id,
    );
    return servers.flatMap((server) => {
      const context = this.ladder(server, auth.user.id, asAdmin, grants.get(server.id) ?? null);
      return context ? [context] : [];
    });
  }

  /** Servers by identifier from the cache, the rest in one query (and cached); unknown ones are left out. */
  private async byIdentifiers(identifiers: string[]): Promise<ServerSnapshot[]> {
    const keys = identifiers.filter(isServerRef).map((ref) => ref.toLowerCase());
    const found = new Map<string, ServerSnapshot>();
    const missing: string[] = [];
    for (const key of keys) {
      const hit = this.caches.servers.get(key);
      if (hit) {
        found.set(key, hit);
      } else {
        missing.push(key);
      }
    }
    if (missing.length > 0) {
      const ticket = this.caches.servers.ticket();
      for (const row of await this.servers.findByIdentifiers(missing)) {
        const snapshot = serverSnapshot(row, this.daemon.reach(row.node));
        this.caches.servers.set(row.identifier, snapshot, serverTags(snapshot), ticket);
        found.set(row.identifier, snapshot);
      }
    }
    return keys.flatMap((key) => found.get(key) ?? []);
  }

  /** The owner, and an administrator holding every permission, need no subuser grant. */
  private grantIsMoot(server: ServerSnapshot, userId: string, asAdmin: readonly ServerPermission[]): boolean {
    return server.ownerId === userId || asAdmin.length === ALL_SERVER_PERMISSIONS.length;
  }

  private async resolve(
    server: ServerSnapshot,
    userId: string,
    asAdmin: readonly ServerPermission[],
    permission?: ServerPermission,
  ): Promise<ServerContext | null> {
    const grant = this.grantIsMoot(server, userId, asAdmin) ? null : await this.subusers.grantOf(server.id, userId);
    return this.ladder(server, userId, asAdmin, grant, permission);
  }

  /** The owner, admin, subuser ladder. */
  private ladder(
    server: ServerSnapshot,
    userId: string,
    asAdmin: readonly ServerPermission[],
    grant: readonly string[] | null,
    permission?: ServerPermission,
  ): ServerContext | null {
    if (server.ownerId === userId) {
      return { server, role: 'owner', permissions: ALL_SERVER_PERMISSIONS };
    }
    if (asAdmin.length === ALL_SERVER_PERMISSIONS.length) {
      return { server, role: 'admin', permissions: ALL_SERVER_PERMISSIONS };
    }
    if (!grant && asAdmin.length === 0) {
      return null;
    }
    const granted = grant ? grant.filter(isServerPermission) : [];
    // Each permission is held as an admin or as a subuser; the role is the one that covers this request, admin first.
    const permissions = ALL_SERVER_PERMISSIONS.filter((p) => granted.includes(p) || asAdmin.includes(p));
    const asAdminHere = permission === undefined ? asAdmin.length > 0 : asAdmin.includes(permission);
    const role: ServerRole = grant && !asAdminHere ? 'subuser' : 'admin';
    if (role === 'admin' && permission !== undefined && !asAdmin.includes(permission)) {
      throw new AppException(AuthError.MISSING_SCOPE, { message: `The API key lacks the ${missingScopeFor(permission)} scope this action requires` });
    }
    return { server, role, permissions };
  }

  private snapshot(server: LoadedServer | null): ServerSnapshot | null {
    return server && serverSnapshot(server, this.daemon.reach(server.node));
  }
}
