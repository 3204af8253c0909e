import { SelectQueryBuilder, ObjectLiteral } from 'typeorm';
import { decodeCursor, encodeCursor, InvalidRequestError, KeysetPosition, Page } from '@leadflow/shared-kernel';

/** List `limit` bounds (operator-api › List `limit`). */
export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;

export interface PageRequest {
  limit: number;
  after: KeysetPosition | null;
}

/**
 * Reads `cursor` and `limit` query parameters. Throws 400 `invalid_request` with `details.field`
 * `limit` (not an integer in 1–100) or `cursor` (neither an opaque cursor nor a legacy ISO timestamp).
 */
export function readPageRequest(query: { cursor?: unknown; limit?: unknown }, maxLimit = MAX_LIMIT, defaultLimit = DEFAULT_LIMIT): PageRequest {
  let limit = defaultLimit;
  if (query.limit !== undefined) {
    const raw = query.limit;
    const message = `limit must be an integer from 1 to ${maxLimit}.`;
    if (typeof raw !== 'string' || !/^\d+$/.test(raw)) throw new InvalidRequestError('limit', 'invalid_type', message);
    if (Number(raw) < 1 || Number(raw) > maxLimit) throw new InvalidRequestError('limit', 'out_of_range', message);
    limit = Number(raw);
  }
  let after: KeysetPosition | null = null;
  if (query.cursor !== undefined && query.cursor !== '') {
    after = typeof query.cursor === 'string' ? decodeCursor(query.cursor) : null;
    if (!after) throw new InvalidRequestError('cursor', 'invalid_format', 'cursor is not a cursor returned by this API.');
  }
  return { limit, after };
}

/**
 * A single-valued query parameter (`?status=open`): its string, or null when absent. Given twice
 * (`?status=a&status=b`, parsed as an array) or otherwise not a string: 400 `invalid_request` with
 * `details.field` = `name`, reason `invalid_value`.
 */
export function stringParam(query: Record<string, unknown>, name: string): string | null {
  const value = query[name];
  if (value === undefined) return null;
  if (typeof value !== 'string') throw new InvalidRequestError(name, 'invalid_value', `${name} must be given once.`);
  return value;
}

/**
 * Comma-separated values of a single-valued query parameter (`expand=tags`,
 * `include=custom_field_definitions`), trimmed, empty items dropped; `[]` when absent. Errors as
 * {@link stringParam}.
 */
export function listParam(query: Record<string, unknown>, name: string): string[] {
  return (stringParam(query, name) ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item.length > 0);
}

/**
 * Applies keyset pagination on `(created_at, id)` descending to a query builder: filters rows after
 * the position and fetches one extra row to know `has_more`. `alias` is the builder's main alias.
 */
export function applyKeyset<T extends ObjectLiteral>(
  builder: SelectQueryBuilder<T>,
  alias: string,
  page: PageRequest,
  columns: { createdAt: string; id: string } = { createdAt: 'created_at', id: 'id' },
): SelectQueryBuilder<T> {
  const createdAt = `${alias}.${columns.createdAt}`;
  const id = `${alias}.${columns.id}`;
  if (page.after?.id) {
    builder.andWhere(`(${createdAt}, ${id}) < (:afterCreatedAt, :afterId)`, {
      afterCreatedAt: page.after.createdAt,
      afterId: page.after.id,
    });
  } else if (page.after) {
    builder.andWhere(`${createdAt} < :afterCreatedAt`, { afterCreatedAt: page.after.createdAt });
  }
  return builder.orderBy(createdAt, 'DESC').addOrderBy(id, 'DESC').limit(page.limit + 1);
}

/**
 * Builds `{ data, pagination }` from rows fetched with `limit + 1` (keyset on `(created_at, id)`
 * descending). The cursor is the last visible row's position: `createdAt` and `id`, or what `positionOf`
 * reads from a row of another shape (raw SQL rows with `created_at`).
 */
export function toPage<R extends { createdAt: Date; id: string }, T>(rows: R[], page: PageRequest, totalCount: number, map: (row: R) => T): Page<T>;
export function toPage<R, T>(rows: R[], page: PageRequest, totalCount: number, map: (row: R) => T, positionOf: (row: R) => { createdAt: Date; id: string }): Page<T>;
export function toPage<R, T>(
  rows: R[],
  page: PageRequest,
  totalCount: number,
  map: (row: R) => T,
  positionOf: (row: R) => { createdAt: Date; id: string } = (row) => {
    const { createdAt, id } = row as { createdAt: Date; id: string };
    return { createdAt, id };
  },
): Page<T> {
  const hasMore = rows.length > page.limit;
  const visible = hasMore ? rows.slice(0, page.limit) : rows;
  const last = visible[visible.length - 1];
  return {
    data: visible.map(map),
    pagination: {
      next_cursor: hasMore && last ? encodeCursor(positionOf(last)) : null,
      has_more: hasMore,
      limit: page.limit,
      total_count: totalCount,
    },
  };
}
