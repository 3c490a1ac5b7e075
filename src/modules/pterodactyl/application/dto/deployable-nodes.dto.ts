import { headerOf, HttpRequest } from 'src/common/http/http';
import { pageOf, PterodactylPage } from 'src/modules/pterodactyl/common/fractal';
import { pterodactylValidationError } from 'src/modules/pterodactyl/common/pterodactyl-body';

/** `?location_ids[]=1&location_ids[]=2`, `?location_ids=1,2` or a JSON body's array: the ids, or null when one is not an integer. */
const locationIdsOf = (query: Record<string, unknown>): string[] | null => {
  const raw = query['location_ids[]'] ?? query.location_ids ?? Object.entries(query).filter(([k]) => /^location_ids\[\d+\]$/.test(k)).map(([, v]) => v);
  const values = (Array.isArray(raw) ? raw : typeof raw === 'string' ? raw.split(',') : []).map((v) => String(v).trim()).filter((v) => v !== '');
  return values.every((v) => /^[1-9]\d{0,17}$/.test(v)) ? values : null;
};

/** The JSON body of a GET (Fastify leaves it unread): at most 64 KiB, else or when it is not a JSON object, none. */
const getBodyOf = async (req: HttpRequest): Promise<Record<string, unknown>> => {
  const length = Number(headerOf(req, 'content-length') ?? 0);
  if (!(length > 0 && length <= 65_536) || !(headerOf(req, 'content-type') ?? '').startsWith('application/json')) {
    return {};
  }
  const chunks: Buffer[] = [];
  for await (const chunk of req.raw) {
    chunks.push(chunk as Buffer);
  }
  try {
    const parsed: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
};

const wholeMiB = (value: unknown): number | undefined => {
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^\d{1,10}$/.test(value) ? Number(value) : NaN;
  return Number.isInteger(n) && n >= 0 && n <= 2_147_483_647 ? n : undefined;
};

/** What `GET /nodes/deployable` asks for: room for `memory` and `disk` more MiB, in `locationIds` (none: anywhere), and the page. */
export interface DeployableNodesQuery {
  memory: number;
  disk: number;
  locationIds: string[];
  at: PterodactylPage;
}

/** The deployable query, read from the query string and a GET body alike as Laravel validates them; a 422 names what is missing or not an integer. */
export const deployableQueryOf = async (req: HttpRequest, rawQuery: Record<string, unknown>): Promise<DeployableNodesQuery> => {
  // Laravel validates the query and the body alike; PteroJS sends these as a GET body.
  const query = { ...(await getBodyOf(req)), ...rawQuery };
  const memory = wholeMiB(query.memory);
  const disk = wholeMiB(query.disk);
  const locationIds = locationIdsOf(query);
  const errors = [
    ...(memory === undefined ? [{ field: 'memory', rule: query.memory === undefined ? 'required' : 'integer', detail: query.memory === undefined ? 'The memory field is required.' : 'The memory must be an integer.' }] : []),
    ...(disk === undefined ? [{ field: 'disk', rule: query.disk === undefined ? 'required' : 'integer', detail: query.disk === undefined ? 'The disk field is required.' : 'The disk must be an integer.' }] : []),
    ...(locationIds === null ? [{ field: 'location_ids', rule: 'integer', detail: 'The location ids must be integers.' }] : []),
  ];
  if (memory === undefined || disk === undefined || locationIds === null) {
    throw pterodactylValidationError(errors);
  }
  return { memory, disk, locationIds, at: pageOf(query) };
};
