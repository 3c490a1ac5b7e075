import type { ClientPathsWithMethod, MethodResponse } from 'openapi-fetch';
import type { paths } from '@/api/schema';
import type { api } from '@/lib/api/client';

type Api = typeof api;
type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** A route's path that answers `method` (as `api.GET`, `api.POST`… take them). */
export type PathOf<M extends Method = 'get'> = ClientPathsWithMethod<Api, M>;

/** The success body of a route, as the OpenAPI document describes it: `ResponseOf<'/api/admin/servers/{id}'>`. */
export type ResponseOf<P extends PathOf<M>, M extends Method = 'get'> = MethodResponse<Api, M, P>;

/** The JSON body a route takes: `BodyOf<'/api/admin/servers', 'post'>`. */
export type BodyOf<P extends PathOf<M>, M extends Method> = paths[P][M] extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;
