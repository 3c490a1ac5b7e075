import { Injectable } from '@nestjs/common';
import type { AuthContext } from 'src/common/auth/auth-context';
import { PterodactylServerPresenter } from 'src/modules/pterodactyl/client/client-server-presenter';
import type { FractalItem, PterodactylPage } from 'src/modules/pterodactyl/common/fractal';
import { ClientServersService } from 'src/modules/servers/client-servers.service';
import type { ServerSearchScope } from 'src/modules/servers/server-search';
import { ServerContextResolver } from 'src/modules/servers/server-context';

/** ClientController@index's `?type=`: `default` (absent or another value) lists the servers the caller owns or is a subuser of. */
type ClientListType = 'owner' | 'admin' | 'admin-all' | 'default';

export const CLIENT_LIST_TYPES: readonly ClientListType[] = ['owner', 'admin', 'admin-all'];

export interface ClientListFilters {
  uuid?: string;
  name?: string;
  description?: string;
  external_id?: string;
  '*'?: string;
}

/** The servers a type lists; null for an `admin` type asked by a non-administrator (no error, an empty list, as Pterodactyl answers). */
const scopeOf = (user: { id: string; admin: boolean }, type: ClientListType): ServerSearchScope | null => {
  switch (type) {
    case 'admin':
      return user.admin ? { kind: 'others', userId: user.id } : null;
    case 'admin-all':
      return user.admin ? { kind: 'all' } : null;
    case 'owner':
      return { kind: 'owned', userId: user.id };
    case 'default':
      return { kind: 'visible', userId: user.id };
  }
};

/** The client API's server list (ClientController@index): a page of servers found by Pterodactyl's type and filters, each as its ServerTransformer shows it. */
@Injectable()
export class PterodactylClientServerListService {
  constructor(
    private readonly servers: ClientServersService,
    private readonly contexts: ServerContextResolver,
    private readonly presenter: PterodactylServerPresenter,
  ) {}

  async page(auth: AuthContext, type: ClientListType, filters: ClientListFilters, at: PterodactylPage, includeEgg: boolean): Promise<{ items: FractalItem[]; total: number }> {
    const scope = scopeOf(auth.user, type);
    if (scope === null) {
      return { items: [], total: 0 };
    }
    const { external_id: externalId, '*': any, ...columns } = filters;
    const { identifiers, total } = await this.servers.identifierPage(scope, { ...columns, externalId, any }, at);
    const contexts = await this.contexts.forCallerMany(auth, identifiers);
    return { items: await this.presenter.presentMany(contexts, auth.user, includeEgg), total };
  }
}
