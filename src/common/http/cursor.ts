import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, Matches, MaxLength, ValidateBy } from 'class-validator';
import { AppException } from 'src/common/errors/app.exception';
import { CommonError } from 'src/common/errors/error-codes';
import { PaginationQueryDto } from 'src/common/http/pagination';
import { Optional } from 'src/common/validation/decorators';

/**
 * Keyset ("cursor") pages beside the page-number ones (docs/api.md#cursor-pages). A list that offers
 * them takes `?cursor=`: empty for its first page, then the `next` or `prev` of the page before. A
 * cursor is base64url JSON `{l, d, k}`: the list it belongs to, the direction, and the sort key of
 * the row it stops at (its values as text, the row's id last). It holds no filter: the request's own
 * filters apply, so a cursor can be followed with the same filters it was made with.
 */
export class CursorPaginationQueryDto extends PaginationQueryDto {
  @ApiPropertyOptional({ description: 'Empty for the first cursor page, then `meta.cursor.next` or `meta.cursor.prev`; no `page` with it' })
  @Optional()
  @IsString()
  @MaxLength(512)
  @Matches(/^[A-Za-z0-9_-]*$/, { message: 'cursor must be a cursor this list returned' })
  // A page number and a cursor say two different things.
  @ValidateBy({
    name: 'withoutPage',
    validator: { validate: (_value, args) => (args?.object as CursorPaginationQueryDto).page === undefined, defaultMessage: () => 'cursor cannot be combined with page' },
  })
  cursor?: string;
}

export type CursorDirection = 'next' | 'prev';

/** One value of a list's sort key, checked when a cursor is read. */
type KeyPart = 'id' | 'timestamp';

/** Where a cursor page starts: past the row with these key values, going in `direction`. */
export interface Keyset {
  values: string[];
  direction: CursorDirection;
}

/** A cursor request as a repository sees it: the start (none for the first page) and the size. */
export interface CursorPage {
  list: string;
  keyset: Keyset | null;
  perPage: number;
}

export interface CursorPaginated<T> {
  data: T[];
  meta: { cursor: { next: string | null; prev: string | null; count: number; perPage: number } };
}

const ID = /^[1-9]\d{0,18}$/;
// The microsecond UTC form `keysetTimestamp` selects (JavaScript dates stop at milliseconds).
const TIMESTAMP = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3})\d{3}Z$/;

const validPart = (part: KeyPart, value: unknown): boolean => {
  if (typeof value !== 'string') {
    return false;
  }
  if (part === 'id') {
    return ID.test(value) && BigInt(value) <= 9_223_372_036_854_775_807n;
  }
  const m = TIMESTAMP.exec(value);
  if (!m) {
    return false;
  }
  const date = new Date(`${m[1]}Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 23) === m[1];
};

const refuse = (): never => {
  throw new AppException(CommonError.VALIDATION_FAILED, { details: [{ field: 'cursor', message: 'cursor must be a cursor this list returned' }] });
};

export const encodeCursor = (list: string, direction: CursorDirection, values: string[]): string =>
  Buffer.from(JSON.stringify({ l: list, d: direction === 'next' ? 'n' : 'p', k: values })).toString('base64url');

/**
 * The page a `cursor` asks for on the list `list` whose sort key is `parts`; null when `cursor` is
 * undefined (a page-number request). A cursor of another list, or one that was altered, is a 400.
 */
export const toCursorPage = (query: CursorPaginationQueryDto, list: string, parts: readonly KeyPart[]): CursorPage | null => {
  if (query.cursor === undefined) {
    return null;
  }
  const perPage = query.perPage ?? 50;
  if (query.cursor === '') {
    return { list, keyset: null, perPage };
  }
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(query.cursor, 'base64url').toString('utf8'));
  } catch {
    return refuse();
  }
  if (typeof decoded !== 'object' || decoded === null || Array.isArray(decoded)) {
    return refuse();
  }
  const { l, d, k } = decoded as Record<string, unknown>;
  if (l !== list || (d !== 'n' && d !== 'p') || !Array.isArray(k) || k.length !== parts.length || !parts.every((part, i) => validPart(part, k[i]))) {
    return refuse();
  }
  return { list, keyset: { values: k as string[], direction: d === 'n' ? 'next' : 'prev' }, perPage };
};

/**
 * `rows` as a cursor page. The repository fetched up to `perPage + 1` rows past the keyset in its
 * direction (in the list's order for `next`, against it for `prev`), so one more than a page says
 * that more remain that way. `keyOf` gives a row's key values, in the order of the list's parts.
 */
export const cursorPaginated = <R, T>(rows: R[], page: CursorPage, keyOf: (row: R) => string[], toItem: (rows: R[]) => T[]): CursorPaginated<T> => {
  const more = rows.length > page.perPage;
  const kept = rows.slice(0, page.perPage);
  const backwards = page.keyset?.direction === 'prev';
  if (backwards) {
    kept.reverse();
  }
  const first = kept.at(0);
  const last = kept.at(-1);
  // Going forward, rows before this page exist when it started past one; going back, past this page's end.
  const hasNext = backwards ? page.keyset !== null : more;
  const hasPrev = backwards ? more : page.keyset !== null;
  let next = hasNext && last ? encodeCursor(page.list, 'next', keyOf(last)) : null;
  const prev = hasPrev && first ? encodeCursor(page.list, 'prev', keyOf(first)) : null;
  // A step back that found nothing newer still leads forward from where it started.
  if (backwards && !last && page.keyset) {
    next = encodeCursor(page.list, 'next', page.keyset.values);
  }
  const data = toItem(kept);
  return { data, meta: { cursor: { next, prev, count: data.length, perPage: page.perPage } } };
};

/** The SQL that selects a timestamp column as a cursor keeps it: UTC, to the microsecond. */
export const keysetTimestamp = (column: string): string => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/**
 * The condition and order of a keyset over `columns` (each with its SQL cast) for a list read in
 * `listOrder` (newest first by default), with parameters named `:keyset0`, `:keyset1`... for TypeORM's
 * query builder. `prev` reads the other way from the keyset; `cursorPaginated` turns that page round.
 */
export const keysetClause = (
  columns: readonly { column: string; cast: string }[],
  keyset: Keyset | null,
  listOrder: 'ASC' | 'DESC' = 'DESC',
): { where: string | null; params: Record<string, string>; order: 'ASC' | 'DESC' } => {
  const order = keyset?.direction === 'prev' ? (listOrder === 'DESC' ? 'ASC' : 'DESC') : listOrder;
  if (!keyset) {
    return { where: null, params: {}, order };
  }
  const params = Object.fromEntries(keyset.values.map((v, i) => [`keyset${i}`, v]));
  const left = columns.map((c) => c.column).join(', ');
  const right = columns.map((c, i) => `CAST(:keyset${i} AS ${c.cast})`).join(', ');
  return { where: `(${left}) ${order === 'DESC' ? '<' : '>'} (${right})`, params, order };
};
