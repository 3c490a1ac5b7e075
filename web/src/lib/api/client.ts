import createClient, { type Middleware } from 'openapi-fetch';
import type { paths } from '@/api/schema';
import { ApiError } from '@/lib/api/api-error';

// Same origin: the session cookie goes along by itself and Chromium sends the Origin header the
// panel checks on writes (docs/api.md#sessions).
const throwOnError: Middleware = {
  async onResponse({ response }) {
    if (response.ok) {
      return undefined;
    }
    const body: unknown = await response
      .clone()
      .json()
      .catch(() => undefined);
    throw ApiError.fromResponse(response, body);
  },
  onError({ error }) {
    return error instanceof ApiError ? error : ApiError.network(error);
  },
};

/**
 * The typed API client, generated from the panel's OpenAPI document (`npm run gen:api`). Every
 * non-2xx answer throws an ApiError, so a hook's `data` is always the success body.
 */
export const api = createClient<paths>({ baseUrl: typeof window === 'undefined' ? 'http://localhost' : window.location.origin, credentials: 'same-origin' });
api.use(throwOnError);
