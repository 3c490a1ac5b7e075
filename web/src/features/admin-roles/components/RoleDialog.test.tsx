import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { type BoundFunctions, type queries, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { RoleDialog } from '@/features/admin-roles/components/RoleDialog';
import { ApiError } from '@/lib/api/api-error';
import { renderWithProviders } from '@/test-utils';

const api = vi.hoisted(() => ({ GET: vi.fn(), POST: vi.fn(), PATCH: vi.fn(), PUT: vi.fn(), DELETE: vi.fn() }));
vi.mock('@/lib/api/client', () => ({ api }));
vi.mock('@/lib/notify', () => ({ notify: vi.fn(), notifyError: vi.fn() }));

const NODES = [
  { id: '3', name: 'alpha' },
  { id: '7', name: 'beta' },
];

const savedRole = (body: Record<string, unknown>) => ({ data: { data: { id: '1', users: 0, allNodes: true, createdAt: '', updatedAt: '', ...body } } });

const renderDialog = (onClose = vi.fn()) => {
  renderWithProviders(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } })}>
      <RoleDialog onClose={onClose} />
    </QueryClientProvider>,
  );
  return { dialog: within(screen.getByRole('dialog', { name: 'New role' })), onClose };
};

/** Pastes the name (typing key by key is slow in a test DOM). */
const typeName = async (dialog: BoundFunctions<typeof queries>, name: string) => {
  await userEvent.click(dialog.getByLabelText(/^Name/));
  await userEvent.paste(name);
};

/** Sets an area's row of the matrix. */
const choose = async (dialog: BoundFunctions<typeof queries>, area: string, level: 'None' | 'Read' | 'Read & write') => {
  await userEvent.click(within(dialog.getByRole('radiogroup', { name: area })).getByRole('radio', { name: level }));
};

describe('RoleDialog', () => {
  beforeEach(() => {
    vi.clearAllMocks();
    api.GET.mockResolvedValue({ data: { data: NODES, meta: { pagination: { total: 2, count: 2, perPage: 100, currentPage: 1, totalPages: 1 } } } });
    api.POST.mockImplementation((_path: string, { body }: { body: Record<string, unknown> }) => Promise.resolve(savedRole(body)));
  });

  it('should send the matrix as permissions, one per area not None, on every node', async () => {
    const { dialog, onClose } = renderDialog();
    await typeName(dialog, '  Support ');
    await choose(dialog, 'Users', 'Read');
    await choose(dialog, 'Servers', 'Read & write');
    await choose(dialog, 'Audit log', 'Read');
    await choose(dialog, 'Nodes', 'Read & write');
    await choose(dialog, 'Nodes', 'None');
    await userEvent.click(dialog.getByRole('button', { name: 'New role' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(api.POST).toHaveBeenCalledWith('/api/admin/roles', {
      body: {
        name: 'Support',
        permissions: [
          { area: 'users', access: 'read' },
          { area: 'servers', access: 'write' },
          { area: 'audit', access: 'read' },
        ],
        nodeIds: [],
      },
    });
  });

  it('should offer the audit log only None or Read, and every other area None, Read or Read & write', () => {
    const { dialog } = renderDialog();
    expect(within(dialog.getByRole('radiogroup', { name: 'Audit log' })).getAllByRole('radio').map((r) => r.getAttribute('value'))).toEqual(['none', 'read']);
    for (const area of ['Users', 'Servers', 'Nodes', 'Locations', 'Nests and eggs', 'Database hosts', 'Backup hosts', 'Mounts', 'Webhooks', 'Settings']) {
      expect(within(dialog.getByRole('radiogroup', { name: area })).getAllByRole('radio').map((r) => r.getAttribute('value')), area).toEqual(['none', 'read', 'write']);
    }
  });

  it('should want a node when limited to some, then send the chosen nodes', async () => {
    const { dialog, onClose } = renderDialog();
    await typeName(dialog, 'Node team');
    await choose(dialog, 'Servers', 'Read & write');
    await userEvent.click(within(dialog.getByRole('radiogroup', { name: 'Which nodes' })).getByRole('radio', { name: 'Only some nodes' }));
    await userEvent.click(dialog.getByRole('button', { name: 'New role' }));
    expect(await dialog.findByText('Choose at least one node, or give the role all nodes')).toBeTruthy();
    expect(api.POST).not.toHaveBeenCalled();

    await waitFor(() => expect(api.GET).toHaveBeenCalledWith('/api/admin/nodes', expect.anything()));
    await userEvent.type(dialog.getByLabelText(/^Nodes of this role/), 'be');
    await userEvent.click(await screen.findByRole('option', { name: 'beta', hidden: true }));
    await userEvent.click(dialog.getByRole('button', { name: 'New role' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(api.POST).toHaveBeenCalledWith('/api/admin/roles', { body: { name: 'Node team', permissions: [{ area: 'servers', access: 'write' }], nodeIds: ['7'] } });
  });

  it('should put a taken name on the name field', async () => {
    api.POST.mockRejectedValue(new ApiError(409, 'ROLE_NAME_TAKEN', 'An administrator role with this name already exists'));
    const { dialog, onClose } = renderDialog();
    await typeName(dialog, 'Support');
    await userEvent.click(dialog.getByRole('button', { name: 'New role' }));
    const name = dialog.getByLabelText(/^Name/);
    await waitFor(() => expect(name).toHaveAccessibleDescription(expect.stringContaining('An administrator role with this name already exists')));
    expect(onClose).not.toHaveBeenCalled();
  });
});
