import { Card, SimpleGrid, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { UplotGraph } from '@/components/UplotGraph';
import type { StatsPoint } from '@/features/console/stats-series';
import { formatBytes, formatPercent } from '@/lib/format';

/** CPU, memory and network of the last 60 s, each with its current value written out. */
const ConsoleGraphs = ({ points, memoryLimitBytes }: { points: StatsPoint[]; memoryLimitBytes: number }) => {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const last = points.at(-1);
  const x = points.map((p) => p.t);
  const cpu = points.map((p) => p.cpu);
  const memory = points.map((p) => p.memory);
  const rx = points.map((p) => p.rxPerS);
  const tx = points.map((p) => p.txPerS);
  const range = (values: number[], fmt: (v: number) => string) =>
    values.length ? t('console.graphs.range', { min: fmt(Math.min(...values)), max: fmt(Math.max(...values)) }) : t('console.graphs.noData');
  const percent = (v: number) => formatPercent(v, lang);
  const bytes = (v: number) => formatBytes(v, lang);
  const rate = (v: number) => t('console.graphs.perSecond', { value: formatBytes(v, lang) });
  const cards = [
    {
      title: t('console.graphs.cpu'),
      value: last ? percent(last.cpu) : '–',
      summary: `${t('console.graphs.cpu')}: ${range(cpu, percent)}`,
      lines: [{ label: 'cpu', color: '#fd7e14', values: cpu }],
      format: percent,
      floor: 10,
    },
    {
      title: t('console.graphs.memory'),
      value: last ? (memoryLimitBytes > 0 ? t('console.graphs.ofLimit', { value: bytes(last.memory), limit: bytes(memoryLimitBytes) }) : bytes(last.memory)) : '–',
      summary: `${t('console.graphs.memory')}: ${range(memory, bytes)}`,
      lines: [{ label: 'memory', color: '#228be6', values: memory }],
      format: bytes,
      binary: true,
      floor: 1024 * 1024,
    },
    {
      title: t('console.graphs.network'),
      value: last ? t('console.graphs.inOut', { rx: rate(last.rxPerS), tx: rate(last.txPerS) }) : '–',
      summary: `${t('console.graphs.network')}: ${t('console.graphs.inOut', { rx: range(rx, rate), tx: range(tx, rate) })}`,
      lines: [
        { label: 'rx', color: '#12b886', values: rx },
        { label: 'tx', color: '#be4bdb', values: tx },
      ],
      format: bytes,
      binary: true,
      floor: 1024,
    },
  ];
  return (
    <SimpleGrid cols={{ base: 1, md: 3 }} spacing="md">
      {cards.map((card) => (
        <Card key={card.title} withBorder padding="sm">
          <Stack gap={4}>
            <Text size="sm" fw={600}>
              {card.title}
            </Text>
            <Text size="sm" c="dimmed">
              {card.value}
            </Text>
            <UplotGraph x={x} lines={card.lines} format={card.format} summary={card.summary} floor={card.floor} binary={card.binary} height={120} />
          </Stack>
        </Card>
      ))}
    </SimpleGrid>
  );
};

export default ConsoleGraphs;
