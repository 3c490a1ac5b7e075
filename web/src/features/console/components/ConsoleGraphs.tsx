import { useTranslation } from 'react-i18next';
import { GraphCards } from '@/components/UplotGraph';
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
      text: last ? percent(last.cpu) : '–',
      summary: `${t('console.graphs.cpu')}: ${range(cpu, percent)}`,
      lines: [{ label: 'cpu', color: '#fd7e14', values: cpu }],
      format: percent,
      floor: 10,
    },
    {
      title: t('console.graphs.memory'),
      text: last ? (memoryLimitBytes > 0 ? t('console.graphs.ofLimit', { value: bytes(last.memory), limit: bytes(memoryLimitBytes) }) : bytes(last.memory)) : '–',
      summary: `${t('console.graphs.memory')}: ${range(memory, bytes)}`,
      lines: [{ label: 'memory', color: '#228be6', values: memory }],
      format: bytes,
      binary: true,
      floor: 1024 * 1024,
    },
    {
      title: t('console.graphs.network'),
      text: last ? t('console.graphs.inOut', { rx: rate(last.rxPerS), tx: rate(last.txPerS) }) : '–',
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
  return <GraphCards cards={cards} x={x} height={120} textSize="sm" />;
};

export default ConsoleGraphs;
