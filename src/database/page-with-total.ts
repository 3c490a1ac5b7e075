import type { ObjectLiteral, SelectQueryBuilder } from 'typeorm';

/**
 * One page of `query` (ordered, and without a join that repeats its rows) and how many rows it holds
 * in all. A page that is not full ends the list, so its total is known without counting; otherwise
 * `count(*)` over the same conditions, with neither the order nor the DISTINCT that
 * getManyAndCount counts with.
 */
export const pageWithTotal = async <T extends ObjectLiteral>(query: SelectQueryBuilder<T>, skip: number, take: number): Promise<[T[], number]> => {
  const rows = await query.clone().offset(skip).limit(take).getMany();
  if (rows.length < take && (rows.length > 0 || skip === 0)) {
    return [rows, skip + rows.length];
  }
  const counted = await query.clone().orderBy().select('count(*)', 'total').getRawOne<{ total: string | number }>();
  return [rows, Number(counted?.total ?? 0)];
};
