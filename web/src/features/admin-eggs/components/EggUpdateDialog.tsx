import { Alert, Badge, Button, Code, Group, Modal, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ErrorState } from '@/components/ErrorState';
import { FormError } from '@/components/FormError';
import { type EggUpdatePreview, updatePreviewQuery, useUpdateEggFromUrl } from '@/features/admin-eggs/api';
import { notify } from '@/lib/notify';

// Light badges keep the text colour: their tinted label alone is too faint to read (axe's contrast check).
const TEXT_LABEL = { label: { color: 'var(--mantine-color-text)' } };

type Change = EggUpdatePreview['fields'][number];

const Side = ({ label, value, color }: { label: string; value: string | null; color: string }) => {
  const { t } = useTranslation();
  return (
    <Stack gap={2} style={{ minWidth: 0 }}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Code
        block
        color={color}
        style={{
          whiteSpace: 'pre-wrap',
          overflowWrap: 'anywhere',
          maxHeight: 220,
          overflow: 'auto',
        }}
      >
        {value ?? t('adminEggs.update.unset')}
      </Code>
    </Stack>
  );
};

const FieldChangeRow = ({ change }: { change: Change }) => {
  const { t } = useTranslation();
  return (
    <Stack gap={4} component="li" aria-label={change.field}>
      <Text size="sm" fw={600} ff="monospace">
        {change.field}
      </Text>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs">
        <Side label={t('adminEggs.update.before')} value={change.before} color="var(--mantine-color-red-light)" />
        <Side label={t('adminEggs.update.after')} value={change.after} color="var(--mantine-color-green-light)" />
      </SimpleGrid>
    </Stack>
  );
};

const CHANGE_COLOR = {
  added: 'green',
  removed: 'red',
  changed: 'blue',
} as const;

const Diff = ({ preview }: { preview: EggUpdatePreview }) => {
  const { t } = useTranslation();
  if (preview.upToDate) {
    return (
      <Alert color="green" variant="light">
        {t('adminEggs.update.upToDate')}
      </Alert>
    );
  }
  return (
    <Stack gap="md">
      {preview.fields.length > 0 ? (
        <Stack gap="sm">
          <Title order={3} size="h5">
            {t('adminEggs.update.fields')}
          </Title>
          <Stack gap="sm" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }} aria-label={t('adminEggs.update.fields')}>
            {preview.fields.map((change) => (
              <FieldChangeRow key={change.field} change={change} />
            ))}
          </Stack>
        </Stack>
      ) : null}
      {preview.variables.length > 0 ? (
        <Stack gap="sm">
          <Title order={3} size="h5">
            {t('adminEggs.update.variables')}
          </Title>
          <Stack gap="md" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }} aria-label={t('adminEggs.update.variables')}>
            {preview.variables.map((v) => (
              <Stack key={v.envVariable} gap="xs" component="li" aria-label={v.envVariable}>
                <Group gap="xs">
                  <Text size="sm" fw={600} ff="monospace">
                    {v.envVariable}
                  </Text>
                  <Badge size="sm" variant="light" styles={TEXT_LABEL} color={CHANGE_COLOR[v.change]}>
                    {t(`adminEggs.update.change.${v.change}`)}
                  </Badge>
                </Group>
                {v.change === 'changed' ? (
                  <Stack gap="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
                    {v.fields.map((change) => (
                      <FieldChangeRow key={change.field} change={change} />
                    ))}
                  </Stack>
                ) : (
                  <Text size="sm" c="dimmed">
                    {v.fields.find((f) => f.field === 'name')?.[v.change === 'added' ? 'after' : 'before']}
                  </Text>
                )}
              </Stack>
            ))}
          </Stack>
          {preview.variables.some((v) => v.change === 'removed') ? (
            <Alert color="yellow" variant="light">
              {t('adminEggs.update.removedWarning')}
            </Alert>
          ) : null}
        </Stack>
      ) : null}
    </Stack>
  );
};

/** "Update from URL": the panel fetches the egg's update URL and shows what would change; applying fetches again. */
export const EggUpdateDialog = ({ eggId, name, onClose }: { eggId: string; name: string; onClose: () => void }) => {
  const { t } = useTranslation();
  const preview = useQuery(updatePreviewQuery(eggId));
  const apply = useUpdateEggFromUrl();
  let body;
  if (preview.isPending) {
    body = <Skeleton height={160} radius="md" />;
  } else if (preview.isError) {
    body = <ErrorState error={preview.error} onRetry={() => void preview.refetch()} />;
  } else {
    body = (
      <Stack gap="md">
        <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          {t('adminEggs.update.source', { url: preview.data.url })}
        </Text>
        <Diff preview={preview.data} />
      </Stack>
    );
  }
  return (
    <Modal
      opened
      onClose={apply.isPending ? () => undefined : onClose}
      title={t('adminEggs.update.title', { name })}
      closeButtonProps={{ 'aria-label': t('common.close') }}
      size="xl"
    >
      <Stack gap="md">
        {body}
        {apply.error ? <FormError error={apply.error} /> : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} disabled={apply.isPending}>
            {t('common.cancel')}
          </Button>
          <Button
            disabled={!preview.isSuccess || preview.data.upToDate}
            loading={apply.isPending}
            onClick={() =>
              apply.mutate(eggId, {
                onSuccess: () => {
                  notify({
                    color: 'green',
                    message: t('adminEggs.update.applied', { name }),
                  });
                  onClose();
                },
              })
            }
          >
            {t('adminEggs.update.apply')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
};
