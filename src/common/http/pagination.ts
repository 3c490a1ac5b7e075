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
