import 'uplot/dist/uPlot.min.css';
import { useComputedColorScheme } from '@mantine/core';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import uPlot from 'uplot';

interface GraphLine {
  label: string;
  color: string;
  /** One value per x; null leaves a gap. */
  values: (number | null)[];
  /** A lighter, thinner line without fill (peaks beside averages). */
  faint?: boolean;
}

interface UplotGraphProps {
  /** Times, in seconds. */
  x: number[];
  lines: GraphLine[];
  /** How a y tick reads (a percentage, bytes). */
  format: (v: number) => string;
  /** The graph in words: the figure's accessible name, as the canvas says nothing to a screen reader. */
  summary: string;
  /** The smallest top of the y axis, so an idle graph shows sensible ticks (not 0.5 B). */
  floor: number;
  height: number;
  /** Time labels under the graph (times of day over a day or less, dates beyond); none for a live minute. */
  timeAxis?: boolean;
}

const AXIS = { light: '#495057', dark: '#909296' };
/** Room on the right for the last time label. */
const TIME_AXIS_PADDING: uPlot.Padding = [8, 16, 0, 0];
const GRID = { light: '#e9ecef', dark: '#373a40' };

/**
 * A uPlot graph on a canvas that follows its container's width and the colour scheme: the console's
 * live minute and the usage history draw with it. The plot is rebuilt when what its axes show changes
 * (the scheme, the language, the time span); new data only redraws it.
 */
export const UplotGraph = ({ x, lines, format, summary, floor, height, timeAxis = false }: UplotGraphProps) => {
  const { i18n } = useTranslation();
  const host = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const scheme = useComputedColorScheme('light');
  const data = (): uPlot.AlignedData => [x, ...lines.map((l) => l.values)];
  const spanS = timeAxis && x.length > 1 ? x[x.length - 1] - x[0] : 0;

  useEffect(() => {
    const el = host.current!;
    const time = new Intl.DateTimeFormat(i18n.language, spanS <= 86_400 ? { hour: 'numeric', minute: '2-digit' } : { month: 'short', day: 'numeric' });
    const u = new uPlot(
      {
        width: Math.max(200, el.clientWidth),
        height,
        ...(timeAxis ? { padding: TIME_AXIS_PADDING } : {}),
        legend: { show: false },
        cursor: { show: false },
        scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, Math.max(max ?? 0, floor)] } },
        axes: [
          timeAxis
            ? { stroke: AXIS[scheme], grid: { show: false }, ticks: { show: false }, size: 28, space: 72, values: (_u, ticks) => ticks.map((t) => time.format(new Date(t * 1000))) }
            : { show: false },
          { stroke: AXIS[scheme], grid: { stroke: GRID[scheme] }, ticks: { show: false }, size: 64, values: (_u, ticks) => ticks.map(format) },
        ],
        series: [
          {},
          ...lines.map((l) => ({ label: l.label, stroke: l.faint ? `${l.color}88` : l.color, width: l.faint ? 1 : 2, fill: l.faint ? undefined : `${l.color}22`, points: { show: false } })),
        ],
      },
      data(),
      el,
    );
    plot.current = u;
    const resize = new ResizeObserver(() => u.setSize({ width: Math.max(200, el.clientWidth), height }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      u.destroy();
      plot.current = null;
    };
    // Data updates go through setData below.
  }, [scheme, i18n.language, spanS, timeAxis, height]);

  useEffect(() => {
    plot.current?.setData(data());
  });

  return (
    <figure role="img" aria-label={summary} style={{ margin: 0 }}>
      <div ref={host} aria-hidden />
    </figure>
  );
};
