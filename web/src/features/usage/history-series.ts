import type { UsageHistory } from '@/features/usage/api';

/** A history as uPlot draws it: one x per point slot of the range (seconds), null where there is no point. */
export interface HistorySeries {
  x: number[];
  cpu: (number | null)[];
  cpuMax: (number | null)[];
  memory: (number | null)[];
  /** Bytes per second over each point. */
  rx: (number | null)[];
  tx: (number | null)[];
  /** How many slots have a point. */
  filled: number;
}

/**
 * Lays the points on every slot of the range, so that a gap (the server was off, the node did not
 * answer) shows as a gap rather than a line drawn across it.
 */
export const toHistorySeries = (history: Pick<UsageHistory, 'from' | 'to' | 'resolution' | 'points'>): HistorySeries => {
  const step = history.resolution;
  const from = Math.floor(Date.parse(history.from) / 1000 / step) * step;
  const to = Date.parse(history.to) / 1000;
  const byAt = new Map(history.points.map((p) => [Math.floor(Date.parse(p.at) / 1000), p]));
  const series: HistorySeries = { x: [], cpu: [], cpuMax: [], memory: [], rx: [], tx: [], filled: 0 };
  for (let at = from; at < to; at += step) {
    const p = byAt.get(at);
    series.x.push(at);
    series.cpu.push(p ? p.cpuAbsolute : null);
    series.cpuMax.push(p ? p.cpuMaxAbsolute : null);
    series.memory.push(p ? p.memoryBytes : null);
    series.rx.push(p ? p.networkRxBytes / step : null);
    series.tx.push(p ? p.networkTxBytes / step : null);
    series.filled += p ? 1 : 0;
  }
  return series;
};
