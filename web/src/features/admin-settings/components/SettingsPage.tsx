import { Button, Card, Group, Radio, Skeleton, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorState } from '@/components/ErrorState';
import { FormError } from '@/components/FormError';
import { adminSettingsQuery, useUpdateAdminSettings, type AdminSettings, type TwoFactorPolicy } from '@/features/admin-settings/api';
import { useCanWrite } from '@/features/auth/admin-access';

const POLICIES: readonly TwoFactorPolicy[] = ['none', 'admins', 'all'];

/** Who must have a second factor: nobody, administrators, or everyone. */
const TwoFactorPolicyCard = ({ settings }: { settings: AdminSettings }) => {
  const { t } = useTranslation();
  const update = useUpdateAdminSettings();
  const [policy, setPolicy] = useState<TwoFactorPolicy>(settings.twoFactorPolicy);
  const canWrite = useCanWrite('settings');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    update.mutate({ twoFactorPolicy: policy }, { onSuccess: () => notifications.show({ color: 'teal', message: t('adminSettings.saved') }) });
  };
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="settings-two-factor">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <Title order={2} size="h4" id="settings-two-factor">
            {t('adminSettings.twoFactor.title')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('adminSettings.twoFactor.text')}
          </Text>
          <Radio.Group value={policy} onChange={(value) => setPolicy(value)} label={t('adminSettings.twoFactor.label')} readOnly={!canWrite}>
            <Stack gap="xs" mt="xs">
              {POLICIES.map((value) => (
                <Radio key={value} value={value} label={t(`adminSettings.twoFactor.${value}`)} description={t(`adminSettings.twoFactor.${value}Help`)} />
              ))}
            </Stack>
          </Radio.Group>
          <FormError error={update.error} />
          {canWrite ? (
          <Group>
            <Button type="submit" loading={update.isPending} disabled={policy === settings.twoFactorPolicy}>
              {t('adminSettings.save')}
            </Button>
          </Group>
          ) : null}
        </Stack>
      </form>
    </Card>
  );
};

/** `/admin/settings`: the settings administrators change while the panel runs (the rest is its configuration). */
export const SettingsPage = () => {
  const { t } = useTranslation();
  const settings = useQuery(adminSettingsQuery);
  if (settings.isError) {
    return <ErrorState error={settings.error} title={t('adminSettings.loadError')} onRetry={() => void settings.refetch()} />;
  }
  return (
    <Stack gap="md" maw={760}>
      {settings.data ? <TwoFactorPolicyCard settings={settings.data} /> : <Skeleton h={260} radius="md" />}
    </Stack>
  );
};
