import type { UseMutationResult } from '@tanstack/react-query';
import { useState, type ComponentProps, type ReactElement, type ReactNode } from 'react';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { notify, notifyError } from '@/lib/notify';

interface ConfirmedActionOptions<TTarget, TData, TVariables> {
  /** The action to run once confirmed. */
  mutation: UseMutationResult<TData, unknown, TVariables>;
  /** The mutation's variables for the target (its id, say). */
  variables: (target: TTarget) => TVariables;
  title: string;
  message: (target: TTarget) => ReactNode;
  confirmLabel: string;
  /** Red confirm button, for what cannot be undone. */
  danger?: boolean;
  /** The success toast's text; no toast when left out or undefined. */
  successMessage?: (target: TTarget, data: TData) => string | undefined;
  /** What else follows success (the dialog has closed already). */
  onSuccess?: (target: TTarget, data: TData) => void;
  /**
   * On failure the error is toasted and the dialog closes; `keepOpenOnError` leaves it open to try
   * again, `notifyOnError: false` leaves the error to the page (the mutation's error shows there).
   */
  keepOpenOnError?: boolean;
  notifyOnError?: boolean;
}

interface ConfirmedAction<TTarget> {
  /** Opens the dialog for this target. */
  ask: (target: TTarget) => void;
  /** The dialog, to render once on the page. */
  dialog: ReactElement;
}

const ConfirmedActionDialog = ({ message, ...props }: Omit<ComponentProps<typeof ConfirmDialog>, 'message'> & { message: () => ReactNode }) => <ConfirmDialog {...props} message={message()} />;

/**
 * An action that asks first (delete, revoke, rotate): the confirm dialog, the mutation behind it,
 * a success toast and an error toast, for one target at a time.
 */
export const useConfirmedAction = <TTarget, TData = unknown, TVariables = unknown>({
  mutation,
  variables,
  title,
  message,
  confirmLabel,
  danger,
  successMessage,
  onSuccess,
  keepOpenOnError = false,
  notifyOnError = true,
}: ConfirmedActionOptions<TTarget, TData, TVariables>): ConfirmedAction<TTarget> => {
  // The last target stays while the dialog closes, so its text does not blank out mid-animation.
  const [target, setTarget] = useState<TTarget | null>(null);
  const [opened, setOpened] = useState(false);
  const confirm = () => {
    if (target === null) {
      return;
    }
    mutation.mutate(variables(target), {
      onSuccess: (data) => {
        const text = successMessage?.(target, data);
        if (text) {
          notify({ color: 'green', message: text });
        }
        setOpened(false);
        onSuccess?.(target, data);
      },
      onError: (error) => {
        if (!keepOpenOnError) {
          setOpened(false);
        }
        if (notifyOnError) {
          notifyError(error);
        }
      },
    });
  };
  // The message is worded when the dialog renders, so it may use what the page defines after this hook.
  const dialog = (
    <ConfirmedActionDialog opened={opened} title={title} message={() => (target === null ? '' : message(target))} confirmLabel={confirmLabel} danger={danger} loading={mutation.isPending} onClose={() => setOpened(false)} onConfirm={confirm} />
  );
  const ask = (next: TTarget) => {
    setTarget(next);
    setOpened(true);
  };
  return { ask, dialog };
};
