import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { components } from '@/api/schema';
import { api } from '@/lib/api/client';
import { pageMeta } from '@/lib/api/page-meta';

export type Webhook = components['schemas']['WebhookDto'];
export type WebhookWithSecret = components['schemas']['WebhookWithSecretDto'];
export type Delivery = components['schemas']['WebhookDeliveryDto'];
export type CreateWebhookBody = components['schemas']['CreateWebhookDto'];
export type UpdateWebhookBody = components['schemas']['UpdateWebhookDto'];
export type WebhookEvent = CreateWebhookBody['events'][number];

/** Whose webhooks a page shows: an administrator's (every event) or one server's (its events). */
export type WebhookScope = { kind: 'admin' } | { kind: 'server'; serverId: string };

const scopeKey = (scope: WebhookScope) => (scope.kind === 'admin' ? 'admin' : `server:${scope.serverId}`);

const keys = {
  all: (scope: WebhookScope) => ['webhooks', scopeKey(scope)] as const,
  list: (scope: WebhookScope) => ['webhooks', scopeKey(scope), 'list'] as const,
  one: (scope: WebhookScope, id: string) => ['webhooks', scopeKey(scope), 'one', id] as const,
  deliveries: (scope: WebhookScope, id: string, page: number) => ['webhooks', scopeKey(scope), 'deliveries', id, page] as const,
};

/** Deliveries a page. */
const DELIVERIES_PER_PAGE = 20;
/** While a delivery waits for its next try the list is read again this often; else less often, for new events. */
const POLL_MS = 5000;
const IDLE_POLL_MS = 10_000;

/** Every webhook of the scope (at most 50 exist). */
export const webhooksQuery = (scope: WebhookScope) =>
  queryOptions({
    queryKey: keys.list(scope),
    queryFn: async (): Promise<Webhook[]> =>
      scope.kind === 'admin'
        ? (await api.GET('/api/admin/webhooks', { params: { query: { perPage: 100 } } })).data!.data
        : (await api.GET('/api/client/servers/{server}/webhooks', { params: { path: { server: scope.serverId }, query: { perPage: 100 } } })).data!.data,
  });

export const webhookQuery = (scope: WebhookScope, id: string) =>
  queryOptions({
    queryKey: keys.one(scope, id),
    queryFn: async (): Promise<Webhook> =>
      scope.kind === 'admin'
        ? (await api.GET('/api/admin/webhooks/{id}', { params: { path: { id } } })).data!.data
        : (await api.GET('/api/client/servers/{server}/webhooks/{id}', { params: { path: { server: scope.serverId, id } } })).data!.data,
  });

export const deliveriesQuery = (scope: WebhookScope, id: string, page: number) =>
  queryOptions({
    queryKey: keys.deliveries(scope, id, page),
    queryFn: async (): Promise<{ data: Delivery[]; totalPages: number }> => {
      const query = { page, perPage: DELIVERIES_PER_PAGE };
      const body =
        scope.kind === 'admin'
          ? (await api.GET('/api/admin/webhooks/{id}/deliveries', { params: { path: { id }, query } })).data!
          : (await api.GET('/api/client/servers/{server}/webhooks/{id}/deliveries', { params: { path: { server: scope.serverId, id }, query } })).data!;
      return { data: body.data, totalPages: pageMeta(body.meta).pagination.totalPages };
    },
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (query.state.data?.data.some((d) => d.status === 'pending') ? POLL_MS : IDLE_POLL_MS),
  });

/** A change to the scope's webhooks: its lists and pages are read again. */
const useWebhookMutation = <T, R>(scope: WebhookScope, fn: (input: T) => Promise<R>) => {
  const qc = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: () => void qc.invalidateQueries({ queryKey: keys.all(scope) }) });
};

/** Creates (no `id`) or updates; the answer carries `secret` when the panel made one. */
export const useSaveWebhook = (scope: WebhookScope) =>
  useWebhookMutation(scope, async ({ id, body }: { id?: string; body: CreateWebhookBody | UpdateWebhookBody }): Promise<WebhookWithSecret> => {
    if (id === undefined) {
      const created = body as CreateWebhookBody;
      return scope.kind === 'admin'
        ? (await api.POST('/api/admin/webhooks', { body: created })).data!.data
        : (await api.POST('/api/client/servers/{server}/webhooks', { params: { path: { server: scope.serverId } }, body: created })).data!.data;
    }
    return scope.kind === 'admin'
      ? (await api.PATCH('/api/admin/webhooks/{id}', { params: { path: { id } }, body })).data!.data
      : (await api.PATCH('/api/client/servers/{server}/webhooks/{id}', { params: { path: { server: scope.serverId, id } }, body })).data!.data;
  });

export const useDeleteWebhook = (scope: WebhookScope) =>
  useWebhookMutation(scope, async (id: string) => {
    if (scope.kind === 'admin') {
      await api.DELETE('/api/admin/webhooks/{id}', { params: { path: { id } } });
    } else {
      await api.DELETE('/api/client/servers/{server}/webhooks/{id}', { params: { path: { server: scope.serverId, id } } });
    }
  });

/** Sends a test event now; the answer is the delivery after its one attempt. */
export const useTestWebhook = (scope: WebhookScope) =>
  useWebhookMutation(scope, async (id: string): Promise<Delivery> =>
    scope.kind === 'admin'
      ? (await api.POST('/api/admin/webhooks/{id}/test', { params: { path: { id } } })).data!.data
      : (await api.POST('/api/client/servers/{server}/webhooks/{id}/test', { params: { path: { server: scope.serverId, id } } })).data!.data,
  );
