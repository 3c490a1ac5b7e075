import { Button, Checkbox, Group, PasswordInput, Stack, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { FormError } from '@/components/FormError';
import type { AdminUser } from '@/features/admin-users/api';
import { ApiError, fieldErrors } from '@/lib/api/api-error';

interface UserFormValues {
  username: string;
  email: string;
  name: string;
  password?: string;
  admin: boolean;
}

interface UserFormProps {
  /** The user edited, or none for a new one. */
  user?: AdminUser;
  submitLabel: string;
  pending: boolean;
  error: unknown;
  onSubmit: (values: UserFormValues) => void;
  onCancel?: () => void;
  /** The admin flag is offered (full administrators only: a role holder cannot make administrators). */
  canMakeAdmin?: boolean;
}

/** Username, e-mail, name, password and the admin flag; an empty password keeps (or, new, leaves unset) the password. */
export const UserForm = ({ user, submitLabel, pending, error, onSubmit, onCancel, canMakeAdmin = true }: UserFormProps) => {
  const { t } = useTranslation();
  const [username, setUsername] = useState(user?.username ?? '');
  const [email, setEmail] = useState(user?.email ?? '');
  const [name, setName] = useState(user?.name ?? '');
  const [password, setPassword] = useState('');
  const [admin, setAdmin] = useState(user?.admin ?? false);
  const fields = error instanceof ApiError ? fieldErrors(error) : {};
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit({ username: username.trim(), email: email.trim(), name: name.trim(), admin, ...(password ? { password } : {}) });
  };
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <TextInput label={t('adminUsers.username')} description={t('adminUsers.usernameHelp')} value={username} onChange={(e) => setUsername(e.currentTarget.value)} error={fields.username} required autoComplete="off" data-autofocus />
        <TextInput label={t('adminUsers.email')} type="email" value={email} onChange={(e) => setEmail(e.currentTarget.value)} error={fields.email} required autoComplete="off" />
        <TextInput label={t('adminUsers.name')} value={name} onChange={(e) => setName(e.currentTarget.value)} error={fields.name} autoComplete="off" />
        <PasswordInput
          label={t('adminUsers.password')}
          description={user ? t('adminUsers.passwordKeep') : t('adminUsers.passwordOptional')}
          value={password}
          onChange={(e) => setPassword(e.currentTarget.value)}
          error={fields.password}
          autoComplete="new-password"
        />
        {canMakeAdmin ? <Checkbox label={t('adminUsers.admin')} description={t('adminUsers.adminHelp')} checked={admin} onChange={(e) => setAdmin(e.currentTarget.checked)} /> : null}
        {error ? <FormError error={error} /> : null}
        <Group justify="flex-end">
          {onCancel ? (
            <Button variant="default" onClick={onCancel} disabled={pending}>
              {t('common.cancel')}
            </Button>
          ) : null}
          <Button type="submit" loading={pending}>
            {submitLabel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
};
