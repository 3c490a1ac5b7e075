import type { ClientPathsWithMethod, MethodResponse } from 'openapi-fetch';
import type { api } from '@/lib/api/client';

type Api = typeof api;
type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/**
 * The success body of a route, as the OpenAPI document describes it (web/src/api/schema.d.ts):
 * `ResponseOf<'/api/client/servers/{server}/websocket'>`, `ResponseOf<'/api/admin/servers', 'post'>`.
 */
export type ResponseOf<P extends ClientPathsWithMethod<Api, M>, M extends Method = 'get'> = MethodResponse<Api, M, P>;
