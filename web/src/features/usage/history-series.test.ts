import { describe, expect, it } from 'vitest';
import { toHistorySeries } from '@/features/usage/history-series';

const point = (at: string, cpu: number) => ({
  at,
  cpuAbsolute: cpu,
  cpuMaxAbsolute: cpu * 2,
  memoryBytes: 100,
  memoryMaxBytes: 200,
  diskBytes: 5,
  networkRxBytes: 600,
  networkTxBytes: 300,
});

describe('toHistorySeries', () => {
  it('should put every point in its slot and leave the slots without one empty', () => {
    const series = toHistorySeries({
      from: '2026-11-28T10:00:00.000Z',
      to: '2026-11-28T10:05:00.000Z',
      resolution: 60,
      points: [point('2026-11-28T10:00:00.000Z', 10), point('2026-11-28T10:03:00.000Z', 30)],
    });
    const base = Date.parse('2026-11-28T10:00:00.000Z') / 1000;
    expect(series.x).toEqual([0, 1, 2, 3, 4].map((k) => base + 60 * k));
    expect(series.cpu).toEqual([10, null, null, 30, null]);
    expect(series.cpuMax).toEqual([20, null, null, 60, null]);
    // Bytes moved during a point, per second.
    expect(series.rx).toEqual([10, null, null, 10, null]);
    expect(series.tx).toEqual([5, null, null, 5, null]);
    expect(series.filled).toBe(2);
  });

  it('should answer no slot with a point for an empty history', () => {
    const series = toHistorySeries({ from: '2026-11-28T10:00:00.000Z', to: '2026-11-28T11:00:00.000Z', resolution: 900, points: [] });
    expect(series.x).toHaveLength(4);
    expect(series.filled).toBe(0);
  });
});
