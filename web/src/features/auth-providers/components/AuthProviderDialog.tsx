import { Button, Group, Modal, Select, Stack, Switch, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { FormError } from '@/components/FormError';
import { AUTH_PROVIDER_TYPES, type AuthProvider, useSaveAuthProvider } from '@/features/auth-providers/api';
import { createProviderBody, emptyProviderForm, type ProviderForm, providerFormOf, updateProviderBody, withType } from '@/features/auth-providers/provider-form';
import { allOnFields, ApiError, fieldErrors } from '@/lib/api/api-error';
import { notify } from '@/lib/notify';

const MONO_INPUT = { input: { fontFamily: 'var(--mantine-font-family-monospace)' } };

/** New (`provider` undefined) or edit: the type fills a preset's name and scopes; the secret is write-only. */
export const AuthProviderDialog = ({ provider, onClose }: { provider?: AuthProvider; onClose: () => void }) => {
  const { t } = useTranslation();
  const save = useSaveAuthProvider();
  const [form, setForm] = useState<ProviderForm>(provider ? providerFormOf(provider) : emptyProviderForm());
  const fields = save.error instanceof ApiError ? fieldErrors(save.error) : {};
  const issuerError = save.error instanceof ApiError && save.error.code.startsWith('AUTH_PROVIDER_') && save.error.code !== 'AUTH_PROVIDER_NOT_FOUND' ? save.error.message : fields.issuer;
  const set = (change: Partial<ProviderForm>) => setForm({ ...form, ...change });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate(
      { id: provider?.id, body: provider ? updateProviderBody(form) : createProviderBody(form) },
      {
        onSuccess: (saved) => {
          notify({ color: 'green', message: t(provider ? 'authProviders.saved' : 'authProviders.created', { name: saved.name }) });
          onClose();
        },
      },
    );
  };
  // The error goes above the buttons unless each of its fields is on the form as it is now.
  const visible = new Set(['name', 'clientId', 'clientSecret', 'scopes', 'allowedDomains', ...(form.type === 'oidc' ? ['issuer'] : [])]);
  const onFields = form.type === 'oidc' && issuerError !== undefined ? true : allOnFields(fields, visible);
  return (
    <Modal
      opened
      onClose={save.isPending ? () => undefined : onClose}
      title={provider ? t('authProviders.editTitle', { name: provider.name }) : t('authProviders.createTitle')}
      closeButtonProps={{ 'aria-label': t('common.close') }}
      size="lg"
      centered
    >
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <Select
            label={t('authProviders.type')}
            description={t('authProviders.typeHelp')}
            data={AUTH_PROVIDER_TYPES.map((type) => ({ value: type, label: t(`authProviders.types.${type}`) }))}
            value={form.type}
            onChange={(value) => value && setForm(withType(form, value))}
            disabled={provider !== undefined}
            allowDeselect={false}
          />
          <TextInput label={t('authProviders.name')} description={t('authProviders.nameHelp')} value={form.name} onChange={(e) => set({ name: e.currentTarget.value })} error={fields.name} maxLength={64} required data-autofocus />
          {form.type === 'oidc' ? (
            <TextInput
              label={t('authProviders.issuer')}
              description={t('authProviders.issuerHelp')}
              placeholder="https://id.example.com/realms/main"
              value={form.issuer}
              onChange={(e) => set({ issuer: e.currentTarget.value })}
              error={issuerError}
              styles={MONO_INPUT}
              type="url"
              required
            />
          ) : null}
          <TextInput label={t('authProviders.clientId')} value={form.clientId} onChange={(e) => set({ clientId: e.currentTarget.value })} error={fields.clientId} styles={MONO_INPUT} autoComplete="off" required />
          <TextInput
            label={t('authProviders.clientSecret')}
            description={provider ? t('authProviders.clientSecretKeep') : t('authProviders.clientSecretHelp')}
            placeholder={provider ? t('authProviders.clientSecretSet') : undefined}
            value={form.clientSecret}
            onChange={(e) => set({ clientSecret: e.currentTarget.value })}
            error={fields.clientSecret}
            styles={MONO_INPUT}
            type="password"
            autoComplete="new-password"
            required={!provider}
          />
          <TextInput label={t('authProviders.scopes')} description={t('authProviders.scopesHelp')} value={form.scopes} onChange={(e) => set({ scopes: e.currentTarget.value })} error={fields.scopes} styles={MONO_INPUT} />
          <Switch label={t('authProviders.enabled')} checked={form.enabled} onChange={(e) => set({ enabled: e.currentTarget.checked })} />
          <Switch label={t('authProviders.showOnSignIn')} description={t('authProviders.showOnSignInHelp')} checked={form.showOnSignIn} onChange={(e) => set({ showOnSignIn: e.currentTarget.checked })} />
          <Switch label={t('authProviders.allowRegistration')} description={t('authProviders.allowRegistrationHelp')} checked={form.allowRegistration} onChange={(e) => set({ allowRegistration: e.currentTarget.checked })} />
          <TextInput
            label={t('authProviders.allowedDomains')}
            description={t('authProviders.allowedDomainsHelp')}
            placeholder="example.com, corp.example.com"
            value={form.allowedDomains}
            onChange={(e) => set({ allowedDomains: e.currentTarget.value })}
            error={fields.allowedDomains}
          />
          {save.error && !onFields ? <FormError error={save.error} /> : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose} disabled={save.isPending}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={save.isPending}>
              {provider ? t('authProviders.save') : t('authProviders.create')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
};
