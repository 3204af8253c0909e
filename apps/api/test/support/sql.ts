import { DataSource } from 'typeorm';
import type { TestApi } from './test-api';

/** Direct SQL on the TestApi's own database, to assert what was (not) written. */
export function sqlOf(api: TestApi) {
  const db = () => api.app.get(DataSource);
  return {
    query: <T = Record<string, unknown>>(text: string, parameters: unknown[] = []): Promise<T[]> => db().query(text, parameters),
    /** `count(*)` of a table, optionally of one account's rows. */
    count: async (table: string, accountId?: string): Promise<number> => {
      const rows: { n: number }[] = await db().query(
        `SELECT count(*)::int AS n FROM ${table}${accountId ? ' WHERE account_id = $1' : ''}`,
        accountId ? [accountId] : [],
      );
      return rows[0].n;
    },
  };
}

/** Tables an account blueprint writes to (accounts, pipeline, messaging, activity log). */
export const BLUEPRINT_TABLES = [
  'accounts.accounts',
  'accounts.systems',
  'accounts.team_members',
  'accounts.api_keys',
  'pipeline.pipelines',
  'pipeline.stages',
  'messaging.senders',
  'platform.activity_log',
] as const;

/** Row counts of every blueprint table, to compare before and after a refused request. */
export async function blueprintCounts(api: TestApi): Promise<Record<string, number>> {
  const sql = sqlOf(api);
  const entries = await Promise.all(BLUEPRINT_TABLES.map(async (table) => [table, await sql.count(table)] as const));
  return Object.fromEntries(entries);
}
