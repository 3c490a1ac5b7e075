import 'uplot/dist/uPlot.min.css';
import { Card, SimpleGrid, Stack, Text, useComputedColorScheme } from '@mantine/core';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import uPlot from 'uplot';

/** One line of a graph: its values line up with the graph's x (null: no value there, a gap). */
export interface GraphLine {
  label: string;
  /** `#rrggbb`: the fill and the faint stroke add an alpha to it. */
  color: string;
  values: (number | null)[];
  /** A lighter, thinner line without fill (e.g. the peaks beside the averages). */
  faint?: boolean;
}

export interface UplotGraphProps {
  /** Seconds since the epoch, ascending. */
  x: number[];
  lines: GraphLine[];
  /** Writes a value of the y axis (e.g. a percentage or a size). */
  format: (v: number) => string;
  /** What the graph shows, in words: the figure's accessible name (the canvas is hidden from screen readers). */
  summary: string;
  /** The smallest top of the y axis, so an idle graph shows sensible ticks (not 0.5 B). */
  floor: number;
  height: number;
  /**
   * Times under the graph, for a fixed range: times of day over a day or less, dates beyond, in the reader's
   * language and zone. Without, a live window that moves on as points come has no x axis.
   */
  timeAxis?: boolean;
  /** Ticks at binary steps (…, 256 MiB, 512 MiB, 768 MiB), for sizes written in KiB, MiB and GiB. */
  binary?: boolean;
}

/** 1, 2, 4 … 512 of B, KiB, MiB, GiB, TiB and PiB. */
const BINARY_STEPS = [0, 1, 2, 3, 4, 5].flatMap((k) => [1, 2, 4, 8, 16, 32, 64, 128, 256, 512].map((m) => m * 1024 ** k));

/** The values with no value on either side: a line does not show them, a dot does. Null when there are none. */
const isolated = (values: ArrayLike<number | null | undefined>): number[] | null => {
  const has = (k: number) => k >= 0 && k < values.length && values[k] !== null && values[k] !== undefined;
  const alone = Array.from(values, (_v, k) => (has(k) && !has(k - 1) && !has(k + 1) ? k : -1)).filter((k) => k >= 0);
  return alone.length ? alone : null;
};

/** Room on the right of a time axis for its last label, centred on the graph's right edge. */
const TIME_AXIS_RIGHT = 40;

/**
 * A line graph drawn by uPlot on a canvas, following the colour scheme and the width of its container.
 * New data (a live window moving on, a range read again) is drawn into the same plot; the plot is built
 * again only when what its axes show changes (scheme, language, time span, lines).
 */
export const UplotGraph = ({ x, lines, format, summary, floor, height, timeAxis = false, binary = false }: UplotGraphProps) => {
  const { i18n } = useTranslation();
  const host = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const scheme = useComputedColorScheme('light');
  const data = (): uPlot.AlignedData => [x, ...lines.map((l) => l.values)];
  // The labels change with the span only for a time axis (hours or dates).
  const dayOrLess = !timeAxis || x.length < 2 || x[x.length - 1] - x[0] <= 86_400;
  const linesKey = lines.map((l) => `${l.label} ${l.color} ${l.faint ? 'faint' : ''}`).join();

  useEffect(() => {
    const el = host.current!;
    const axisColor = scheme === 'dark' ? '#909296' : '#495057';
    const gridColor = scheme === 'dark' ? '#373a40' : '#e9ecef';
    const time = new Intl.DateTimeFormat(i18n.language, dayOrLess ? { hour: 'numeric', minute: '2-digit' } : { month: 'short', day: 'numeric' });
    const xAxis: uPlot.Axis = timeAxis
      ? { stroke: axisColor, grid: { show: false }, ticks: { show: false }, size: 28, space: 72, values: (_u, ticks) => ticks.map((t) => time.format(new Date(t * 1000))) }
      : { show: false };
    const u = new uPlot(
      {
        width: Math.max(200, el.clientWidth),
        height,
        ...(timeAxis ? { padding: [8, TIME_AXIS_RIGHT, 0, 0] } : {}),
        legend: { show: false },
        cursor: { show: false },
        scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, Math.max(max ?? 0, floor)] } },
        axes: [
          xAxis,
          { stroke: axisColor, grid: { stroke: gridColor }, ticks: { show: false }, size: 64, values: (_u, ticks) => ticks.map(format), ...(binary ? { incrs: BINARY_STEPS } : {}) },
        ],
        series: [
          {},
          ...lines.map((l) => {
            const stroke = l.faint ? `${l.color}88` : l.color;
            return {
              label: l.label,
              stroke,
              width: l.faint ? 1 : 2,
              fill: l.faint ? undefined : `${l.color}22`,
              // A point between gaps (e.g. the first minute of a range) is a dot.
              points: { show: false, size: l.faint ? 4 : 6, stroke, fill: stroke, filter: (self: uPlot, i: number) => isolated(self.data[i]) },
            };
          }),
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
    // `format` and `floor` follow the language and the line they belong to; data updates go through setData below.
  }, [scheme, i18n.language, dayOrLess, timeAxis, binary, height, linesKey]);

  useEffect(() => {
    plot.current?.setData(data());
  });

  return (
    <figure role="img" aria-label={summary} style={{ margin: 0 }}>
      <div ref={host} aria-hidden />
    </figure>
  );
};

/** One graph in its card: the title, a line of text under it, and the graph. */
interface GraphCard extends Pick<UplotGraphProps, 'lines' | 'format' | 'summary' | 'floor' | 'binary'> {
  title: string;
  /** Under the title: the value now, or what the range held. */
  text: string;
}

/** Graphs side by side, stacked on a phone, each in its card: the console's live ones and the usage history's. */
export const GraphCards = ({ cards, x, height, timeAxis, textSize }: { cards: GraphCard[]; x: number[]; height: number; timeAxis?: boolean; textSize: 'xs' | 'sm' }) => (
  <SimpleGrid cols={{ base: 1, md: 3 }} spacing="md">
    {cards.map((card) => (
      <Card key={card.title} withBorder padding="sm">
        <Stack gap={4}>
          <Text size="sm" fw={600}>
            {card.title}
          </Text>
          <Text size={textSize} c="dimmed">
            {card.text}
          </Text>
          <UplotGraph x={x} lines={card.lines} format={card.format} summary={card.summary} floor={card.floor} binary={card.binary} height={height} timeAxis={timeAxis} />
        </Stack>
      </Card>
    ))}
  </SimpleGrid>
);
