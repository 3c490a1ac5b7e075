import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { AuthProvider } from '@/features/auth-providers/api';
import { AuthProviderDialog } from '@/features/auth-providers/components/AuthProviderDialog';
import { ApiError } from '@/lib/api/api-error';
import { renderWithProviders } from '@/test-utils';

const post = vi.hoisted(() => vi.fn());
const patch = vi.hoisted(() => vi.fn());
vi.mock('@/lib/api/client', () => ({ api: { GET: vi.fn(), POST: post, PATCH: patch, DELETE: vi.fn() } }));

const keycloak: AuthProvider = {
  id: '4',
  name: 'Keycloak',
  type: 'oidc',
  issuer: 'https://id.example.com/realms/main',
  clientId: 'hatchery',
  clientSecretSet: true,
  scopes: ['openid', 'email', 'profile'],
  enabled: true,
  showOnSignIn: true,
  allowRegistration: false,
  allowedDomains: ['example.com'],
  redirectUri: 'https://panel.example.com/api/auth/oauth/4/callback',
  createdAt: '2026-11-28T00:00:00.000Z',
  updatedAt: '2026-11-28T00:00:00.000Z',
};

const renderDialog = (provider?: AuthProvider) => {
  const onClose = vi.fn();
  renderWithProviders(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <AuthProviderDialog provider={provider} onClose={onClose} />
    </QueryClientProvider>,
  );
  return { dialog: within(screen.getByRole('dialog')), onClose };
};

describe('AuthProviderDialog', () => {
  beforeEach(() => {
    post.mockReset();
    patch.mockReset();
  });

  it('should put a failed discovery on the issuer field, not above the buttons', async () => {
    const { dialog, onClose } = renderDialog();
    await userEvent.type(dialog.getByRole('textbox', { name: 'Name' }), 'IdP');
    await userEvent.type(dialog.getByRole('textbox', { name: 'Issuer URL' }), 'https://id.example.com');
    await userEvent.type(dialog.getByRole('textbox', { name: 'Client ID' }), 'c');
    await userEvent.type(dialog.getByLabelText(/Client secret/), 's');
    post.mockRejectedValueOnce(new ApiError(400, 'AUTH_PROVIDER_DISCOVERY_FAILED', 'The issuer could not be discovered: HTTP 404', 'req-1'));
    await userEvent.click(dialog.getByRole('button', { name: 'Add provider' }));
    expect(await dialog.findByText('The issuer could not be discovered: HTTP 404')).toBeInTheDocument();
    expect(dialog.getByRole('textbox', { name: 'Issuer URL' })).toHaveAttribute('aria-invalid', 'true');
    expect(dialog.queryByRole('alert')).toBeNull();

    expect(onClose).not.toHaveBeenCalled();
  });

  it('should keep the secret it never shows when left empty', async () => {
    patch.mockResolvedValue({ data: { data: { ...keycloak, name: 'Keycloak 2' } } });
    const { dialog, onClose } = renderDialog(keycloak);
    expect(dialog.getByLabelText(/Client secret/)).toHaveValue('');
    expect(dialog.getByText('A secret is set. Leave empty to keep it, or enter a new one.')).toBeInTheDocument();
    await userEvent.clear(dialog.getByRole('textbox', { name: 'Name' }));
    await userEvent.type(dialog.getByRole('textbox', { name: 'Name' }), 'Keycloak 2');
    await userEvent.click(dialog.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const body = (patch.mock.calls[0] as [string, { body: Record<string, unknown> }])[1].body;
    expect(body).not.toHaveProperty('clientSecret');
    expect(body).toMatchObject({ name: 'Keycloak 2', issuer: 'https://id.example.com/realms/main', allowedDomains: ['example.com'] });
  });
});
