import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { AdminScope } from 'src/common/auth/admin-scope';
import type { AuthContext } from 'src/common/auth/auth-context';
import type { EntityManager } from 'typeorm';
import { HotCaches } from 'src/common/hot-cache/hot-caches';
import { Reloader } from 'src/common/hot-cache/reloader';
import { AdminGrants, grantsOf, narrowToKey, NO_GRANTS, RoleSnapshot, scopesOfPermissions } from 'src/modules/roles/admin-grants';
import { AdminRoleEntity } from 'src/modules/roles/admin-role.entity';
import { AdminRolesRepository } from 'src/modules/roles/admin-roles.repository';
import { errorMessage } from 'src/common/errors/error-message';

const roleSnapshot = (role: AdminRoleEntity): RoleSnapshot => ({
  id: role.id,
  name: role.name,
  scopes: scopesOfPermissions(role.permissions),
  nodes: role.allNodes ? null : new Set(role.nodeIds),
});

/**
 * Every administrator role, held in memory by every process (a request's grants need no query):
 * loaded at boot, reloaded after every change to `admin_role` here or in another process
 * (HotCaches.onChange), as PanelSettings are. Which roles a user holds is on the user's row, which the
 * credential caches keep and drop on change.
 */
@Injectable()
export class AdminRoles implements OnApplicationBootstrap {
  private readonly logger = new Logger(AdminRoles.name);
  private roles: ReadonlyMap<string, RoleSnapshot> = new Map();
  private readonly loads = new Reloader(
    async () => {
      this.roles = new Map((await this.repo.findAll()).map((r) => [r.id, roleSnapshot(r)]));
    },
    (err: unknown) => this.logger.warn(`administrator roles not reloaded: ${errorMessage(err)}`),
  );

  constructor(
    private readonly repo: AdminRolesRepository,
    caches: HotCaches,
  ) {
    caches.onChange('admin_role', () => void this.reload());
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.reload();
  }

  reload(): Promise<void> {
    return this.loads.reload();
  }

  /** Loads the roles again and resolves once loaded: a writer reading back its own change (Reloader.refresh). */
  refresh(): Promise<void> {
    return this.loads.refresh();
  }

  /** Which of `ids` are roles, each locked against deletion until the transaction ends. */
  lockExisting(ids: readonly string[], manager: EntityManager): Promise<string[]> {
    return this.repo.lockExisting(ids, manager);
  }

  /** What the user may do in the administration, by their own rights. */
  grantsOfUser(user: { admin: boolean; adminRoleIds: readonly string[] }): AdminGrants {
    return grantsOf(user, this.roles);
  }

  /** What the caller may do: the user's grants, narrowed to the key's scopes for an API key. */
  grantsOf(auth: AuthContext): AdminGrants {
    const grants = this.grantsOfUser(auth.user);
    return auth.method === 'api-key' && grants !== NO_GRANTS ? narrowToKey(grants, auth.scopes) : grants;
  }

  /**
   * Whether the user may change this node (nodes write on it, by their own rights). Its configuration
   * holds the daemon token, with which Wings obeys the panel for every server on the node: reading it
   * needs this, whatever scope the key presenting the request carries.
   */
  mayChangeNode(user: { admin: boolean; adminRoleIds: readonly string[] }, nodeId: string): boolean {
    const nodes = this.grantsOfUser(user).scopes.get(AdminScope.NODES_WRITE);
    return nodes === null || (nodes !== undefined && nodes.has(nodeId));
  }

  /** The admin scopes the user holds anywhere (the ceiling of the API keys they make). */
  scopesOf(user: { admin: boolean; adminRoleIds: readonly string[] }): AdminScope[] {
    return [...this.grantsOfUser(user).scopes.keys()];
  }
}
