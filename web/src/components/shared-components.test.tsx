import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { EmptyState } from '@/components/EmptyState';
import { ErrorState } from '@/components/ErrorState';
import { NewPasswordFields, newPasswordReady } from '@/components/PasswordFields';
import { CardsSkeleton, ListSkeleton, PageSkeleton } from '@/components/Skeletons';
import { ApiError } from '@/lib/api/api-error';
import { renderWithProviders } from '@/test-utils';

describe('ErrorState', () => {
  it('should show the message, the request id with a copy button, and retry', async () => {
    const onRetry = vi.fn();
    const writeText = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    renderWithProviders(<ErrorState error={new ApiError(503, 'DAEMON_UNAVAILABLE', 'Node down', 'req-42')} onRetry={onRetry} />);

    expect(screen.getByRole('alert')).toHaveTextContent('The node this server runs on is not answering.');
    expect(screen.getByText('req-42')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Copy request ID' }));
    expect(writeText).toHaveBeenCalledWith('req-42');
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(onRetry).toHaveBeenCalledTimes(1);
  });

  it('should leave out the request id and Retry when there are none', () => {
    renderWithProviders(<ErrorState error={new Error('boom')} />);
    expect(screen.getByRole('alert')).toHaveTextContent('boom');
    expect(screen.queryByRole('button')).toBeNull();
  });
});

describe('EmptyState', () => {
  it('should show the title, the description and the next action', () => {
    renderWithProviders(<EmptyState title="No servers yet" description="Ask an administrator." action={<button type="button">Create</button>} />);
    expect(screen.getByRole('heading', { name: 'No servers yet' })).toBeInTheDocument();
    expect(screen.getByText('Ask an administrator.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Create' })).toBeInTheDocument();
  });
});

describe('Skeletons', () => {
  it.each([
    ['list', <ListSkeleton key="l" rows={3} />],
    ['cards', <CardsSkeleton key="c" cards={2} />],
    ['page', <PageSkeleton key="p" />],
  ])('should announce the %s skeleton as loading', (_name, element) => {
    renderWithProviders(element);
    expect(screen.getByRole('status', { name: 'Loading…' })).toHaveAttribute('aria-busy', 'true');
  });
});

describe('ConfirmDialog', () => {
  it('should confirm or cancel, with focus starting on Cancel', async () => {
    const onConfirm = vi.fn();
    const onClose = vi.fn();
    renderWithProviders(<ConfirmDialog opened title="Delete server?" message="This cannot be undone." confirmLabel="Delete" danger onConfirm={onConfirm} onClose={onClose} />);

    expect(await screen.findByRole('dialog', { name: 'Delete server?' })).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Cancel' })).toHaveFocus());
    await userEvent.click(screen.getByRole('button', { name: 'Delete' }));
    expect(onConfirm).toHaveBeenCalledTimes(1);
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onClose).toHaveBeenCalled();
  });
});

describe('NewPasswordFields', () => {
  const render = (value: string, repeat: string, touched: boolean, serverError?: string) =>
    renderWithProviders(<NewPasswordFields value={value} repeat={repeat} onChange={vi.fn()} onRepeatChange={vi.fn()} touched={touched} serverError={serverError} />);

  it('should name the broken rule and the mismatch only once the form was submitted', () => {
    const { unmount } = render('short', 'other', false);
    expect(screen.queryByText('Use at least 8 characters.')).toBeNull();
    expect(screen.queryByText('The two passwords differ.')).toBeNull();
    unmount();
    render('short', 'other', true);
    expect(screen.getByText('Use at least 8 characters.')).toBeInTheDocument();
    expect(screen.getByText('The two passwords differ.')).toBeInTheDocument();
  });

  it("should show the server's message when the browser found nothing wrong", () => {
    render('long enough password', 'long enough password', true, 'Too common.');
    expect(screen.getByText('Too common.')).toBeInTheDocument();
    expect(screen.queryByText('The two passwords differ.')).toBeNull();
  });

  it('should call a password ready only when it keeps the rules and both entries agree', () => {
    expect(newPasswordReady('long enough', 'long enough')).toBe(true);
    expect(newPasswordReady('long enough', 'long enougH')).toBe(false);
    expect(newPasswordReady('short', 'short')).toBe(false);
  });
});
