import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LinkedAccountsCard } from '@/features/account/components/LinkedAccountsCard';
import { renderWithProviders, testAccount } from '@/test-utils';

const get = vi.hoisted(() => vi.fn());
vi.mock('@/lib/api/client', () => ({ api: { GET: get, POST: vi.fn(), PUT: vi.fn(), DELETE: vi.fn() } }));
vi.mock('@tanstack/react-router', () => ({ useNavigate: () => vi.fn() }));

const account = (hasPassword: boolean) => testAccount({ hasPassword });

const renderCard = (hasPassword: boolean) =>
  renderWithProviders(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <LinkedAccountsCard account={account(hasPassword)} />
    </QueryClientProvider>,
  );

describe('LinkedAccountsCard', () => {
  let fresh = false;
  const assign = vi.fn();

  beforeEach(() => {
    get.mockReset();
    assign.mockReset();
    vi.stubGlobal('location', { ...window.location, assign });
    get.mockImplementation((path: string) => {
      switch (path) {
        case '/api/account/identities':
          return Promise.resolve({ data: { data: [] } });
        case '/api/account/identities/providers':
          return Promise.resolve({ data: { data: [{ id: '3', name: 'Discord', type: 'discord' }] } });
        case '/api/auth/session':
          return Promise.resolve({ data: { data: { session: { fresh } } } });
        default:
          return Promise.reject(new Error(`unexpected ${path}`));
      }
    });
  });

  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('should go to the provider at once from a sign-in of the last five minutes', async () => {
    fresh = true;
    renderCard(true);
    await userEvent.click(await screen.findByRole('link', { name: 'Link Discord' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/api/auth/oauth/3?link=true'));
  });

  it('should have an older sign-in confirmed with the password first', async () => {
    fresh = false;
    renderCard(true);
    await userEvent.click(await screen.findByRole('link', { name: 'Link Discord' }));
    expect(await screen.findByRole('dialog', { name: 'Confirm it is you' })).toBeInTheDocument();
    expect(assign).not.toHaveBeenCalled();
  });

  it('should ask an account without a password to sign in again, not for a password it never had', async () => {
    fresh = false;
    renderCard(false);
    await userEvent.click(await screen.findByRole('link', { name: 'Link Discord' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm it is you' });
    expect(dialog).toHaveTextContent('your account has no password to confirm it with. Sign out, sign in again');
    expect(screen.queryByLabelText('Current password')).toBeNull();
    expect(screen.getByRole('button', { name: 'Sign out' })).toBeInTheDocument();
    expect(assign).not.toHaveBeenCalled();
  });
});
