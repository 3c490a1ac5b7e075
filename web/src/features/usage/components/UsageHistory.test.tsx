import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { NodeUsageHistory, UsageHistory } from '@/features/usage/api';
import { NodeUsageHistoryPanel, ServerUsageHistory } from '@/features/usage/components/UsageHistory';
import { renderWithProviders } from '@/test-utils';

const get = vi.hoisted(() => vi.fn());
vi.mock('@/lib/api/client', () => ({ api: { GET: get, POST: vi.fn(), PUT: vi.fn(), DELETE: vi.fn() } }));
// The test DOM draws no canvas; the figures around the graphs are what this test reads.
vi.mock('uplot', () => ({
  default: class {
    setData() {}
    setSize() {}
    destroy() {}
  },
}));

const point = (at: string, cpu: number, memoryMiB: number) => ({
  at,
  cpuAbsolute: cpu,
  cpuMaxAbsolute: cpu * 2,
  memoryBytes: memoryMiB * 1024 * 1024,
  memoryMaxBytes: memoryMiB * 2 * 1024 * 1024,
  diskBytes: 0,
  // Bytes during the minute: 60 KiB is 1 KiB/s.
  networkRxBytes: 60 * 1024,
  networkTxBytes: 120 * 1024,
});

const history: UsageHistory = {
  range: '1h',
  from: '2026-11-28T10:00:00.000Z',
  to: '2026-11-28T10:05:00.000Z',
  resolution: 60,
  points: [point('2026-11-28T10:00:00.000Z', 10, 100), point('2026-11-28T10:03:00.000Z', 30, 300)],
};

const withQueries = (ui: React.ReactElement) =>
  renderWithProviders(<QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>{ui}</QueryClientProvider>);

describe('ServerUsageHistory', () => {
  it('should write each graph its range under its title, and name the graph with both', async () => {
    get.mockResolvedValue({ data: { data: history } });
    withQueries(<ServerUsageHistory serverId="abc" />);
    const section = within(await screen.findByRole('region', { name: 'Usage history' }));

    const cpu = within((await section.findByText('CPU')).closest<HTMLElement>('.mantine-Card-root')!);
    // The line under the title is the range alone, not the title again.
    expect(cpu.getByText('between 10% and 30%; peaks between 20% and 60%')).toBeVisible();
    expect(cpu.getByRole('img', { name: 'CPU: between 10% and 30%; peaks between 20% and 60%' })).toBeInTheDocument();

    const memory = within(section.getByText('Memory').closest<HTMLElement>('.mantine-Card-root')!);
    expect(memory.getByText('between 100 MiB and 300 MiB')).toBeVisible();
    expect(memory.getByRole('img', { name: 'Memory: between 100 MiB and 300 MiB' })).toBeInTheDocument();

    const network = within(section.getByText('Network').closest<HTMLElement>('.mantine-Card-root')!);
    expect(network.getByText('in between 1 KiB/s and 1 KiB/s, out between 2 KiB/s and 2 KiB/s')).toBeVisible();
    expect(network.getByRole('img', { name: 'Network: in between 1 KiB/s and 1 KiB/s, out between 2 KiB/s and 2 KiB/s' })).toBeInTheDocument();

    expect(get).toHaveBeenCalledWith('/api/client/servers/{server}/resources/history', { params: { path: { server: 'abc' }, query: { range: '1h' } } });
  });

  it('should say so when the range has nothing recorded', async () => {
    get.mockResolvedValue({ data: { data: { ...history, points: [] } } });
    withQueries(<ServerUsageHistory serverId="abc" />);
    expect(await screen.findByText('Nothing recorded in this range yet.', { exact: false })).toBeVisible();
    expect(screen.queryByRole('img')).toBeNull();
  });
});

describe('NodeUsageHistoryPanel', () => {
  it('should say how often the node answered and how many servers ran at most, above the graphs', async () => {
    const node: NodeUsageHistory = {
      ...history,
      points: [
        { ...point('2026-11-28T10:00:00.000Z', 10, 100), reachability: 1, serversRunning: 2 },
        { ...point('2026-11-28T10:03:00.000Z', 30, 300), reachability: 0.5, serversRunning: 3 },
      ],
    };
    get.mockResolvedValue({ data: { data: node } });
    withQueries(<NodeUsageHistoryPanel nodeId="7" />);
    expect(await screen.findByText(/The node answered 75\s?% of the panel's samples; at most 3 servers ran at once/)).toBeVisible();
    expect(screen.getByRole('img', { name: /^Memory: between 100 MiB and 300 MiB$/ })).toBeInTheDocument();
  });

  it('should say "server" for one', async () => {
    get.mockResolvedValue({ data: { data: { ...history, points: [{ ...point('2026-11-28T10:00:00.000Z', 10, 100), reachability: 1, serversRunning: 1 }] } } });
    withQueries(<NodeUsageHistoryPanel nodeId="7" />);
    expect(await screen.findByText(/The node answered 100\s?% of the panel's samples; at most 1 server ran at once\./)).toBeVisible();
  });
});
