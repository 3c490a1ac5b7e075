import { describe, expect, it } from 'vitest';
import { pageMeta } from '@/lib/api/page-meta';

describe('pageMeta', () => {
  it('should keep the pagination of a page-number answer', () => {
    const pagination = { total: 3, count: 1, perPage: 2, currentPage: 2, totalPages: 2 };
    expect(pageMeta({ pagination })).toEqual({ pagination });
  });

  it('should throw on a cursor answer, which the web app never asks for', () => {
    expect(() => pageMeta({ cursor: { next: null, prev: null, count: 0, perPage: 50 } })).toThrow('expected a page-number answer');
  });
});
