import { Alert, Group, SegmentedControl, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { GraphCards } from '@/components/UplotGraph';
import { nodeUsageQuery, serverUsageQuery, USAGE_RANGES, type NodeUsageHistory, type UsageHistory, type UsageRange } from '@/features/usage/api';
import { toHistorySeries, type HistorySeries } from '@/features/usage/history-series';
import { describeError } from '@/lib/errors';
import { formatBytes, formatPercent } from '@/lib/format';

const HEIGHT = 140;

const present = (values: (number | null)[]): number[] => values.filter((v): v is number => v !== null);

/** CPU, memory and network of one history, each with its range written out. */
const HistoryCharts = ({ series }: { series: HistorySeries }) => {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const percent = (v: number) => formatPercent(v, lang);
  const bytes = (v: number) => formatBytes(v, lang);
  const rate = (v: number) => t('console.graphs.perSecond', { value: formatBytes(v, lang) });
  const span = (values: (number | null)[], fmt: (v: number) => string) => {
    const v = present(values);
    return v.length ? t('usage.between', { min: fmt(Math.min(...v)), max: fmt(Math.max(...v)) }) : t('console.graphs.noData');
  };
  const cards = [
    {
      title: t('console.graphs.cpu'),
      detail: `${span(series.cpu, percent)}; ${t('usage.peak')} ${span(series.cpuMax, percent)}`,
      lines: [
        { label: 'cpu', color: '#fd7e14', values: series.cpu },
        { label: 'cpu peak', color: '#fd7e14', values: series.cpuMax, faint: true },
      ],
      format: percent,
      floor: 10,
    },
    {
      title: t('console.graphs.memory'),
      detail: span(series.memory, bytes),
      lines: [{ label: 'memory', color: '#228be6', values: series.memory }],
      format: bytes,
      binary: true,
      floor: 1024 * 1024,
    },
    {
      title: t('console.graphs.network'),
      detail: t('console.graphs.inOut', { rx: span(series.rx, rate), tx: span(series.tx, rate) }),
      lines: [
        { label: 'rx', color: '#12b886', values: series.rx },
        { label: 'tx', color: '#be4bdb', values: series.tx },
      ],
      format: bytes,
      binary: true,
      floor: 1024,
    },
  ];
  return <GraphCards cards={cards.map((c) => ({ ...c, text: c.detail, summary: `${c.title}: ${c.detail}` }))} x={series.x} height={HEIGHT} timeAxis textSize="xs" />;
};

/** The title, the range picker and the graphs (or why there are none) of one history. */
const HistorySection = ({
  range,
  onRange,
  history,
  error,
  extra,
}: {
  range: UsageRange;
  onRange: (r: UsageRange) => void;
  history: UsageHistory | NodeUsageHistory | undefined;
  error: unknown;
  extra?: string;
}) => {
  const { t, i18n } = useTranslation();
  const titleId = useId();
  const series = history ? toHistorySeries(history) : null;
  return (
    <Stack component="section" aria-labelledby={titleId} gap="sm">
      <Group justify="space-between" wrap="wrap" gap="sm">
        <Title order={2} size="h4" id={titleId}>
          {t('usage.title')}
        </Title>
        <SegmentedControl
          size="xs"
          aria-label={t('usage.rangeLabel')}
          value={range}
          onChange={(v) => onRange(USAGE_RANGES.find((r) => r === v) ?? '1h')}
          data={USAGE_RANGES.map((r) => ({ value: r, label: t(`usage.ranges.${r}`) }))}
        />
      </Group>
      {error ? (
        <Alert color="red" title={t('usage.failed')}>
          {describeError(error, t, i18n.language).message}
        </Alert>
      ) : !series ? (
        <Skeleton height={HEIGHT + 60} />
      ) : series.filled === 0 ? (
        <Text size="sm" c="dimmed">
          {t('usage.empty')}
        </Text>
      ) : (
        <>
          {extra ? (
            <Text size="sm" c="dimmed">
              {extra}
            </Text>
          ) : null}
          <HistoryCharts series={series} />
        </>
      )}
    </Stack>
  );
};

/** A server's usage history with a range picker (console page). */
export const ServerUsageHistory = ({ serverId }: { serverId: string }) => {
  const [range, setRange] = useState<UsageRange>('1h');
  const query = useQuery(serverUsageQuery(serverId, range));
  return <HistorySection range={range} onRange={setRange} history={query.data} error={query.error} />;
};

/** A node's usage history, its running servers summed, with how often it answered (admin node page). */
export const NodeUsageHistoryPanel = ({ nodeId }: { nodeId: string }) => {
  const { t, i18n } = useTranslation();
  const [range, setRange] = useState<UsageRange>('1h');
  const query = useQuery(nodeUsageQuery(nodeId, range));
  const points = query.data?.points ?? [];
  const answered = points.length ? points.reduce((a, p) => a + p.reachability, 0) / points.length : null;
  const running = points.length ? Math.max(...points.map((p) => p.serversRunning)) : null;
  const extra =
    answered !== null && running !== null ? t('usage.nodeSummary', { answered: formatPercent(answered * 100, i18n.language), count: running }) : undefined;
  return <HistorySection range={range} onRange={setRange} history={query.data} error={query.error} extra={extra} />;
};
