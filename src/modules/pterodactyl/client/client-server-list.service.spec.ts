import type { AuthContext } from 'src/common/auth/auth-context';
import { PterodactylClientServerListService } from 'src/modules/pterodactyl/client/client-server-list.service';
import type { PterodactylServerPresenter } from 'src/modules/pterodactyl/client/client-server-presenter';
import type { ClientServersService } from 'src/modules/servers/client-servers.service';
import type { ServerContextResolver } from 'src/modules/servers/server-context';
import { strictMock } from 'test/utils/strict-mock';

const at = { page: 2, perPage: 10, skip: 10 };
const authOf = (admin: boolean) => ({ user: { id: '7', admin } }) as unknown as AuthContext;

const build = () => {
  const identifierPage = jest.fn().mockResolvedValue({ identifiers: ['abcd1234'], total: 11 });
  const forCallerMany = jest.fn().mockResolvedValue([{ server: { id: '1' } }]);
  const presentMany = jest.fn().mockResolvedValue([{ object: 'server', attributes: {} }]);
  const sut = new PterodactylClientServerListService(
    strictMock<ClientServersService>('servers', { identifierPage }),
    strictMock<ServerContextResolver>('contexts', { forCallerMany }),
    strictMock<PterodactylServerPresenter>('presenter', { presentMany }),
  );
  return { sut, identifierPage, forCallerMany, presentMany };
};

describe(PterodactylClientServerListService.name, () => {
  it.each([
    ['default', false, { kind: 'visible', userId: '7' }],
    ['owner', false, { kind: 'owned', userId: '7' }],
    ['admin', true, { kind: 'others', userId: '7' }],
    ['admin-all', true, { kind: 'all' }],
  ] as const)('should search the servers of type %s (admin: %s) in their scope, with the filters in the search terms', async (type, admin, scope) => {
    const { sut, identifierPage, forCallerMany, presentMany } = build();
    const auth = authOf(admin);
    const found = await sut.page(auth, type, { uuid: 'ab', name: 'Lobby', description: 'd', external_id: 'x-1', '*': '10.0.0.1:25' }, at, true);
    expect(identifierPage).toHaveBeenCalledWith(scope, { uuid: 'ab', name: 'Lobby', description: 'd', externalId: 'x-1', any: '10.0.0.1:25' }, at);
    expect(forCallerMany).toHaveBeenCalledWith(auth, ['abcd1234']);
    expect(presentMany).toHaveBeenCalledWith([{ server: { id: '1' } }], auth.user, true);
    expect(found).toEqual({ items: [{ object: 'server', attributes: {} }], total: 11 });
  });

  it.each(['admin', 'admin-all'] as const)('should answer an empty list, searching nothing, when a non-administrator asks for type %s', async (type) => {
    const { sut, identifierPage } = build();
    expect(await sut.page(authOf(false), type, {}, at, false)).toEqual({ items: [], total: 0 });
    expect(identifierPage).not.toHaveBeenCalled();
  });
});
