import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { Delivery } from '@/features/webhooks/api';
import { DeliveryList } from '@/features/webhooks/components/DeliveryList';
import { renderWithProviders } from '@/test-utils';

const get = vi.hoisted(() => vi.fn());
vi.mock('@/lib/api/client', () => ({ api: { GET: get, POST: vi.fn(), PATCH: vi.fn(), DELETE: vi.fn() } }));

/** A delivery that failed twice (no answer, then a 500) and waits for its third try. */
const retrying: Delivery = {
  id: '31',
  event: 'backup.failed',
  test: false,
  status: 'pending',
  payload: { event: 'backup.failed', server: { uuid: 'u-1' } },
  attempts: [
    { at: '2026-11-28T10:00:00.000Z', statusCode: null, error: 'connect ECONNREFUSED 10.0.0.9:443', durationMs: 4 },
    { at: '2026-11-28T10:00:10.000Z', statusCode: 500, error: null, durationMs: 120 },
  ],
  nextAttemptAt: '2026-11-28T10:00:40.000Z',
  createdAt: '2026-11-28T10:00:00.000Z',
  finishedAt: null,
};

describe('DeliveryList', () => {
  it("should show a delivery's status, its attempts and last answer, and open to each attempt and the body", async () => {
    get.mockResolvedValue({ data: { data: [retrying], meta: { pagination: { total: 1, count: 1, perPage: 20, currentPage: 1, totalPages: 1 } } } });
    renderWithProviders(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <DeliveryList scope={{ kind: 'admin' }} webhookId="5" />
      </QueryClientProvider>,
    );
    const row = within((await screen.findAllByRole('listitem'))[0]);
    expect(get).toHaveBeenCalledWith('/api/admin/webhooks/{id}/deliveries', { params: { path: { id: '5' }, query: { page: 1, perPage: 20 } } });
    expect(row.getByText('Retrying')).toBeInTheDocument();
    expect(row.getByText('Backup failed')).toBeInTheDocument();
    expect(row.getByText(/^2 attempts · HTTP 500 · Next try /)).toBeInTheDocument();
    expect(row.queryByText(/ECONNREFUSED/)).toBeNull();

    await userEvent.click(row.getByRole('button', { name: /^Details of backup\.failed/ }));
    // Opened after the Collapse's transition.
    const attempts = (await row.findAllByRole('listitem')).map((li) => li.textContent);
    expect(attempts).toHaveLength(2);
    expect(attempts[0]).toMatch(/ · connect ECONNREFUSED 10\.0\.0\.9:443 · 4 ms$/);
    expect(attempts[1]).toMatch(/ · HTTP 500 · 120 ms$/);
    expect(row.getByLabelText('Body sent').textContent).toBe(JSON.stringify(retrying.payload, null, 2));
  });

  it('should read the next page of deliveries when asked', async () => {
    const page = (n: number) => ({ data: { data: [{ ...retrying, id: `p${n}`, event: n === 1 ? 'backup.failed' : 'server.crashed' }], meta: { pagination: { total: 21, count: 1, perPage: 20, currentPage: n, totalPages: 2 } } } });
    get.mockReset();
    get.mockImplementation((_path: string, init: { params: { query: { page: number } } }) => Promise.resolve(page(init.params.query.page)));
    renderWithProviders(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <DeliveryList scope={{ kind: 'server', serverId: 'abcd1234' }} webhookId="5" />
      </QueryClientProvider>,
    );
    expect(await screen.findByText('Backup failed')).toBeInTheDocument();
    await userEvent.click(within(screen.getByLabelText('Pages of deliveries')).getByRole('button', { name: 'Page 2' }));
    expect(await screen.findByText('Server crashed')).toBeInTheDocument();
    expect(get).toHaveBeenLastCalledWith('/api/client/servers/{server}/webhooks/{id}/deliveries', { params: { path: { server: 'abcd1234', id: '5' }, query: { page: 2, perPage: 20 } } });
  });
});
