import type { ConsoleStats } from '@/features/console/console-client';

/** Samples older than this fall off the graphs. */
const WINDOW_MS = 60_000;

/** One point of the graphs: CPU % (100 = one core), memory bytes, network bytes per second in and out. */
export interface StatsPoint {
  /** Seconds (uPlot's x unit). */
  t: number;
  cpu: number;
  memory: number;
  rxPerS: number;
  txPerS: number;
}

/**
 * The last 60 s of stats. Network counters are totals since the container started, so a rate is
 * the difference to the previous sample; a counter that went down (restart) starts over at 0.
 */
export const addSample = (
  points: readonly StatsPoint[],
  previous: { at: number; stats: ConsoleStats } | null,
  stats: ConsoleStats,
  at: number,
): StatsPoint[] => {
  let rxPerS = 0;
  let txPerS = 0;
  if (previous && at > previous.at) {
    const seconds = (at - previous.at) / 1000;
    rxPerS = Math.max(0, stats.networkRxBytes - previous.stats.networkRxBytes) / seconds;
    txPerS = Math.max(0, stats.networkTxBytes - previous.stats.networkTxBytes) / seconds;
  }
  const point: StatsPoint = { t: at / 1000, cpu: stats.cpuAbsolute, memory: stats.memoryBytes, rxPerS, txPerS };
  return [...points.filter((p) => p.t * 1000 > at - WINDOW_MS), point];
};
