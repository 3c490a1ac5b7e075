import type { ObjectLiteral, SelectQueryBuilder } from 'typeorm';

/** `text` as a literal inside a LIKE/ILIKE pattern (`\` is PostgreSQL's default escape): `%` and `_` match only themselves. */
export const likeLiteral = (text: string): string => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** A LIKE pattern for values that contain `text` as typed. */
export const containsPattern = (text: string): string => `%${likeLiteral(text)}%`;

/**
 * Narrows `query` to rows whose each filtered column (an SQL expression of text) holds its value,
 * case-insensitively and with LIKE's wildcards taken literally: Pterodactyl's partial list filters.
 * ILIKE on the column itself, which its trigram index (AddListIndexes) answers.
 */
const whereContains = <T extends ObjectLiteral>(query: SelectQueryBuilder<T>, filters: Record<string, string | undefined>): SelectQueryBuilder<T> => {
  Object.entries(filters).forEach(([column, value], i) => {
    if (value !== undefined) {
      query.andWhere(`${column} ILIKE :contains${i}`, { [`contains${i}`]: containsPattern(value) });
    }
  });
  return query;
};

/** Filters (field → text it must contain) and an order for a list; fields a repository does not map are ignored. */
export interface ListQuery {
  filters?: Record<string, string | undefined>;
  sort?: { by: string; descending: boolean };
}

/**
 * Applies a ListQuery to `query` through `columns` (field → SQL expression of the alias): the
 * filters as `whereContains`, the sort replacing the default order, with the id after it so that
 * pages stay stable.
 */
export const applyListQuery = <T extends ObjectLiteral>(query: SelectQueryBuilder<T>, list: ListQuery, columns: Record<string, string>, idColumn: string): SelectQueryBuilder<T> => {
  whereContains(query, Object.fromEntries(Object.entries(list.filters ?? {}).flatMap(([field, value]) => (columns[field] ? [[columns[field], value]] : []))));
  const sortColumn = list.sort ? columns[list.sort.by] : undefined;
  if (list.sort && sortColumn) {
    query.orderBy(sortColumn.replace(/::text$/, ''), list.sort.descending ? 'DESC' : 'ASC');
    if (sortColumn !== idColumn) {
      query.addOrderBy(idColumn, 'ASC');
    }
  }
  return query;
};
