import { MantineProvider } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import type uPlot from 'uplot';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { UplotGraph, type UplotGraphProps } from '@/components/UplotGraph';
import { i18n } from '@/lib/i18n/i18n';
import { theme } from '@/lib/theme';

interface FakePlot {
  opts: uPlot.Options;
  data: uPlot.AlignedData;
  host: HTMLElement;
  setData: ReturnType<typeof vi.fn>;
  setSize: ReturnType<typeof vi.fn>;
  destroy: ReturnType<typeof vi.fn>;
}

// The test DOM draws no canvas: uPlot is replaced by a plot that keeps what it was given.
const plots = vi.hoisted(() => [] as FakePlot[]);
vi.mock('uplot', () => ({
  default: class {
    opts: uPlot.Options;
    data: uPlot.AlignedData;
    host: HTMLElement;
    setData = vi.fn();
    setSize = vi.fn();
    destroy = vi.fn();
    constructor(opts: uPlot.Options, data: uPlot.AlignedData, host: HTMLElement) {
      this.opts = opts;
      this.data = data;
      this.host = host;
      plots.push(this);
    }
  },
}));

const hour = Date.parse('2026-11-28T10:00:00.000Z') / 1000;
const props: UplotGraphProps = {
  x: [hour, hour + 60, hour + 120],
  lines: [
    { label: 'cpu', color: '#fd7e14', values: [1, null, 3] },
    { label: 'cpu peak', color: '#fd7e14', values: [2, null, 6], faint: true },
  ],
  format: (v) => `${v} %`,
  summary: 'CPU: between 1 % and 3 %',
  floor: 10,
  height: 140,
};

const wrap = (ui: React.ReactElement, scheme: 'light' | 'dark' = 'light') => (
  <I18nextProvider i18n={i18n}>
    <MantineProvider theme={theme} forceColorScheme={scheme}>
      {ui}
    </MantineProvider>
  </I18nextProvider>
);

/** What an axis writes for these ticks. */
const axisValues = (plot: FakePlot, axis: number, ticks: number[]): unknown => {
  const values = plot.opts.axes![axis].values as (u: uPlot, ticks: number[], axis: number, space: number, incr: number) => unknown;
  return values(plot as unknown as uPlot, ticks, axis, 0, 0);
};

describe('UplotGraph', () => {
  beforeEach(() => {
    plots.length = 0;
  });

  it('should draw its lines under a figure named by the summary, the canvas hidden from screen readers', () => {
    render(wrap(<UplotGraph {...props} />));
    const figure = screen.getByRole('img', { name: 'CPU: between 1 % and 3 %' });
    expect(plots).toHaveLength(1);
    const [plot] = plots;
    expect(figure).toContainElement(plot.host);
    expect(plot.host).toHaveAttribute('aria-hidden');
    expect(plot.data).toEqual([props.x, [1, null, 3], [2, null, 6]]);
    expect(plot.opts.height).toBe(140);
    // The peaks: thinner, lighter, without fill.
    expect(plot.opts.series.slice(1).map((s) => [s.label, s.stroke, s.width, s.fill])).toEqual([
      ['cpu', '#fd7e14', 2, '#fd7e1422'],
      ['cpu peak', '#fd7e1488', 1, undefined],
    ]);
    expect(axisValues(plot, 1, [0, 5, 10])).toEqual(['0 %', '5 %', '10 %']);
    // An idle graph still goes up to the floor; a busy one to its top.
    const range = plot.opts.scales!.y.range as (u: uPlot, min: number, max: number) => [number, number];
    expect(range(plot as unknown as uPlot, 0, 3)).toEqual([0, 10]);
    expect(range(plot as unknown as uPlot, 0, 42)).toEqual([0, 42]);
  });

  it('should draw a value between gaps as a dot, since a line needs two', () => {
    render(wrap(<UplotGraph {...props} x={[hour, hour + 60, hour + 120, hour + 180, hour + 240]} lines={[{ label: 'memory', color: '#228be6', values: [5, null, 7, 8, null] }]} />));
    const [plot] = plots;
    const filter = plot.opts.series[1].points!.filter as (self: uPlot, seriesIdx: number, show: boolean) => number[] | null;
    expect(filter(plot as unknown as uPlot, 1, false)).toEqual([0]);
    expect(filter({ data: [[1, 2, 3], [null, 4, null]] } as unknown as uPlot, 1, false)).toEqual([1]);
    // A line without gaps has no dots.
    expect(filter({ data: [[1, 2, 3], [3, 4, 5]] } as unknown as uPlot, 1, false)).toBeNull();
  });

  it('should put the ticks of sizes at binary steps, and leave the others to uPlot', () => {
    const { rerender } = render(wrap(<UplotGraph {...props} />));
    expect(plots[0].opts.axes![1].incrs).toBeUndefined();
    rerender(wrap(<UplotGraph {...props} binary />));
    const incrs = plots[1].opts.axes![1].incrs as number[];
    expect(incrs).toContain(256 * 1024 ** 2);
    expect(incrs).toContain(4 * 1024);
    expect(incrs.every((step) => Number.isInteger(Math.log2(step)))).toBe(true);
  });

  it('should have no x axis as a live window, and times of day or dates under a fixed range', () => {
    const { rerender } = render(wrap(<UplotGraph {...props} />));
    expect(plots[0].opts.axes![0].show).toBe(false);

    rerender(wrap(<UplotGraph {...props} timeAxis />));
    expect(plots).toHaveLength(2);
    expect(plots[0].destroy).toHaveBeenCalled();
    expect(plots[1].opts.axes![0].show).not.toBe(false);
    expect(axisValues(plots[1], 0, [hour])).toEqual([new Intl.DateTimeFormat('en', { hour: 'numeric', minute: '2-digit' }).format(hour * 1000)]);

    // A week: dates.
    rerender(wrap(<UplotGraph {...props} x={[hour, hour + 7 * 86_400]} lines={props.lines.map((l) => ({ ...l, values: [1, 2] }))} timeAxis />));
    expect(plots).toHaveLength(3);
    expect(axisValues(plots[2], 0, [hour])).toEqual([new Intl.DateTimeFormat('en', { month: 'short', day: 'numeric' }).format(hour * 1000)]);
  });

  it('should draw new points into the same plot and destroy it when it goes', () => {
    const { rerender, unmount } = render(wrap(<UplotGraph {...props} />));
    const [plot] = plots;
    rerender(wrap(<UplotGraph {...props} x={[...props.x, hour + 180]} lines={props.lines.map((l) => ({ ...l, values: [...l.values, 4] }))} />));
    expect(plots).toHaveLength(1);
    expect(plot.setData).toHaveBeenLastCalledWith([[...props.x, hour + 180], [1, null, 3, 4], [2, null, 6, 4]]);
    unmount();
    expect(plot.destroy).toHaveBeenCalled();
  });

  it('should draw its axes in lighter colours in the dark scheme', () => {
    render(wrap(<UplotGraph {...props} />, 'light'));
    render(wrap(<UplotGraph {...props} />, 'dark'));
    const [light, dark] = plots.map((p) => p.opts.axes![1]);
    expect(light.stroke).toBe('#495057');
    expect(dark.stroke).toBe('#909296');
    expect(dark.grid?.stroke).toBe('#373a40');
  });
});
