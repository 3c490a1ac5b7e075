import { QueryClient, QueryClientProvider, useMutation, useQuery } from '@tanstack/react-query';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState, type ReactElement } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { EmptyState } from '@/components/EmptyState';
import { QueryListBody } from '@/components/QueryListBody';
import { useConfirmedAction } from '@/components/useConfirmedAction';
import { ApiError } from '@/lib/api/api-error';
import { renderWithProviders } from '@/test-utils';

const notify = vi.hoisted(() => ({ notify: vi.fn(), notifyError: vi.fn() }));
vi.mock('@/lib/notify', () => notify);

const withQueries = (ui: ReactElement) => renderWithProviders(<QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>{ui}</QueryClientProvider>);

const Fruits = ({ load }: { load: () => Promise<string[]> }) => {
  const query = useQuery({ queryKey: ['fruits'], queryFn: load });
  return (
    <QueryListBody query={query} errorTitle="Could not load the fruit" empty={<EmptyState title="No fruit yet" />}>
      {(fruits) => (
        <ul aria-label="Fruit">
          {fruits.map((f) => (
            <li key={f}>{f}</li>
          ))}
        </ul>
      )}
    </QueryListBody>
  );
};

describe(QueryListBody.name, () => {
  it('should show skeleton rows while the query loads, then the list', async () => {
    let answer: (fruits: string[]) => void = () => undefined;
    withQueries(<Fruits load={() => new Promise((resolve) => (answer = resolve))} />);
    expect(screen.getByRole('status', { name: 'Loading…' })).toBeInTheDocument();
    answer(['apple', 'pear']);
    expect(await screen.findByRole('list', { name: 'Fruit' })).toHaveTextContent('applepear');
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('should show the empty state when the list has nothing in it', async () => {
    withQueries(<Fruits load={() => Promise.resolve([])} />);
    expect(await screen.findByRole('heading', { name: 'No fruit yet' })).toBeInTheDocument();
    expect(screen.queryByRole('list')).toBeNull();
  });

  it('should show the error with its title, and load again on Retry', async () => {
    const load = vi
      .fn<() => Promise<string[]>>()
      .mockRejectedValueOnce(new ApiError(503, 'DAEMON_UNAVAILABLE', 'down', 'req-1'))
      .mockResolvedValueOnce(['plum']);
    withQueries(<Fruits load={load} />);
    expect(await screen.findByRole('alert')).toHaveTextContent('Could not load the fruit');
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('list', { name: 'Fruit' })).toHaveTextContent('plum');
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('should wait for another query the body needs, and read emptiness as told', async () => {
    withQueries(<Paged />);
    expect(await screen.findByRole('status', { name: 'Loading…' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Done waiting' }));
    expect(await screen.findByText('Nothing on this page')).toBeInTheDocument();
  });
});

const Paged = () => {
  const [waiting, setWaiting] = useState(true);
  const query = useQuery({ queryKey: ['paged'], queryFn: () => Promise.resolve({ data: [] as string[], total: 0 }) });
  return (
    <>
      <button type="button" onClick={() => setWaiting(false)}>
        Done waiting
      </button>
      <QueryListBody query={query} waiting={waiting} isEmpty={(page) => page.total === 0} empty={<p>Nothing on this page</p>}>
        {(page) => <p>{page.total} items</p>}
      </QueryListBody>
    </>
  );
};

const DeleteFruit = ({ remove, keepOpenOnError }: { remove: (name: string) => Promise<{ left: number }>; keepOpenOnError?: boolean }) => {
  const onSuccess = vi.fn();
  const action = useConfirmedAction({
    mutation: useMutation({ mutationFn: remove }),
    variables: (fruit: string) => fruit,
    title: 'Delete the fruit?',
    message: (fruit) => `The ${fruit} goes for good.`,
    confirmLabel: 'Delete',
    danger: true,
    successMessage: (fruit, { left }) => `Deleted the ${fruit}; ${left} left.`,
    onSuccess,
    keepOpenOnError,
  });
  return (
    <>
      <button type="button" onClick={() => action.ask('pear')}>
        Delete pear
      </button>
      {action.dialog}
    </>
  );
};

describe(useConfirmedAction.name, () => {
  it('should ask first, run the mutation with the target, toast the success and close', async () => {
    const remove = vi.fn((_fruit: string) => Promise.resolve({ left: 2 }));
    withQueries(<DeleteFruit remove={remove} />);
    await userEvent.click(screen.getByRole('button', { name: 'Delete pear' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete the fruit?' });
    expect(dialog).toHaveTextContent('The pear goes for good.');
    expect(remove).not.toHaveBeenCalled();

    await userEvent.click(screen.getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(notify.notify).toHaveBeenCalledWith({ color: 'green', message: 'Deleted the pear; 2 left.' }));
    expect(remove.mock.calls[0]?.[0]).toBe('pear');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(notify.notifyError).not.toHaveBeenCalled();
  });

  it('should toast the error and close, or stay open to try again when told', async () => {
    const error = new ApiError(409, 'CONFLICT', 'in use');
    const remove = vi.fn(() => Promise.reject(error));
    const { unmount } = withQueries(<DeleteFruit remove={remove} />);
    await userEvent.click(screen.getByRole('button', { name: 'Delete pear' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(notify.notifyError).toHaveBeenCalledWith(error));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    unmount();

    notify.notifyError.mockClear();
    withQueries(<DeleteFruit remove={remove} keepOpenOnError />);
    await userEvent.click(screen.getByRole('button', { name: 'Delete pear' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(notify.notifyError).toHaveBeenCalledWith(error));
    expect(screen.getByRole('dialog', { name: 'Delete the fruit?' })).toBeInTheDocument();
  });
});
