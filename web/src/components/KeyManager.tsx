import { Button, Group, Modal, Stack } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import type { UseMutationResult } from '@tanstack/react-query';
import { Fragment, useState, type ComponentType, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '@/components/EmptyState';
import { FormError } from '@/components/FormError';
import { QueryListBody } from '@/components/QueryListBody';
import { useConfirmedAction } from '@/components/useConfirmedAction';
import { ApiError, fieldErrors } from '@/lib/api/api-error';

/** The words of one kind of key, already translated. */
export interface KeyTexts {
  /** The list's accessible name. */
  title: string;
  loadError: string;
  emptyTitle: string;
  emptyText: string;
  /** The create button and the dialog's submit button. */
  create: string;
  createTitle: string;
  deleteTitle: string;
  deleteText: (name: string) => string;
  delete: string;
  /** A toast after a key is deleted; none when left out. */
  deleted?: (name: string) => string;
}

/** The create dialog's fields: a controlled form, with the panel's per-field errors. */
export interface KeyFieldsProps<TForm> {
  form: TForm;
  onChange: (form: TForm) => void;
  errors: Record<string, string>;
}

/** One kind of key (API keys, Pterodactyl client keys, application keys): where it comes from and how it looks. */
export interface KeyKind<TKey, TCreated, TForm, TBody> {
  keys: {
    data: TKey[] | undefined;
    error: unknown;
    isPending: boolean;
    isError: boolean;
    refetch: () => Promise<unknown>;
  };
  create: UseMutationResult<TCreated, unknown, TBody>;
  revoke: UseMutationResult<unknown, unknown, string>;
  /** The identifier the revoke takes, also of a just-created key. */
  identify: (key: TKey | TCreated) => string;
  /** The key's name in the confirm dialog and toast. */
  name: (key: TKey) => string;
  texts: KeyTexts;
  emptyIcon: ReactNode;
  /** The create form's first state, each time the dialog opens afresh. */
  initialForm: () => TForm;
  /** The request for the form, or null while it is not ready to send (the submit button stays off). */
  toBody: (form: TForm) => TBody | null;
  Fields: ComponentType<KeyFieldsProps<TForm>>;
  /** A wider create dialog (for a table of permissions). */
  wideDialog?: boolean;
  /** One list item (an `li`), with its revoke button calling `onRevoke`. */
  renderItem: (key: TKey, onRevoke: () => void) => ReactNode;
  /** The new key's secret, shown this once (a ShownOnceSecret). */
  renderCreated: (created: TCreated, onDismiss: () => void) => ReactNode;
}

interface KeyManagerProps<TKey, TCreated, TForm, TBody> {
  kind: KeyKind<TKey, TCreated, TForm, TBody>;
  /** The title and what the keys are for; the create button sits beside it once there are keys. */
  heading: ReactNode;
  /** What comes between the heading and the keys (an address the keys are used with, say). */
  children?: ReactNode;
}

const CreateKeyDialog = <TKey, TCreated, TForm, TBody>({ kind, opened, onClose, onCreated }: { kind: KeyKind<TKey, TCreated, TForm, TBody>; opened: boolean; onClose: () => void; onCreated: (created: TCreated) => void }) => {
  const { t } = useTranslation();
  const { create, texts, Fields } = kind;
  const [form, setForm] = useState(kind.initialForm);
  const body = kind.toBody(form);
  const errors = create.error instanceof ApiError ? fieldErrors(create.error) : {};
  const reset = () => {
    setForm(kind.initialForm());
    create.reset();
  };
  const close = () => {
    if (!create.isPending) {
      reset();
      onClose();
    }
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (body === null) {
      return;
    }
    create.mutate(body, {
      onSuccess: (created) => {
        reset();
        onCreated(created);
      },
    });
  };
  return (
    <Modal opened={opened} onClose={close} title={texts.createTitle} closeButtonProps={{ 'aria-label': t('common.close') }} size={kind.wideDialog ? 'lg' : undefined} centered>
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <Fields form={form} onChange={setForm} errors={errors} />
          <FormError error={Object.keys(errors).length > 0 ? null : create.error} />
          <Group justify="flex-end">
            <Button variant="default" onClick={close} disabled={create.isPending}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={create.isPending} disabled={body === null}>
              {texts.create}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
};

/**
 * A list of keys of one kind: create one (its secret shown this once), see them, revoke one after
 * asking. The kind brings its query, its create form's fields, how a key looks and the revoke.
 */
export const KeyManager = <TKey, TCreated, TForm, TBody>({ kind, heading, children }: KeyManagerProps<TKey, TCreated, TForm, TBody>) => {
  const { texts } = kind;
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<TCreated | null>(null);
  const revoke = useConfirmedAction({
    mutation: kind.revoke,
    variables: (key: TKey) => kind.identify(key),
    title: texts.deleteTitle,
    message: (key) => texts.deleteText(kind.name(key)),
    confirmLabel: texts.delete,
    danger: true,
    successMessage: (key) => texts.deleted?.(kind.name(key)),
    // A revoked key's secret is no longer worth showing.
    onSuccess: (key) => setCreated((shown) => (shown !== null && kind.identify(shown) === kind.identify(key) ? null : shown)),
  });
  const createButton = (
    <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setCreating(true)}>
      {texts.create}
    </Button>
  );

  return (
    <Stack gap="md">
      <Group justify="space-between" wrap="wrap" gap="xs" align="flex-start">
        {heading}
        {kind.keys.data && kind.keys.data.length > 0 ? createButton : null}
      </Group>
      {children}
      {created !== null ? kind.renderCreated(created, () => setCreated(null)) : null}
      <QueryListBody query={kind.keys} errorTitle={texts.loadError} empty={<EmptyState icon={kind.emptyIcon} title={texts.emptyTitle} description={texts.emptyText} action={createButton} />}>
        {(keys) => (
          <Stack component="ul" gap="sm" m={0} p={0} style={{ listStyle: 'none' }} aria-label={texts.title}>
            {keys.map((key) => (
              <Fragment key={kind.identify(key)}>{kind.renderItem(key, () => revoke.ask(key))}</Fragment>
            ))}
          </Stack>
        )}
      </QueryListBody>
      <CreateKeyDialog
        kind={kind}
        opened={creating}
        onClose={() => setCreating(false)}
        onCreated={(key) => {
          setCreating(false);
          setCreated(key);
        }}
      />
      {revoke.dialog}
    </Stack>
  );
};
