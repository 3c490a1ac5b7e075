import { Checkbox, NumberInput, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { NodeCapacity } from '@/features/admin-servers/capacity';
import { type Errors, type StepProps, useRoomText } from '@/features/admin-servers/components/wizard/step-props';
import { LIMIT_BOUNDS } from '@/features/admin-servers/wizard';

const LimitInput = ({ field, label, help, value, onChange, errors, suffix }: { field: keyof typeof LIMIT_BOUNDS; label: string; help?: string; value: number | string; onChange: (v: number | string) => void; errors: Errors; suffix?: string }) => (
  <NumberInput
    label={label}
    description={help}
    required
    allowDecimal={false}
    min={LIMIT_BOUNDS[field][0]}
    max={LIMIT_BOUNDS[field][1]}
    clampBehavior="none"
    value={value}
    onChange={onChange}
    error={errors[field]}
    rightSection={
      suffix ? (
        <Text size="xs" c="dimmed" pr="xs">
          {suffix}
        </Text>
      ) : undefined
    }
    rightSectionWidth={suffix ? 48 : undefined}
  />
);

/** Memory, swap, disk, CPU, IO and threads, then the database, allocation and backup limits. */
export const LimitsStep = ({ form, patch, errors, capacity }: StepProps & { capacity: NodeCapacity | undefined }) => {
  const { t } = useTranslation();
  const roomText = useRoomText();
  return (
    <Stack>
      {capacity ? (
        <Text size="sm" c="dimmed">
          {t('adminServers.limits.nodeRoom', { memory: roomText(capacity.memory), disk: roomText(capacity.disk) })}
        </Text>
      ) : null}
      <Title order={4} size="h5">
        {t('adminServers.limits.resources')}
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }}>
        <LimitInput field="memory" label={t('adminServers.fields.memory')} help={t('adminServers.fields.zeroUnlimited')} suffix="MiB" value={form.memory} onChange={(memory) => patch({ memory })} errors={errors} />
        <LimitInput field="swap" label={t('adminServers.fields.swap')} help={t('adminServers.fields.swapHelp')} suffix="MiB" value={form.swap} onChange={(swap) => patch({ swap })} errors={errors} />
        <LimitInput field="disk" label={t('adminServers.fields.disk')} help={t('adminServers.fields.zeroUnlimited')} suffix="MiB" value={form.disk} onChange={(disk) => patch({ disk })} errors={errors} />
        <LimitInput field="cpu" label={t('adminServers.fields.cpu')} help={t('adminServers.fields.cpuHelp')} suffix="%" value={form.cpu} onChange={(cpu) => patch({ cpu })} errors={errors} />
        <LimitInput field="io" label={t('adminServers.fields.io')} help={t('adminServers.fields.ioHelp')} value={form.io} onChange={(io) => patch({ io })} errors={errors} />
        <TextInput label={t('adminServers.fields.threads')} description={t('adminServers.fields.threadsHelp')} placeholder="0-1,3" value={form.threads} onChange={(e) => patch({ threads: e.currentTarget.value })} error={errors.threads} />
      </SimpleGrid>
      <Checkbox label={t('adminServers.fields.oomKiller')} description={t('adminServers.fields.oomKillerHelp')} checked={form.oomKiller} onChange={(e) => patch({ oomKiller: e.currentTarget.checked })} />
      <Title order={4} size="h5">
        {t('adminServers.limits.features')}
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <LimitInput field="database_limit" label={t('adminServers.fields.databases')} help={t('adminServers.fields.databasesHelp')} value={form.databaseLimit} onChange={(databaseLimit) => patch({ databaseLimit })} errors={errors} />
        <LimitInput field="allocation_limit" label={t('adminServers.fields.allocations')} value={form.allocationLimit} onChange={(allocationLimit) => patch({ allocationLimit })} errors={errors} />
        <LimitInput field="backup_limit" label={t('adminServers.fields.backups')} value={form.backupLimit} onChange={(backupLimit) => patch({ backupLimit })} errors={errors} />
      </SimpleGrid>
      <Checkbox label={t('adminServers.fields.startOnCompletion')} description={t('adminServers.fields.startOnCompletionHelp')} checked={form.startOnCompletion} onChange={(e) => patch({ startOnCompletion: e.currentTarget.checked })} />
    </Stack>
  );
};
