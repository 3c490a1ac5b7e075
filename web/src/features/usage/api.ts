import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { components } from '@/api/schema';
import { api } from '@/lib/api/client';

export type UsageHistory = components['schemas']['UsageHistoryDto'];
export type NodeUsageHistory = components['schemas']['NodeUsageHistoryDto'];
export type UsageRange = UsageHistory['range'];
export const USAGE_RANGES: readonly UsageRange[] = ['1h', '24h', '7d', '30d', '90d'];

/** How often a shown history is read again: about once per new point, never faster than the sampler. */
const refetchEvery = (range: UsageRange): number => (range === '1h' || range === '24h' ? 60_000 : 15 * 60_000);

/** `GET /api/client/servers/{server}/resources/history`. */
export const serverUsageQuery = (serverId: string, range: UsageRange) =>
  queryOptions({
    queryKey: ['usage', 'server', serverId, range] as const,
    queryFn: async (): Promise<UsageHistory> =>
      (await api.GET('/api/client/servers/{server}/resources/history', { params: { path: { server: serverId }, query: { range } } })).data!.data,
    placeholderData: keepPreviousData,
    refetchInterval: refetchEvery(range),
  });

/** `GET /api/admin/nodes/{id}/resources/history`. */
export const nodeUsageQuery = (nodeId: string, range: UsageRange) =>
  queryOptions({
    queryKey: ['usage', 'node', nodeId, range] as const,
    queryFn: async (): Promise<NodeUsageHistory> => (await api.GET('/api/admin/nodes/{id}/resources/history', { params: { path: { id: nodeId }, query: { range } } })).data!.data,
    placeholderData: keepPreviousData,
    refetchInterval: refetchEvery(range),
  });
