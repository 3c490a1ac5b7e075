import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Webhook, WebhookScope } from '@/features/webhooks/api';
import { WebhookDialog } from '@/features/webhooks/components/WebhookDialog';
import { ApiError } from '@/lib/api/api-error';
import { renderWithProviders } from '@/test-utils';

const post = vi.hoisted(() => vi.fn());
const patch = vi.hoisted(() => vi.fn());
vi.mock('@/lib/api/client', () => ({ api: { GET: vi.fn(), POST: post, PATCH: patch, DELETE: vi.fn() } }));

/** A Discord webhook as the panel lists it: the token of its URL hidden. */
const discord: Webhook = {
  id: '9',
  name: 'Ops',
  kind: 'discord',
  url: 'https://discord.com/api/webhooks/1/…',
  events: ['server.crashed'],
  enabled: true,
  hasSecret: false,
  serverId: '3',
  createdAt: '2026-11-28T00:00:00.000Z',
  updatedAt: '2026-11-28T00:00:00.000Z',
};

const SERVER: WebhookScope = { kind: 'server', serverId: 'abcd1234' };

const renderDialog = (scope: WebhookScope, hook?: Webhook) => {
  const onClose = vi.fn();
  renderWithProviders(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <WebhookDialog scope={scope} hook={hook} onClose={onClose} />
    </QueryClientProvider>,
  );
  return { dialog: within(screen.getByRole('dialog')), onClose };
};

describe('WebhookDialog', () => {
  beforeEach(() => {
    post.mockReset();
    patch.mockReset();
  });

  it('should keep a hidden Discord URL: only the changed name is sent', async () => {
    patch.mockResolvedValue({ data: { data: { ...discord, name: 'Ops 2' } } });
    const { dialog, onClose } = renderDialog(SERVER, discord);
    const url = dialog.getByRole('textbox', { name: 'URL' });
    expect(url).toHaveValue('');
    expect(dialog.getByText('Leave empty to keep the current URL, whose token is hidden.')).toBeInTheDocument();
    expect(dialog.queryByRole('textbox', { name: /signing secret/i })).toBeNull();
    await userEvent.clear(dialog.getByRole('textbox', { name: 'Name' }));
    await userEvent.type(dialog.getByRole('textbox', { name: 'Name' }), 'Ops 2');
    await userEvent.click(dialog.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(patch).toHaveBeenCalledWith('/api/client/servers/{server}/webhooks/{id}', { params: { path: { server: 'abcd1234', id: '9' } }, body: { name: 'Ops 2' } });
  });

  it("should offer a server's events only, ask for one, and put the panel's refusals on their fields", async () => {
    const { dialog, onClose } = renderDialog(SERVER);
    expect(dialog.queryByRole('checkbox', { name: 'Node not answering (2 minutes)' })).toBeNull();
    expect(dialog.queryByRole('checkbox', { name: 'Server deleted' })).toBeNull();
    expect(dialog.getByText('Its third crash within 10 minutes')).toBeInTheDocument();
    await userEvent.type(dialog.getByRole('textbox', { name: 'Name' }), 'Hooks');
    await userEvent.type(dialog.getByRole('textbox', { name: 'URL' }), 'https://10.0.0.1/h');
    await userEvent.click(dialog.getByRole('button', { name: 'New webhook' }));
    expect(dialog.getByText('Choose at least one event, or all events.')).toBeInTheDocument();
    expect(post).not.toHaveBeenCalled();
    await userEvent.click(dialog.getByRole('checkbox', { name: 'Backup failed' }));
    expect(dialog.queryByText('Choose at least one event, or all events.')).toBeNull();

    // A refused address: on the URL field, not above the buttons.
    post.mockRejectedValueOnce(new ApiError(400, 'OUTBOUND_URL_REFUSED', 'The URL points inside the panel network', 'req-1'));
    await userEvent.click(dialog.getByRole('button', { name: 'New webhook' }));
    expect(await dialog.findByText('The URL points inside the panel network')).toBeInTheDocument();
    expect(dialog.getByRole('textbox', { name: 'URL' })).toHaveAttribute('aria-invalid', 'true');
    expect(dialog.queryByRole('alert')).toBeNull();
    expect(post).toHaveBeenCalledWith('/api/client/servers/{server}/webhooks', {
      params: { path: { server: 'abcd1234' } },
      body: { name: 'Hooks', kind: 'http', url: 'https://10.0.0.1/h', events: ['backup.failed'], enabled: true },
    });

    // An error about a field the form does not show (the events, once "all events" is ticked): above the buttons.
    await userEvent.click(dialog.getByRole('checkbox', { name: 'All events' }));
    post.mockRejectedValueOnce(new ApiError(400, 'VALIDATION_FAILED', 'Validation failed', 'req-2', [{ field: 'events', message: 'events is wrong' }]));
    await userEvent.click(dialog.getByRole('button', { name: 'New webhook' }));
    expect(await dialog.findByRole('alert')).toHaveTextContent('req-2');
    expect(onClose).not.toHaveBeenCalled();
  });
});
