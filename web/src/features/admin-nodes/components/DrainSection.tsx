import { Alert, Button, Group, MultiSelect, NumberInput, Paper, Progress, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormError } from '@/components/FormError';
import { type AdminNode, drainQuery, nodesQuery, useDrain } from '@/features/admin-nodes/api';

/** Moving every server off the node (docs/admin-guide.md#draining-a-node): start, follow, stop. */
export const DrainSection = ({ node }: { node: AdminNode }) => {
  const { t } = useTranslation();
  const drain = useQuery(drainQuery(node.id));
  const nodes = useQuery(nodesQuery());
  const mutate = useDrain(node.id);
  const [targets, setTargets] = useState<string[]>([]);
  const [concurrency, setConcurrency] = useState<number | string>(2);
  const d = drain.data;
  const running = d?.state === 'running';
  const done = d ? d.completed + d.failed + d.unplaced : 0;
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="drain-title">
      <Stack gap="sm">
        <Title order={3} size="h4" id="drain-title">
          {t('adminNodes.drain.title')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('adminNodes.drain.help')}
        </Text>
        {d ? (
          <Stack gap="xs" aria-live="polite" data-testid="drain-progress">
            <Text size="sm" fw={600}>
              {t(`adminNodes.drain.states.${d.state}`)} · {t('adminNodes.drain.counts', { done, total: d.total })}
            </Text>
            <Progress value={d.total === 0 ? 100 : (100 * done) / d.total} aria-label={t('adminNodes.drain.title')} />
            <SimpleGrid cols={{ base: 2, sm: 5 }} spacing="xs">
              {(['completed', 'running', 'queued', 'failed', 'unplaced'] as const).map((k) => (
                <Text key={k} size="sm">
                  {t(`adminNodes.drain.${k}`)}: <b>{d[k]}</b>
                </Text>
              ))}
            </SimpleGrid>
            {d.servers.filter((s) => s.state === 'failed' || s.state === 'unplaced').map((s) => (
              <Alert key={s.serverId} color="orange" variant="light" p="xs">
                {t('adminNodes.drain.problem', { id: s.serverId, reason: s.reason ?? '' })}
              </Alert>
            ))}
          </Stack>
        ) : null}
        {running ? (
          <Group>
            <Button variant="default" color="red" loading={mutate.isPending} onClick={() => mutate.mutate(null)}>
              {t('adminNodes.drain.stop')}
            </Button>
          </Group>
        ) : (
          <form
            onSubmit={(e) => {
              e.preventDefault();
              mutate.mutate({ concurrency: Number(concurrency) || 2, ...(targets.length > 0 ? { targetNodeIds: targets } : {}) });
            }}
          >
            <Group align="flex-end" wrap="wrap">
              <MultiSelect
                label={t('adminNodes.drain.targets')}
                placeholder={targets.length === 0 ? t('adminNodes.drain.anyNode') : undefined}
                data={(nodes.data ?? []).filter((n) => n.id !== node.id).map((n) => ({ value: n.id, label: n.name }))}
                value={targets}
                onChange={setTargets}
                style={{ flex: '1 1 240px' }}
              />
              <NumberInput label={t('adminNodes.drain.concurrency')} min={1} max={10} value={concurrency} onChange={setConcurrency} w={140} />
              <Button type="submit" variant="default" loading={mutate.isPending}>
                {t('adminNodes.drain.start')}
              </Button>
            </Group>
          </form>
        )}
        {mutate.error ? <FormError error={mutate.error} /> : null}
      </Stack>
    </Paper>
  );
};
