import { AppException } from 'src/common/errors/app.exception';
import { HttpRequest, pathOf } from 'src/common/http/http';
import { PterodactylError } from 'src/modules/pterodactyl/common/pterodactyl-errors';

/** One resource, as Pterodactyl's serializer writes it; included relationships sit inside `attributes`. */
export interface FractalItem<A extends object = Record<string, unknown>> {
  object: string;
  attributes: A & { relationships?: Record<string, FractalItem | FractalList> };
}

export interface FractalList<A extends object = Record<string, unknown>> {
  object: 'list';
  data: FractalItem<A>[];
}

export interface FractalPage<A extends object = Record<string, unknown>> extends FractalList<A> {
  meta: {
    pagination: {
      total: number;
      count: number;
      per_page: number;
      current_page: number;
      total_pages: number;
      /** Fractal writes an empty PHP array (`[]`) when there is neither a previous nor a next page. */
      links: { previous?: string; next?: string } | [];
    };
  };
}

export const item = <A extends object>(object: string, attributes: A): FractalItem<A> => ({ object, attributes });

export const list = <A extends object>(items: FractalItem<A>[]): FractalList<A> => ({ object: 'list', data: items });

/** Pterodactyl's timestamps: ISO 8601 in UTC with an explicit offset and no fraction (Carbon's toAtomString). */
export const atom = (date: Date): string => date.toISOString().replace(/\.\d{3}Z$/, '+00:00');


/** A bigint key as the JSON number Pterodactyl's clients expect. */
export const int = (id: string): number => Number(id);

export interface PterodactylPage {
  page: number;
  perPage: number;
  skip: number;
}

type Query = Record<string, unknown>;

const positiveInt = (value: unknown, fallback: number, max: number): number => {
  const n = typeof value === 'string' && /^\d{1,9}$/.test(value) ? Number(value) : NaN;
  return Number.isInteger(n) && n >= 1 ? Math.min(n, max) : fallback;
};

/** `?page=` (from 1) and `?per_page=` (1 to 100, default 50); values that are not positive integers fall back to the defaults. */
export const pageOf = (query: Query): PterodactylPage => {
  const page = positiveInt(query.page, 1, 1_000_000);
  const perPage = positiveInt(query.per_page, 50, 100);
  return { page, perPage, skip: (page - 1) * perPage };
};

/** The `?include=a,b` names the resource offers; others are ignored, as Fractal does. */
export const includesOf = <T extends string>(query: Query, offered: readonly T[]): Set<T> => {
  const raw = typeof query.include === 'string' ? query.include : '';
  return new Set(raw.split(',').map((s) => s.trim()).filter((s): s is T => (offered as readonly string[]).includes(s)));
};

/** The names of the `filter[…]` the query asks for (flat keys, or a nested object from another parser). */
const askedFilters = (query: Query): string[] => {
  const flat = Object.keys(query).flatMap((k) => /^filter\[([^\]]*)\]$/.exec(k)?.[1] ?? []);
  const nested = query.filter && typeof query.filter === 'object' ? Object.keys(query.filter) : [];
  return [...flat, ...nested];
};

/**
 * `filter[name]=value` from the query, for the filters the route offers; a filter it does not offer is
 * 400 InvalidFilterQuery, as Pterodactyl's query builder (spatie/laravel-query-builder) answers.
 */
export const filtersOf = <T extends string>(query: Query, offered: readonly T[]): Partial<Record<T, string>> => {
  const unknown = askedFilters(query).filter((name) => !(offered as readonly string[]).includes(name));
  if (unknown.length > 0) {
    throw new AppException(PterodactylError.INVALID_FILTER, {
      message: `Requested filter(s) \`${unknown.join(', ')}\` are not allowed. Allowed filter(s) are \`${offered.join(', ')}\`.`,
    });
  }
  const out: Partial<Record<T, string>> = {};
  const nested = query.filter;
  for (const name of offered) {
    // Fastify's query parser keeps `filter[email]` as a flat key; a nested parser would give an object.
    const value = query[`filter[${name}]`] ?? (nested && typeof nested === 'object' ? (nested as Query)[name] : undefined);
    if (typeof value === 'string' && value !== '') {
      out[name] = value;
    }
  }
  return out;
};

interface ListSort<S extends string> {
  by: S;
  descending: boolean;
}

/** `?sort=field` (or `-field`, descending) among the route's; none asked: undefined; another: 400 InvalidSortQuery. */
export const sortOf = <S extends string>(query: Query, offered: readonly S[]): ListSort<S> | undefined => {
  const raw = query.sort;
  if (raw === undefined || raw === '') {
    return undefined;
  }
  const asked = typeof raw === 'string' ? raw : '';
  const by = asked.startsWith('-') ? asked.slice(1) : asked;
  if (!(offered as readonly string[]).includes(by)) {
    throw new AppException(PterodactylError.INVALID_SORT, {
      message: `Requested sort(s) \`${typeof raw === 'string' ? by : 'sort'}\` is not allowed. Allowed sort(s) are \`${offered.join(', ')}\`.`,
    });
  }
  return { by: by as S, descending: asked.startsWith('-') };
};

/** A page of items with Fractal's pagination meta; links are absolute URLs of the same request with another page. */
export const page = <A extends object>(
  items: FractalItem<A>[],
  total: number,
  at: PterodactylPage,
  req: HttpRequest,
  appUrl: string,
): FractalPage<A> => {
  const totalPages = Math.max(1, Math.ceil(total / at.perPage));
  const urlOf = (n: number): string => {
    const url = new URL(pathOf(req), appUrl);
    const q = req.url.indexOf('?');
    url.search = q === -1 ? '' : req.url.slice(q + 1);
    url.searchParams.set('page', String(n));
    return url.toString();
  };
  const links: { previous?: string; next?: string } = {};
  if (at.page > 1) {
    links.previous = urlOf(at.page - 1);
  }
  if (at.page < totalPages) {
    links.next = urlOf(at.page + 1);
  }
  return {
    object: 'list',
    data: items,
    meta: {
      pagination: {
        total,
        count: items.length,
        per_page: at.perPage,
        current_page: at.page,
        total_pages: totalPages,
        links: Object.keys(links).length > 0 ? links : [],
      },
    },
  };
};

/** What Fractal writes for an include the key may not read. */
export const NULL_RESOURCE = { object: 'null_resource', attributes: null } as unknown as FractalItem;

/** The item with its included relationships (inside `attributes`, where Pterodactyl's serializer puts them). */
export const withRelationships = <A extends object>(base: FractalItem<A>, relationships: Record<string, FractalItem | FractalList>): FractalItem<A> =>
  Object.keys(relationships).length === 0 ? base : { ...base, attributes: { ...base.attributes, relationships } };
