import 'uplot/dist/uPlot.min.css';
import { Card, SimpleGrid, Stack, Text, useComputedColorScheme } from '@mantine/core';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import uPlot from 'uplot';
import type { StatsPoint } from '@/features/console/stats-series';
import { formatBytes, formatPercent } from '@/lib/format';

interface Series {
  label: string;
  color: string;
  values: (p: StatsPoint) => number;
}

/** One live graph (uPlot on a canvas, hidden from screen readers: the figure's label says the same in words). */
/** `floor`: the smallest top of the y axis, so an idle graph shows sensible ticks (not 0.5 B). */
const Graph = ({ points, series, format, summary, floor }: { points: StatsPoint[]; series: Series[]; format: (v: number) => string; summary: string; floor: number }) => {
  const host = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const scheme = useComputedColorScheme('light');
  const data = (): uPlot.AlignedData => [points.map((p) => p.t), ...series.map((s) => points.map(s.values))];

  useEffect(() => {
    const el = host.current!;
    const axisColor = scheme === 'dark' ? '#909296' : '#495057';
    const gridColor = scheme === 'dark' ? '#373a40' : '#e9ecef';
    const u = new uPlot(
      {
        width: Math.max(200, el.clientWidth),
        height: 120,
        legend: { show: false },
        cursor: { show: false },
        scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, Math.max(max, floor)] } },
        axes: [
          { show: false },
          { stroke: axisColor, grid: { stroke: gridColor }, ticks: { show: false }, size: 64, values: (_u, ticks) => ticks.map(format) },
        ],
        series: [{}, ...series.map((s) => ({ label: s.label, stroke: s.color, width: 2, fill: `${s.color}22`, points: { show: false } }))],
      },
      data(),
      el,
    );
    plot.current = u;
    const resize = new ResizeObserver(() => u.setSize({ width: Math.max(200, el.clientWidth), height: 120 }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      u.destroy();
      plot.current = null;
    };
    // Rebuilt when the scheme changes (axis colours); data updates go through setData below.
  }, [scheme]);

  useEffect(() => {
    plot.current?.setData(data());
  });

  return (
    <figure role="img" aria-label={summary} style={{ margin: 0 }}>
      <div ref={host} aria-hidden />
    </figure>
  );
};

/** CPU, memory and network of the last 60 s, each with its current value written out. */
const ConsoleGraphs = ({ points, memoryLimitBytes }: { points: StatsPoint[]; memoryLimitBytes: number }) => {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const last = points.at(-1);
  const range = (values: number[], fmt: (v: number) => string) =>
    values.length ? t('console.graphs.range', { min: fmt(Math.min(...values)), max: fmt(Math.max(...values)) }) : t('console.graphs.noData');
  const percent = (v: number) => formatPercent(v, lang);
  const bytes = (v: number) => formatBytes(v, lang);
  const rate = (v: number) => t('console.graphs.perSecond', { value: formatBytes(v, lang) });
  const cards = [
    {
      title: t('console.graphs.cpu'),
      value: last ? percent(last.cpu) : '–',
      summary: `${t('console.graphs.cpu')}: ${range(points.map((p) => p.cpu), percent)}`,
      series: [{ label: 'cpu', color: '#fd7e14', values: (p: StatsPoint) => p.cpu }],
      format: percent,
      floor: 10,
    },
    {
      title: t('console.graphs.memory'),
      value: last ? (memoryLimitBytes > 0 ? t('console.graphs.ofLimit', { value: bytes(last.memory), limit: bytes(memoryLimitBytes) }) : bytes(last.memory)) : '–',
      summary: `${t('console.graphs.memory')}: ${range(points.map((p) => p.memory), bytes)}`,
      series: [{ label: 'memory', color: '#228be6', values: (p: StatsPoint) => p.memory }],
      format: bytes,
      floor: 1024 * 1024,
    },
    {
      title: t('console.graphs.network'),
      value: last ? t('console.graphs.inOut', { rx: rate(last.rxPerS), tx: rate(last.txPerS) }) : '–',
      summary: `${t('console.graphs.network')}: ${t('console.graphs.inOut', { rx: range(points.map((p) => p.rxPerS), rate), tx: range(points.map((p) => p.txPerS), rate) })}`,
      series: [
        { label: 'rx', color: '#12b886', values: (p: StatsPoint) => p.rxPerS },
        { label: 'tx', color: '#be4bdb', values: (p: StatsPoint) => p.txPerS },
      ],
      format: bytes,
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
            <Graph points={points} series={card.series} format={card.format} summary={card.summary} floor={card.floor} />
          </Stack>
        </Card>
      ))}
    </SimpleGrid>
  );
};

export default ConsoleGraphs;
