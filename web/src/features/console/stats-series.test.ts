import { describe, expect, it } from 'vitest';
import type { ConsoleStats } from '@/features/console/console-client';
import { addSample, type StatsPoint } from '@/features/console/stats-series';

const stats = (over: Partial<ConsoleStats>): ConsoleStats => ({
  memoryBytes: 0,
  memoryLimitBytes: 0,
  cpuAbsolute: 0,
  networkRxBytes: 0,
  networkTxBytes: 0,
  uptimeMs: 0,
  diskBytes: 0,
  state: 'running',
  ...over,
});

describe('addSample', () => {
  it('should turn network totals into per-second rates and keep only the last 60 s', () => {
    let points: StatsPoint[] = [];
    let previous: { at: number; stats: ConsoleStats } | null = null;
    for (let i = 0; i <= 70; i++) {
      const s = stats({ cpuAbsolute: i, networkRxBytes: i * 2000, networkTxBytes: i * 500, memoryBytes: 1024 });
      points = addSample(points, previous, s, i * 1000);
      previous = { at: i * 1000, stats: s };
    }
    expect(points).toHaveLength(60);
    expect(points[0].t).toBe(11);
    expect(points.at(-1)).toEqual({ t: 70, cpu: 70, memory: 1024, rxPerS: 2000, txPerS: 500 });
  });

  it('should start a rate over at 0 when the counters reset', () => {
    const first = addSample([], null, stats({ networkRxBytes: 5000 }), 0);
    const next = addSample(first, { at: 0, stats: stats({ networkRxBytes: 5000 }) }, stats({ networkRxBytes: 100 }), 1000);
    expect(next.at(-1)!.rxPerS).toBe(0);
    expect(first[0].rxPerS).toBe(0);
  });
});
