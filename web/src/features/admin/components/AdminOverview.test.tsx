import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryHistory, createRootRoute, createRouter, RouterProvider } from '@tanstack/react-router';
import { screen, within } from '@testing-library/react';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { AdminOverview as Overview } from '@/features/admin/api';
import { AdminOverview } from '@/features/admin/components/AdminOverview';
import { renderWithProviders } from '@/test-utils';

const get = vi.hoisted(() => vi.fn());
vi.mock('@/lib/api/client', () => ({ api: { GET: get, POST: vi.fn(), PUT: vi.fn(), DELETE: vi.fn() } }));

/** What GET /api/admin/overview answers on a new panel with one node whose Wings has not called in. */
const newPanel: Overview = {
  version: '0.1.0',
  counts: { users: 1, nodes: 1, locations: 1, servers: 0, eggs: 0, nests: 0 },
  setup: [
    { key: 'location', done: true },
    { key: 'node', done: true },
    { key: 'wings', done: false },
    { key: 'egg', done: false },
    { key: 'user', done: false },
    { key: 'server', done: false },
  ],
  health: {
    database: { configured: true, status: 'up' },
    mail: { configured: false, status: 'not-configured' },
    redis: { configured: true, status: 'down' },
    nodes: [{ id: '7', name: 'alpha', status: 'waiting', lastSeenAt: null }],
  },
};

const renderOverview = async () => {
  get.mockResolvedValue({ data: { data: newPanel } });
  const router = createRouter({ routeTree: createRootRoute({ component: AdminOverview }), history: createMemoryHistory({ initialEntries: ['/admin'] }) });
  renderWithProviders(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return within(await screen.findByRole('list', { name: 'Getting started' }));
};

describe('AdminOverview', () => {
  beforeAll(() => {
    // The router restores the scroll position on navigation; the test DOM has no scrolling.
    vi.spyOn(window, 'scrollTo').mockImplementation(() => undefined);
  });

  it('should tick the done steps and link each step to where it is done, Wings to the waiting node', async () => {
    const checklist = await renderOverview();
    expect(get).toHaveBeenCalledWith('/api/admin/overview');
    expect(screen.getByText('4 steps left before the first server runs.')).toBeTruthy();
    const steps = checklist.getAllByRole('listitem');
    expect(steps.map((li) => li.getAttribute('data-done'))).toEqual(['true', 'true', 'false', 'false', 'false', 'false']);
    const href = (name: string) => checklist.getByRole('link', { name }).getAttribute('href');
    expect(href('Create a location')).toBe('/admin/locations?create=true');
    expect(href('Add a node')).toBe('/admin/nodes?create=true');
    expect(href('Install and configure Wings')).toBe('/admin/nodes/7?tab=configuration');
    expect(href('Import an egg')).toBe('/admin/eggs/gallery');
    expect(href('Add a user')).toBe('/admin/users?create=true');
    expect(href('Create a server')).toBe('/admin/servers/new');
  });

  it('should link the counts to their lists and show the version and each part of the panel', async () => {
    await renderOverview();
    expect(screen.getByRole('link', { name: '0 servers: open the list' }).getAttribute('href')).toBe('/admin/servers');
    expect(screen.getByRole('link', { name: '1 user: open the list' }).getAttribute('href')).toBe('/admin/users');
    expect(screen.getByTestId('panel-version').textContent).toBe('Hatchery 0.1.0');
    const services = within(screen.getByRole('list', { name: 'Services' }));
    expect(services.getAllByRole('listitem').map((li) => li.textContent)).toEqual(['DatabaseAnswering', 'Mail (SMTP)Not configured', 'RedisNot answering']);
    expect(within(screen.getByRole('list', { name: 'Nodes' })).getByRole('listitem').textContent).toBe('alphaWaiting for Wings');
  });
});
