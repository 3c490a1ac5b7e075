import { ApiPropertyOptional } from '@nestjs/swagger';
import { Optional, QueryInt } from 'src/common/validation/decorators';

export class PaginationQueryDto {
  @ApiPropertyOptional({ minimum: 1, default: 1 })
  @Optional()
  @QueryInt({ min: 1, max: 1_000_000 })
  page?: number;

  @ApiPropertyOptional({ minimum: 1, maximum: 100, default: 50 })
  @Optional()
  @QueryInt({ min: 1, max: 100 })
  perPage?: number;
}

export interface Page {
  page: number;
  perPage: number;
  skip: number;
}

export interface Paginated<T> {
  data: T[];
  meta: { pagination: { total: number; count: number; perPage: number; currentPage: number; totalPages: number } };
}

export const toPage = (query: PaginationQueryDto): Page => {
  const page = query.page ?? 1;
  const perPage = query.perPage ?? 50;
  return { page, perPage, skip: (page - 1) * perPage };
};

export const paginated = <T>(data: T[], total: number, page: Page): Paginated<T> => ({
  data,
  meta: {
    pagination: {
      total,
      count: data.length,
      perPage: page.perPage,
      currentPage: page.page,
      totalPages: Math.max(1, Math.ceil(total / page.perPage)),
    },
  },
});

/**
 * Where to read `page` of a list of `total` rows: a page past the middle is read from the other end,
 * in the opposite order with a smaller OFFSET, and turned round (`reversed`), so that the last page
 * costs what the first does. `take` is 0 past the end.
 */
export const fromNearestEnd = (page: Page, total: number): { skip: number; take: number; reversed: boolean } => {
  if (page.skip * 2 <= total) {
    return { skip: page.skip, take: page.perPage, reversed: false };
  }
  const end = Math.min(total, page.skip + page.perPage);
  return { skip: total - end, take: Math.max(0, end - page.skip), reversed: true };
};
