import { Alert, Anchor, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { FormError } from '@/components/FormError';
import { MIB } from '@/features/admin-servers/components/wizard/step-props';
import { CUSTOM_IMAGE, reviewWarnings, type WizardForm } from '@/features/admin-servers/wizard';
import { ApiError, detailsRecord } from '@/lib/api/api-error';
import { formatBytes } from '@/lib/format';

const ReviewRow = ({ label, children }: { label: string; children: ReactNode }) => (
  <Stack gap={0}>
    <Text component="dt" size="xs" c="dimmed">
      {label}
    </Text>
    <Text component="dd" m={0} style={{ overflowWrap: 'anywhere' }}>
      {children}
    </Text>
  </Stack>
);

interface ReviewStepProps {
  form: WizardForm;
  owner: string | undefined;
  node: string | undefined;
  egg: string | undefined;
  /** An allocation's address by its id. */
  addressOf: (id: string) => string;
  /** The create request's failure, if it failed. */
  error: unknown;
}

/** What the server will be, what it will lack, and the create request's failure (with the server it left behind). */
export const ReviewStep = ({ form, owner, node, egg, addressOf, error }: ReviewStepProps) => {
  const { t, i18n } = useTranslation();
  const left = error instanceof ApiError ? detailsRecord(error).serverId : undefined;
  const imageText = form.image === CUSTOM_IMAGE ? form.customImage : form.image;
  const warnings = reviewWarnings(form);
  return (
    <Stack>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm" component="dl" m={0}>
        <ReviewRow label={t('adminServers.fields.name')}>{form.name}</ReviewRow>
        <ReviewRow label={t('adminServers.fields.owner')}>{owner ?? '–'}</ReviewRow>
        <ReviewRow label={t('adminServers.fields.node')}>{node ?? '–'}</ReviewRow>
        <ReviewRow label={t('adminServers.fields.egg')}>{egg ?? '–'}</ReviewRow>
        <ReviewRow label={t('adminServers.fields.image')}>{imageText}</ReviewRow>
        <ReviewRow label={t('adminServers.review.resources')}>
          {t('adminServers.review.resourcesText', {
            memory: Number(form.memory) === 0 ? t('adminServers.review.unlimited') : formatBytes(Number(form.memory) * MIB, i18n.language),
            disk: Number(form.disk) === 0 ? t('adminServers.review.unlimited') : formatBytes(Number(form.disk) * MIB, i18n.language),
            cpu: Number(form.cpu) === 0 ? t('adminServers.review.unlimited') : `${form.cpu}%`,
          })}
        </ReviewRow>
        <ReviewRow label={t('adminServers.review.features')}>
          {t('adminServers.review.featuresText', {
            // The database limit's 0 is unlimited and -1 none.
            databases: { 0: t('adminServers.review.unlimited'), [-1]: t('adminServers.review.none') }[Number(form.databaseLimit)] ?? form.databaseLimit,
            allocations: form.allocationLimit,
            backups: form.backupLimit,
          })}
        </ReviewRow>
        <ReviewRow label={t('adminServers.review.addresses')}>{[form.allocationId, ...form.extraAllocationIds].map((a) => addressOf(a)).join(', ')}</ReviewRow>
        <ReviewRow label={t('adminServers.fields.startOnCompletion')}>{form.startOnCompletion ? t('adminServers.review.yes') : t('adminServers.review.no')}</ReviewRow>
      </SimpleGrid>
      {warnings.length > 0 ? (
        <Alert color="yellow" variant="light" icon={<IconAlertCircle aria-hidden />} title={t('adminServers.review.warningsTitle')} role="note" styles={{ title: { color: 'var(--mantine-color-text)' } }}>
          <Stack gap={4}>
            {warnings.map((w) => (
              <Text key={w.key} size="sm">
                {t(`adminServers.review.warnings.${w.key}`, { limit: w.limit })}
              </Text>
            ))}
            {/* Not dimmed: grey on the alert's dark yellow falls short of 4.5:1. */}
            <Text size="sm">{t('adminServers.review.warningsHelp')}</Text>
          </Stack>
        </Alert>
      ) : null}
      <Text size="sm" c="dimmed">
        {t('adminServers.review.help')}
      </Text>
      {error ? <FormError error={error} /> : null}
      {typeof left === 'string' ? (
        <Text size="sm">
          {t('adminServers.review.leftBehind')}{' '}
          <Anchor underline="always" renderRoot={(props) => <Link {...props} to="/admin/servers/$sid" params={{ sid: left }} />}>
            {t('adminServers.review.openLeft')}
          </Anchor>
        </Text>
      ) : null}
    </Stack>
  );
};
