import { queryOptions } from '@tanstack/react-query';
import type { components } from '@/api/schema';
import { api } from '@/lib/api/client';

export type AdminOverview = components['schemas']['AdminOverviewDto'];
export type SetupStepKey = AdminOverview['setup'][number]['key'];
export type NodeHealth = AdminOverview['health']['nodes'][number];

/** Counts, the setup checklist, the version and the health of the panel's services and nodes. */
export const overviewQuery = () =>
  queryOptions({
    queryKey: ['admin', 'overview'],
    queryFn: async (): Promise<AdminOverview> => (await api.GET('/api/admin/overview')).data!.data,
  });
