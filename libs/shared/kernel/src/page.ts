/** A page of a list endpoint: `{ data, pagination }` (operator-api › Success bodies). */
export interface Pagination {
  next_cursor: string | null;
  has_more: boolean;
  limit: number;
  total_count: number;
}

export interface Page<T> {
  data: T[];
  pagination: Pagination;
}

/** The pagination object of an unpaginated list (stages, webhook subscriptions, samples). */
export function unpaginated<T>(data: T[]): Page<T> {
  return { data, pagination: { next_cursor: null, has_more: false, limit: data.length, total_count: data.length } };
}
