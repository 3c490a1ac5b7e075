import { Badge, Button, Card, Checkbox, Group, Loader, MultiSelect, NumberInput, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorState } from '@/components/ErrorState';
import { FormError } from '@/components/FormError';
import { type AdminServer, allocationsQuery, type BuildBody, useUpdateBuild } from '@/features/admin-servers/api';
import { allocationLabel } from '@/features/admin-servers/components/fields';
import { notifySaved } from '@/features/admin-servers/components/notify-saved';
import { intProblem, LIMIT_BOUNDS, THREADS } from '@/features/admin-servers/wizard';
import { ApiError, fieldErrors } from '@/lib/api/api-error';
import { notifyError } from '@/lib/notify';

type LimitField = keyof typeof LIMIT_BOUNDS;

const valuesOf = (s: AdminServer): Record<LimitField, number | string> => ({
  memory: s.limits.memory,
  swap: s.limits.swap ?? 0,
  disk: s.limits.disk,
  cpu: s.limits.cpu,
  io: s.limits.io,
  database_limit: s.featureLimits.databases,
  allocation_limit: s.featureLimits.allocations,
  backup_limit: s.featureLimits.backups,
});

/** Limits and feature limits, saved together. */
const LimitsCard = ({ server }: { server: AdminServer }) => {
  const { t } = useTranslation();
  const update = useUpdateBuild(server.id);
  const [values, setValues] = useState(() => valuesOf(server));
  const [threads, setThreads] = useState(server.threads ?? '');
  const [oomKiller, setOomKiller] = useState(!server.oomDisabled);
  const [local, setLocal] = useState<Record<string, string>>({});
  const remote = update.error instanceof ApiError ? fieldErrors(update.error) : {};
  const errors = { ...remote, ...local };

  const input = (field: LimitField, label: string, help?: string, suffix?: string) => (
    <NumberInput
      label={label}
      description={help}
      required
      allowDecimal={false}
      clampBehavior="none"
      min={LIMIT_BOUNDS[field][0]}
      max={LIMIT_BOUNDS[field][1]}
      value={values[field]}
      onChange={(v) => setValues((x) => ({ ...x, [field]: v }))}
      error={errors[field]}
      rightSection={suffix ? <Text size="xs" c="dimmed" pr="xs">{suffix}</Text> : undefined}
      rightSectionWidth={suffix ? 48 : undefined}
    />
  );

  const submit = () => {
    const found: Record<string, string> = {};
    for (const field of Object.keys(LIMIT_BOUNDS) as LimitField[]) {
      const problem = intProblem(values[field], LIMIT_BOUNDS[field][0], LIMIT_BOUNDS[field][1]);
      if (problem) {
        found[field] = t(`adminServers.errors.${problem}`, { min: LIMIT_BOUNDS[field][0], max: LIMIT_BOUNDS[field][1] });
      }
    }
    if (threads.trim() !== '' && !THREADS.test(threads.trim())) {
      found.threads = t('adminServers.errors.threads');
    }
    setLocal(found);
    if (Object.keys(found).length > 0) {
      return;
    }
    const n = (field: LimitField) => Number(values[field]);
    const body: BuildBody = {
      memory: n('memory'),
      swap: n('swap'),
      disk: n('disk'),
      cpu: n('cpu'),
      io: n('io'),
      threads: threads.trim() || null,
      oom_disabled: !oomKiller,
      database_limit: n('database_limit'),
      allocation_limit: n('allocation_limit'),
      backup_limit: n('backup_limit'),
    };
    update.mutate(body, { onSuccess: notifySaved });
  };

  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="build-limits">
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <Stack>
          <Title order={3} size="h4" id="build-limits">
            {t('adminServers.limits.resources')}
          </Title>
          <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }}>
            {input('memory', t('adminServers.fields.memory'), t('adminServers.fields.zeroUnlimited'), 'MiB')}
            {input('swap', t('adminServers.fields.swap'), t('adminServers.fields.swapHelp'), 'MiB')}
            {input('disk', t('adminServers.fields.disk'), t('adminServers.fields.zeroUnlimited'), 'MiB')}
            {input('cpu', t('adminServers.fields.cpu'), t('adminServers.fields.cpuHelp'), '%')}
            {input('io', t('adminServers.fields.io'), t('adminServers.fields.ioHelp'))}
            <TextInput label={t('adminServers.fields.threads')} description={t('adminServers.fields.threadsHelp')} placeholder="0-1,3" value={threads} onChange={(e) => setThreads(e.currentTarget.value)} error={errors.threads} />
          </SimpleGrid>
          <Checkbox label={t('adminServers.fields.oomKiller')} description={t('adminServers.fields.oomKillerHelp')} checked={oomKiller} onChange={(e) => setOomKiller(e.currentTarget.checked)} />
          <Title order={3} size="h4">
            {t('adminServers.limits.features')}
          </Title>
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            {input('database_limit', t('adminServers.fields.databases'), t('adminServers.fields.databasesHelp'))}
            {input('allocation_limit', t('adminServers.fields.allocations'))}
            {input('backup_limit', t('adminServers.fields.backups'))}
          </SimpleGrid>
          {update.error && Object.keys(remote).length === 0 ? <FormError error={update.error} /> : null}
          <Group justify="flex-end">
            <Button type="submit" loading={update.isPending}>
              {t('adminServers.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
};

/** The server's addresses on its node: make one primary, remove the others, add free ones. */
const AllocationsCard = ({ server }: { server: AdminServer }) => {
  const { t } = useTranslation();
  const allocations = useQuery(allocationsQuery(server.nodeId));
  const update = useUpdateBuild(server.id);
  const [adding, setAdding] = useState<string[]>([]);
  const change = (body: BuildBody, done?: () => void) =>
    update.mutate(body, {
      onSuccess: (outcome) => {
        notifySaved(outcome);
        done?.();
        void allocations.refetch();
      },
      onError: notifyError,
    });

  if (allocations.isError) {
    return <ErrorState error={allocations.error} onRetry={() => void allocations.refetch()} />;
  }
  const mine = (allocations.data ?? []).filter((a) => a.serverId === server.id).sort((a, b) => Number(b.id === server.allocationId) - Number(a.id === server.allocationId));
  const free = (allocations.data ?? []).filter((a) => !a.assigned);
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="build-allocations">
      <Stack>
        <Title order={3} size="h4" id="build-allocations">
          {t('adminServers.build.allocations')}
        </Title>
        {allocations.isPending ? (
          <Loader size="sm" aria-label={t('common.loading')} />
        ) : (
          <Stack gap="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
            {mine.map((a) => {
              const primary = a.id === server.allocationId;
              const label = allocationLabel(a);
              return (
                <Group key={a.id} component="li" justify="space-between" wrap="wrap" gap="xs" aria-label={label}>
                  <Group gap="xs">
                    <Text ff="monospace" size="sm" style={{ overflowWrap: 'anywhere' }}>
                      {label}
                    </Text>
                    {primary ? <Badge variant="filled" color="blue.9">{t('adminServers.build.primary')}</Badge> : null}
                  </Group>
                  {primary ? null : (
                    <Group gap="xs">
                      <Button size="xs" variant="default" disabled={update.isPending} onClick={() => change({ allocation_id: a.id })} aria-label={t('adminServers.build.makePrimaryOf', { address: label })}>
                        {t('adminServers.build.makePrimary')}
                      </Button>
                      <Button size="xs" variant="default" color="red" disabled={update.isPending} onClick={() => change({ remove_allocations: [a.id] })} aria-label={t('adminServers.build.removeOf', { address: label })}>
                        {t('adminServers.build.remove')}
                      </Button>
                    </Group>
                  )}
                </Group>
              );
            })}
          </Stack>
        )}
        <Group align="flex-end" wrap="wrap" gap="sm">
          <MultiSelect
            style={{ flex: '1 1 240px' }}
            label={t('adminServers.build.add')}
            placeholder={free.length === 0 ? t('adminServers.build.noneFree') : undefined}
            disabled={free.length === 0}
            searchable
            hidePickedOptions
            data={free.map((a) => ({ value: a.id, label: allocationLabel(a) }))}
            value={adding}
            onChange={setAdding}
          />
          <Button variant="light" disabled={adding.length === 0} loading={update.isPending} onClick={() => change({ add_allocations: adding }, () => setAdding([]))}>
            {t('adminServers.build.addButton')}
          </Button>
        </Group>
      </Stack>
    </Card>
  );
};

export const BuildTab = ({ server }: { server: AdminServer }) => (
  <Stack gap="md">
    <LimitsCard server={server} />
    <AllocationsCard server={server} />
  </Stack>
);
