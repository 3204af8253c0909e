import { DomainError, encodeCursor } from '@leadflow/shared-kernel';
import { DEFAULT_LIMIT, listParam, MAX_LIMIT, readPageRequest, stringParam, toPage } from './pagination';

/** operator-api › List `limit`; public-api-v1 › Envelopes (opaque and legacy ISO cursors). */
describe('readPageRequest', () => {
  const refusal = (query: Record<string, unknown>) => {
    try {
      readPageRequest(query);
    } catch (error) {
      expect(error).toBeInstanceOf(DomainError);
      return { code: (error as DomainError).code, field: ((error as DomainError).details as { field: string }).field };
    }
    throw new Error('accepted');
  };

  it('defaults to 20 and no cursor', () => {
    expect(DEFAULT_LIMIT).toBe(20);
    expect(MAX_LIMIT).toBe(100);
    expect(readPageRequest({})).toEqual({ limit: 20, after: null });
    expect(readPageRequest({ cursor: '' })).toEqual({ limit: 20, after: null });
  });

  it.each([['1', 1], ['100', 100], ['42', 42]])('accepts limit %s', (limit, expected) => {
    expect(readPageRequest({ limit }).limit).toBe(expected);
  });

  it.each([['0'], ['101'], ['abc'], ['1.5'], ['-1'], [''], [' 5'], ['1e2'], [['5', '6']], ['99999999999999999999']])('refuses limit %j', (limit) => {
    expect(refusal({ limit })).toEqual({ code: 'invalid_request', field: 'limit' });
  });

  it('honours a smaller maximum of a route', () => {
    expect(readPageRequest({ limit: '25' }, 25, 10)).toEqual({ limit: 25, after: null });
    expect(() => readPageRequest({ limit: '26' }, 25, 10)).toThrow(DomainError);
    expect(readPageRequest({}, 25, 10).limit).toBe(10);
  });

  it('decodes an opaque cursor and a legacy ISO cursor', () => {
    const position = { createdAt: new Date('2026-05-03T14:05:09.123Z'), id: '3f2b8c1e-9a4d-4e6f-8b7a-1c2d3e4f5a6b' };
    expect(readPageRequest({ cursor: encodeCursor(position) }).after).toEqual(position);
    expect(readPageRequest({ cursor: '2026-05-03T14:05:09.123Z' }).after).toEqual({ createdAt: position.createdAt, id: null });
  });

  it.each([['garbage!'], ['abc'], [['a', 'b']], [42]])('refuses cursor %j', (cursor) => {
    expect(refusal({ cursor })).toEqual({ code: 'invalid_request', field: 'cursor' });
  });
});

describe('toPage', () => {
  const rows = [3, 2, 1].map((n) => ({ id: `00000000-0000-4000-8000-00000000000${n}`, createdAt: new Date(Date.UTC(2026, 0, n)) }));

  it('has more when limit + 1 rows came back, with the cursor of the last row shown', () => {
    const page = toPage(rows, { limit: 2, after: null }, 3, (row) => row.id);
    expect(page.data).toEqual([rows[0].id, rows[1].id]);
    expect(page.pagination).toEqual({ next_cursor: encodeCursor(rows[1]), has_more: true, limit: 2, total_count: 3 });
  });

  it('ends with next_cursor null', () => {
    expect(toPage(rows, { limit: 3, after: null }, 3, (row) => row.id).pagination).toEqual({ next_cursor: null, has_more: false, limit: 3, total_count: 3 });
  });

  it('reads the cursor of rows of another shape through positionOf (raw SQL rows with created_at)', () => {
    const raw = rows.map((row) => ({ id: row.id, created_at: row.createdAt }));
    const page = toPage(raw, { limit: 1, after: null }, 3, (row) => row.id, (row) => ({ createdAt: row.created_at, id: row.id }));
    expect(page.pagination.next_cursor).toBe(encodeCursor(rows[0]));
  });
});

describe('stringParam and listParam (single-valued query parameters)', () => {
  const refusalOf = (read: () => unknown) => {
    try {
      read();
    } catch (error) {
      expect(error).toBeInstanceOf(DomainError);
      return { code: (error as DomainError).code, details: (error as DomainError).details };
    }
    throw new Error('accepted');
  };

  it('stringParam answers the value, or null when absent', () => {
    expect(stringParam({ status: 'open' }, 'status')).toBe('open');
    expect(stringParam({ status: '' }, 'status')).toBe('');
    expect(stringParam({}, 'status')).toBeNull();
  });

  it('a parameter given twice (an array) is 400 invalid_request, details.field = the name, reason invalid_value', () => {
    expect(refusalOf(() => stringParam({ status: ['a', 'b'] }, 'status'))).toEqual({ code: 'invalid_request', details: { field: 'status', reason: 'invalid_value' } });
    expect(refusalOf(() => listParam({ expand: ['tags', 'notes'] }, 'expand'))).toEqual({ code: 'invalid_request', details: { field: 'expand', reason: 'invalid_value' } });
  });

  it('listParam splits on commas, trims and drops empty items; [] when absent', () => {
    expect(listParam({ expand: ' tags, ,custom_fields ,' }, 'expand')).toEqual(['tags', 'custom_fields']);
    expect(listParam({}, 'expand')).toEqual([]);
  });
});
