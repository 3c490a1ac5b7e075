import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { TwoFactorCard } from '@/features/account/components/TwoFactorCard';
import { ApiError } from '@/lib/api/api-error';
import { renderWithProviders, testAccount } from '@/test-utils';

const post = vi.hoisted(() => vi.fn());
vi.mock('@/lib/api/client', () => ({ api: { POST: post, GET: vi.fn(), PUT: vi.fn(), DELETE: vi.fn() } }));
// The card is shown inside the app's router; signing out from its password prompt navigates.
vi.mock('@tanstack/react-router', () => ({ useNavigate: () => vi.fn() }));

const account = testAccount();
const CODES = ['aaaa-bbbb-cccc', 'dddd-eeee-ffff'];

const renderCard = (onChanged = vi.fn(), shown = account) =>
  renderWithProviders(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <TwoFactorCard account={shown} onChanged={onChanged} />
    </QueryClientProvider>,
  );

describe('TwoFactorCard', () => {
  beforeEach(() => {
    post.mockReset();
    post.mockImplementation((path: string, init?: { body?: { code?: string } }) => {
      if (path === '/api/user/2fa/setup') {
        return Promise.resolve({ data: { data: { secret: 'JBSWY3DPEHPK3PXP', uri: 'otpauth://totp/Hatchery:tess?secret=JBSWY3DPEHPK3PXP&issuer=Hatchery' } } });
      }
      if (path === '/api/user/2fa/enable') {
        return init?.body?.code === '123456'
          ? Promise.resolve({ data: { data: { recoveryCodes: CODES } } })
          : Promise.reject(new ApiError(400, 'INVALID_TWO_FACTOR_CODE', 'no', 'req-9'));
      }
      return Promise.reject(new Error(`unexpected ${path}`));
    });
  });

  it('should show the QR code and secret, then hold "on" back until the recovery codes are saved', async () => {
    const onChanged = vi.fn();
    renderCard(onChanged);
    expect(screen.getByText('Off')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Set up two-factor sign-in' }));

    expect(await screen.findByRole('img', { name: 'QR code for your authenticator app' })).toBeInTheDocument();
    expect(screen.getByText('JBSWY3DPEHPK3PXP')).toBeInTheDocument();
    const turnOn = screen.getByRole('button', { name: 'Turn on' });
    expect(turnOn).toBeDisabled(); // no code yet
    await userEvent.type(screen.getByRole('textbox', { name: 'Code from the app' }), '654321');
    await userEvent.click(turnOn);
    expect(await screen.findByRole('alert')).toHaveTextContent('That code does not match.');
    expect(screen.getByRole('alert')).toHaveTextContent('req-9');

    await userEvent.clear(screen.getByRole('textbox', { name: 'Code from the app' }));
    await userEvent.type(screen.getByRole('textbox', { name: 'Code from the app' }), '123 456');
    await userEvent.click(screen.getByRole('button', { name: 'Turn on' }));
    expect(post).toHaveBeenLastCalledWith('/api/user/2fa/enable', { body: { code: '123456' } });

    const list = await screen.findByRole('list', { name: 'Recovery codes' });
    expect(list).toHaveTextContent(CODES[0]);
    expect(list).toHaveTextContent(CODES[1]);
    expect(screen.queryByText('On')).toBeNull();
    const done = screen.getByRole('button', { name: 'Done' });
    expect(done).toBeDisabled();
    await userEvent.click(screen.getByRole('checkbox', { name: 'I have saved my recovery codes' }));
    await waitFor(() => expect(done).toBeEnabled());
    await userEvent.click(done);
    expect(onChanged).toHaveBeenCalledTimes(1);
  });

  it('should not ask an account without a password for one to turn it off, but say to choose one first', () => {
    renderCard(vi.fn(), testAccount({ twoFactorEnabled: true, hasPassword: false }));
    expect(screen.getByText(/Turning it off is confirmed with your password, and your account has none yet/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Turn off two-factor sign-in' })).toBeNull();
  });

  it('should offer a passwordless account the code after the account it signs in with', () => {
    renderCard(vi.fn(), testAccount({ hasPassword: false }));
    expect(screen.getByText(/each time you sign in, after the account you sign in with/)).toBeInTheDocument();
  });
});
