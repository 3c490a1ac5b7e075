import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryHistory, createRootRoute, createRouter, RouterProvider } from '@tanstack/react-router';
import { screen, within } from '@testing-library/react';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { components } from '@/api/schema';
import { AdminLayout, firstAdminPath } from '@/features/admin/components/AdminLayout';
import { sessionQuery } from '@/features/auth/api';
import { adminAccessFrom } from '@/features/auth/admin-access';
import { renderWithProviders } from '@/test-utils';

vi.mock('@/lib/api/client', () => ({ api: { GET: vi.fn(() => new Promise(() => undefined)) } }));

type Access = components['schemas']['AdminAccessDto'];
type Area = Access['areas'][number];

const area = (name: Area['area'], access: Area['access'] = 'read', nodeIds: string[] | null = null): Area => ({ area: name, access, nodeIds });

/** The tab bar as the signed-in user with this admin access sees it. */
const tabsFor = async (adminAccess: Access | null): Promise<string[]> => {
  const queryClient = new QueryClient();
  queryClient.setQueryData(sessionQuery.queryKey, { adminAccess, twoFactorSetupRequired: false } as never);
  const router = createRouter({ routeTree: createRootRoute({ component: AdminLayout, notFoundComponent: () => null }), history: createMemoryHistory({ initialEntries: ['/'] }) });
  renderWithProviders(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  const list = await screen.findByRole('tablist', { name: 'Administration pages' });
  return within(list)
    .queryAllByRole('tab')
    .map((tab) => tab.textContent ?? '');
};

describe('AdminLayout', () => {
  beforeAll(() => {
    vi.spyOn(window, 'scrollTo').mockImplementation(() => undefined);
  });

  it('should show a full administrator every tab, the overview and roles included', async () => {
    expect(await tabsFor({ full: true, areas: [] })).toEqual([
      'Overview',
      'Servers',
      'Users',
      'Nodes',
      'Nests and eggs',
      'Locations',
      'Mounts',
      'Database hosts',
      'Backup hosts',
      'Webhooks',
      'Sign-in providers',
      'Application keys',
      'Roles',
      'Settings',
      'Audit log',
    ]);
  });

  it('should show a role holder only the areas it reads, application keys, and no roles', async () => {
    expect(await tabsFor({ full: false, areas: [area('users'), area('servers', 'write'), area('audit')] })).toEqual(['Servers', 'Users', 'Application keys', 'Audit log']);
  });

  it('should give the overview to nodes read on every node only', async () => {
    expect(await tabsFor({ full: false, areas: [area('nodes'), area('settings', 'write')] })).toEqual(['Overview', 'Nodes', 'Sign-in providers', 'Application keys', 'Settings']);
  });

  it('should not give the overview to a node-limited grant, and send /admin to its first tab', async () => {
    const access = { full: false, areas: [area('servers', 'write', ['4']), area('nodes', 'read', ['4'])] };
    expect(await tabsFor(access)).toEqual(['Servers', 'Nodes', 'Application keys']);
    expect(firstAdminPath(adminAccessFrom(access))).toBe('/admin/servers');
    expect(firstAdminPath(adminAccessFrom({ full: true, areas: [] }))).toBe('/admin');
    expect(firstAdminPath(adminAccessFrom(null))).toBeNull();
  });
});
