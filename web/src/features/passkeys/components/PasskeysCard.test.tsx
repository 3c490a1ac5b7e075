import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { PasskeysCard } from '@/features/passkeys/components/PasskeysCard';
import { renderWithProviders, testAccount } from '@/test-utils';

const client = vi.hoisted(() => ({ GET: vi.fn(), POST: vi.fn(), PATCH: vi.fn(), DELETE: vi.fn(), PUT: vi.fn() }));
vi.mock('@/lib/api/client', () => ({ api: client }));
const browser = vi.hoisted(() => ({ create: vi.fn(), supported: vi.fn(() => true) }));
vi.mock('@/features/passkeys/webauthn', () => ({
  passkeysSupported: browser.supported,
  createPasskey: browser.create,
  signWithPasskey: vi.fn(),
  isCancelled: (e: unknown) => e instanceof Error && e.name === 'NotAllowedError',
  isAlreadyRegistered: () => false,
}));

const account = testAccount({ username: 'pat', email: 'pat@example.test', name: 'Pat', hasPasskey: true });
const laptop = { id: '3', name: 'Laptop', backedUp: true, transports: ['internal'], createdAt: '2026-02-01T10:00:00.000Z', lastUsedAt: null };
const options = { challenge: 'abc', rp: { id: 'panel.example', name: 'Hatchery' } };
const answer = { id: 'cred', rawId: 'cred', type: 'public-key', response: {}, clientExtensionResults: {} };

const renderCard = () =>
  renderWithProviders(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <PasskeysCard account={account} />
    </QueryClientProvider>,
  );

describe('PasskeysCard', () => {
  let passkeys: (typeof laptop)[];
  beforeEach(() => {
    passkeys = [laptop];
    Object.values(client).forEach((fn) => fn.mockReset());
    browser.create.mockReset();
    browser.supported.mockReturnValue(true);
    client.GET.mockImplementation(() => Promise.resolve({ data: { data: passkeys } }));
    client.POST.mockImplementation((path: string, init?: { body?: { name: string } }) => {
      if (path === '/api/account/passkeys/options') {
        return Promise.resolve({ data: { data: { options } } });
      }
      const made = { ...laptop, id: '4', name: init?.body?.name ?? '' };
      passkeys = [...passkeys, made];
      return Promise.resolve({ data: { data: made } });
    });
  });

  it('should list the passkeys with when they were added and used, and add one through the browser dialog', async () => {
    renderCard();
    const item = await screen.findByRole('listitem', { name: 'Laptop' });
    expect(item).toHaveTextContent('Synced');
    expect(item).toHaveTextContent('never used');

    browser.create.mockResolvedValue(answer);
    await userEvent.click(screen.getByRole('button', { name: 'Add a passkey' }));
    const create = screen.getByRole('button', { name: 'Create passkey' });
    expect(create).toBeDisabled(); // no name yet
    await userEvent.type(screen.getByRole('textbox', { name: 'Name' }), '  Phone ');
    await userEvent.click(create);
    expect(await screen.findByRole('listitem', { name: 'Phone' })).toBeInTheDocument();
    expect(browser.create).toHaveBeenCalledWith(options);
    expect(client.POST).toHaveBeenLastCalledWith('/api/account/passkeys', { body: { name: 'Phone', response: answer } });
  });

  it('should say nothing when the user closes the browser dialog, and rename in place', async () => {
    renderCard();
    await screen.findByRole('listitem', { name: 'Laptop' });
    browser.create.mockRejectedValue(Object.assign(new Error('closed'), { name: 'NotAllowedError' }));
    await userEvent.click(screen.getByRole('button', { name: 'Add a passkey' }));
    await userEvent.type(screen.getByRole('textbox', { name: 'Name' }), 'Phone');
    await userEvent.click(screen.getByRole('button', { name: 'Create passkey' }));
    await waitFor(() => expect(browser.create).toHaveBeenCalled());
    expect(screen.queryByRole('alert')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));

    client.PATCH.mockResolvedValue({ data: { data: { ...laptop, name: 'Work laptop' } } });
    await userEvent.click(screen.getByRole('button', { name: 'Rename passkey Laptop' }));
    const field = within(screen.getByRole('listitem', { name: 'Laptop' })).getByRole('textbox', { name: 'Name' });
    await userEvent.clear(field);
    await userEvent.type(field, 'Work laptop');
    passkeys = [{ ...laptop, name: 'Work laptop' }];
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(client.PATCH).toHaveBeenCalledWith('/api/account/passkeys/{id}', { params: { path: { id: '3' } }, body: { name: 'Work laptop' } });
    expect(await screen.findByRole('listitem', { name: 'Work laptop' })).toBeInTheDocument();
  });

  it('should explain, and offer no adding, where passkeys cannot work', async () => {
    browser.supported.mockReturnValue(false);
    passkeys = [];
    renderCard();
    expect(await screen.findByText(/Passkeys cannot be used here/)).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Add a passkey' })).toBeDisabled();
  });
});
