/** Rows of a statement: TypeORM answers `[rows, affected]` for UPDATE/DELETE … RETURNING on PostgreSQL, the rows otherwise. */
export function rowsOf<T>(result: unknown): T[] {
  if (Array.isArray(result) && result.length === 2 && Array.isArray(result[0]) && typeof result[1] === 'number') return result[0] as T[];
  return result as T[];
}
