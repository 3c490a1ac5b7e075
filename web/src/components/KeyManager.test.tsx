import { TextInput } from '@mantine/core';
import { QueryClient, QueryClientProvider, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { KeyManager, type KeyFieldsProps, type KeyKind } from '@/components/KeyManager';
import { renderWithProviders } from '@/test-utils';

const notify = vi.hoisted(() => ({ notify: vi.fn(), notifyError: vi.fn() }));
vi.mock('@/lib/notify', () => notify);

interface Key {
  id: string;
  label: string;
}

const NameField = ({ form, onChange, errors }: KeyFieldsProps<{ label: string }>) => <TextInput label="Label" value={form.label} onChange={(e) => onChange({ label: e.currentTarget.value })} error={errors.label} />;

/** A kind of key kept in a plain array, as a panel would keep it. */
const Keys = ({ stored }: { stored: Key[] }) => {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['keys'] });
  const kind: KeyKind<Key, Key & { secret: string }, { label: string }, { label: string }> = {
    keys: useQuery({ queryKey: ['keys'], queryFn: () => Promise.resolve([...stored]) }),
    create: useMutation({
      mutationFn: ({ label }: { label: string }) => {
        const key = { id: `k${stored.length + 1}`, label };
        stored.push(key);
        return Promise.resolve({ ...key, secret: `secret-of-${label}` });
      },
      onSuccess: refresh,
    }),
    revoke: useMutation({
      mutationFn: (id: string) => {
        stored.splice(
          stored.findIndex((k) => k.id === id),
          1,
        );
        return Promise.resolve();
      },
      onSuccess: refresh,
    }),
    identify: (key) => key.id,
    name: (key) => key.label,
    texts: {
      title: 'Test keys',
      loadError: 'Could not load the keys',
      emptyTitle: 'No keys yet',
      emptyText: 'Create one.',
      create: 'Create key',
      createTitle: 'New key',
      deleteTitle: 'Delete the key?',
      deleteText: (name) => `The key ${name} stops working.`,
      delete: 'Delete key',
      deleted: (name) => `Deleted ${name}`,
    },
    emptyIcon: null,
    initialForm: () => ({ label: '' }),
    toBody: ({ label }) => (label.trim() ? { label: label.trim() } : null),
    Fields: NameField,
    renderItem: (key, onRevoke) => (
      <li>
        {key.label}
        <button type="button" onClick={onRevoke}>
          Delete {key.label}
        </button>
      </li>
    ),
    renderCreated: (created, onDismiss) => (
      <div role="status" aria-label="New key">
        {created.secret}
        <button type="button" onClick={onDismiss}>
          Dismiss
        </button>
      </div>
    ),
  };
  return <KeyManager kind={kind} heading={<h2>Test keys</h2>} />;
};

describe(KeyManager.name, () => {
  it('should create a key and show its secret once, then revoke it after asking, which hides the secret', async () => {
    const stored: Key[] = [];
    renderWithProviders(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <Keys stored={stored} />
      </QueryClientProvider>,
    );

    expect(await screen.findByRole('heading', { name: 'No keys yet' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Create key' }));
    const dialog = await screen.findByRole('dialog', { name: 'New key' });
    const submit = within(dialog).getByRole('button', { name: 'Create key' });
    expect(submit).toBeDisabled();
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Label' }), 'billing');
    await userEvent.click(submit);

    expect(await screen.findByRole('status', { name: 'New key' })).toHaveTextContent('secret-of-billing');
    const list = await screen.findByRole('list', { name: 'Test keys' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(1);
    // Once there are keys, the create button sits by the heading instead of in the empty state.
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'New key' })).toBeNull());
    expect(screen.getByRole('button', { name: 'Create key' })).toBeInTheDocument();

    await userEvent.click(within(list).getByRole('button', { name: 'Delete billing' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete the key?' });
    expect(confirm).toHaveTextContent('The key billing stops working.');
    await userEvent.click(within(confirm).getByRole('button', { name: 'Delete key' }));

    await waitFor(() => expect(notify.notify).toHaveBeenCalledWith({ color: 'green', message: 'Deleted billing' }));
    expect(stored).toEqual([]);
    expect(await screen.findByRole('heading', { name: 'No keys yet' })).toBeInTheDocument();
    expect(screen.queryByRole('status', { name: 'New key' })).toBeNull();
  });
});
