import { AppException } from 'src/common/errors/app.exception';
import { CursorPage, cursorPaginated, encodeCursor, keysetClause, toCursorPage } from 'src/common/http/cursor';

const page = (cursor: string | undefined, perPage = 2) => toCursorPage({ cursor, perPage }, 'things', ['timestamp', 'id']);
const rows = (...ids: number[]) => ids.map((id) => ({ id: String(id), at: `2026-01-01T00:00:0${id % 10}.000123Z` }));
const keyOf = (r: { id: string; at: string }) => [r.at, r.id];
const ids = (items: { id: string }[]) => items.map((r) => r.id);

describe('toCursorPage', () => {
  it('should be null without a cursor and the first page with an empty one', () => {
    expect(page(undefined)).toBeNull();
    expect(page('')).toEqual({ list: 'things', keyset: null, perPage: 2 });
  });

  it('should read back what encodeCursor wrote, microseconds included', () => {
    const cursor = encodeCursor('things', 'prev', ['2026-01-01T00:00:00.123456Z', '42']);
    expect(page(cursor)).toEqual({ list: 'things', keyset: { values: ['2026-01-01T00:00:00.123456Z', '42'], direction: 'prev' }, perPage: 2 });
  });

  it.each([
    ['another list', encodeCursor('others', 'next', ['2026-01-01T00:00:00.000000Z', '1'])],
    ['an id of zero', encodeCursor('things', 'next', ['2026-01-01T00:00:00.000000Z', '0'])],
    ['a number instead of a string', Buffer.from(JSON.stringify({ l: 'things', d: 'n', k: ['2026-01-01T00:00:00.000000Z', 1] })).toString('base64url')],
    ['a time without microseconds', encodeCursor('things', 'next', ['2026-01-01T00:00:00Z', '1'])],
    ['null', Buffer.from('null').toString('base64url')],
  ])('should refuse %s with VALIDATION_FAILED on cursor', (_name, cursor) => {
    expect(() => page(cursor)).toThrow(AppException);
  });
});

describe('cursorPaginated', () => {
  const first = page('') as CursorPage;

  it('should offer next only when a row past the page came back, and no prev on the first page', () => {
    const full = cursorPaginated(rows(5, 4, 3), first, keyOf, (kept) => kept);
    expect(ids(full.data)).toEqual(['5', '4']);
    expect(full.meta.cursor).toEqual({ next: encodeCursor('things', 'next', keyOf(rows(4)[0])), prev: null, count: 2, perPage: 2 });
    expect(cursorPaginated(rows(2), first, keyOf, (kept) => kept).meta.cursor.next).toBeNull();
  });

  it('should turn a prev page round, and point next back where it started when nothing newer came', () => {
    const start = encodeCursor('things', 'prev', keyOf(rows(3)[0]));
    const back = page(start) as CursorPage;
    const found = cursorPaginated(rows(4, 5, 6), back, keyOf, (kept) => kept);
    expect(ids(found.data)).toEqual(['5', '4']);
    expect(found.meta.cursor.prev).toBe(encodeCursor('things', 'prev', keyOf(rows(5)[0])));
    expect(found.meta.cursor.next).toBe(encodeCursor('things', 'next', keyOf(rows(4)[0])));
    const none = cursorPaginated([], back, keyOf, (kept) => kept);
    expect(none.meta.cursor).toEqual({ next: encodeCursor('things', 'next', keyOf(rows(3)[0])), prev: null, count: 0, perPage: 2 });
  });
});

describe('keysetClause', () => {
  const columns = [
    { column: 'a.created_at', cast: 'timestamptz' },
    { column: 'a.id', cast: 'bigint' },
  ];

  it('should compare row values in the direction of the list and of the step', () => {
    const keyset = { values: ['t', '1'], direction: 'next' as const };
    expect(keysetClause(columns, keyset)).toEqual({
      where: '(a.created_at, a.id) < (CAST(:keyset0 AS timestamptz), CAST(:keyset1 AS bigint))',
      params: { keyset0: 't', keyset1: '1' },
      order: 'DESC',
    });
    expect(keysetClause(columns, { ...keyset, direction: 'prev' }).order).toBe('ASC');
    expect(keysetClause(columns, keyset, 'ASC').where).toContain(') > (');
    expect(keysetClause(columns, null, 'ASC')).toEqual({ where: null, params: {}, order: 'ASC' });
  });
});
