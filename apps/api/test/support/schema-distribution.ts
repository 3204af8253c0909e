import type { Client } from 'pg';

/**
 * The only tables allowed to have neither `account_id` nor a `reference table: <reason>` comment, each
 * with its reason: they are not account data and have no place in a schema distributed by account.
 */
export const NOT_DISTRIBUTED: Readonly<Record<string, string>> = {
  'public.migrations': "TypeORM's record of the migrations run: one per database, read before any account exists",
  'accounts.accounts': 'the tenants themselves: the account id is their primary key (a reference table under Citus)',
};

/** One key or table that breaks the rule "distributable by account" (docs/adr/0008). */
export interface DistributionViolation {
  table: string;
  problem: string;
}

/**
 * Reads `pg_catalog` and answers what keeps the schema from being distributed by account:
 * - a table with `account_id` (not a named reference table) whose primary key, unique constraint,
 *   exclusion constraint, unique index or foreign key does not lead with `account_id`, or whose foreign
 *   key references a table by something other than `(account_id, …)` (`accounts.accounts (id)` excepted);
 * - a table without `account_id` that is neither a named reference table (a comment starting with
 *   `reference table:` and giving the reason) nor in {@link NOT_DISTRIBUTED}.
 */
export async function distributionViolations(client: Client): Promise<DistributionViolation[]> {
  const { rows } = await client.query<{ table: string; problem: string }>(`
    WITH t AS (
      SELECT c.oid, n.nspname || '.' || c.relname AS name,
             EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attname = 'account_id' AND NOT a.attisdropped) AS has_account,
             coalesce(obj_description(c.oid, 'pg_class'), '') ~ '^reference table: .+' AS reference
        FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
       WHERE c.relkind IN ('r', 'p') AND NOT c.relispartition AND n.nspname NOT IN ('pg_catalog', 'information_schema', 'pg_toast')
    ), distributed AS (SELECT * FROM t WHERE has_account AND NOT reference)
    SELECT d.name AS table, format('%s %s does not lead with account_id: %s', CASE con.contype WHEN 'p' THEN 'primary key' WHEN 'u' THEN 'unique key' WHEN 'f' THEN 'foreign key' ELSE 'exclusion constraint' END, con.conname, pg_get_constraintdef(con.oid)) AS problem
      FROM distributed d JOIN pg_constraint con ON con.conrelid = d.oid
     WHERE con.contype IN ('p', 'u', 'f', 'x')
       AND (SELECT a.attname FROM pg_attribute a WHERE a.attrelid = d.oid AND a.attnum = con.conkey[1]) <> 'account_id'
    UNION ALL
    SELECT d.name, format('foreign key %s references %s without leading with account_id: %s', con.conname, con.confrelid::regclass, pg_get_constraintdef(con.oid))
      FROM distributed d JOIN pg_constraint con ON con.conrelid = d.oid
     WHERE con.contype = 'f'
       AND NOT (con.confrelid = 'accounts.accounts'::regclass AND cardinality(con.conkey) = 1)
       AND (SELECT a.attname FROM pg_attribute a WHERE a.attrelid = con.confrelid AND a.attnum = con.confkey[1]) <> 'account_id'
    UNION ALL
    SELECT d.name, format('unique index %s does not lead with account_id: %s', i.indexrelid::regclass, pg_get_indexdef(i.indexrelid))
      FROM distributed d JOIN pg_index i ON i.indrelid = d.oid
     WHERE i.indisunique
       AND NOT EXISTS (SELECT 1 FROM pg_constraint con WHERE con.conindid = i.indexrelid AND con.conrelid = d.oid)
       AND (i.indkey[0] = 0 OR (SELECT a.attname FROM pg_attribute a WHERE a.attrelid = d.oid AND a.attnum = i.indkey[0]) <> 'account_id')
    UNION ALL
    SELECT d.name, 'has account_id but no primary key'
      FROM distributed d WHERE NOT EXISTS (SELECT 1 FROM pg_constraint con WHERE con.conrelid = d.oid AND con.contype = 'p')
    UNION ALL
    SELECT t.name, 'has no account_id and is not a named reference table (COMMENT ON TABLE … IS ''reference table: <reason>'')'
      FROM t WHERE NOT t.has_account AND NOT t.reference AND NOT (t.name = ANY($1::text[]))
    ORDER BY 1, 2`, [Object.keys(NOT_DISTRIBUTED)]);
  return rows;
}

/** The named reference tables (`reference table: <reason>` comment) with their reasons. */
export async function referenceTables(client: Client): Promise<Record<string, string>> {
  const { rows } = await client.query<{ name: string; reason: string }>(`
    SELECT n.nspname || '.' || c.relname AS name, substring(obj_description(c.oid, 'pg_class') FROM '^reference table: (.+)$') AS reason
      FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE c.relkind IN ('r', 'p') AND obj_description(c.oid, 'pg_class') ~ '^reference table: .+'
     ORDER BY 1`);
  return Object.fromEntries(rows.map((row) => [row.name, row.reason]));
}
