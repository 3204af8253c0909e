import type { EntityManager } from 'typeorm';

/**
 * Deletes every row of one account from each of `tables`, in the order given (children first), through
 * `manager` (the caller's transaction): a sandbox reset (operator-api › Test mode, issue 15 item 4) calls it
 * once per context, each with the tables of its own schema. Answers `{ "<schema.table>": rows deleted }`.
 * `tables` are constants of the calling context, never input.
 */
export async function deleteAccountRows(manager: EntityManager, accountId: string, tables: readonly string[]): Promise<Record<string, number>> {
  const deleted: Record<string, number> = {};
  for (const table of tables) {
    const [{ n }] = await manager.query(`WITH gone AS (DELETE FROM ${table} WHERE account_id = $1 RETURNING 1) SELECT count(*)::int AS n FROM gone`, [accountId]);
    deleted[table] = n;
  }
  return deleted;
}
