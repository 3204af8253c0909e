import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { ensureDatabase, runMigrations } from '@leadflow/shared-platform';
import { ALL_MIGRATIONS } from '../src/database/all-migrations';
import { distributionViolations } from './support/schema-distribution';

/** First timestamp of the migrations that make the schema distributable by account (docs/adr/0008). */
const FIRST_DISTRIBUTION_MIGRATION = 1800000000000;
const timestampOf = (migration: Function) => Number(/(\d{13})$/.exec(migration.name)?.[1] ?? 0);
const PREVIOUS_MIGRATIONS = ALL_MIGRATIONS.filter((migration) => timestampOf(migration) < FIRST_DISTRIBUTION_MIGRATION);
const ACCOUNTS = 3;
const ROWS_PER_ACCOUNT = 2;

interface ColumnInfo {
  name: string;
  type: string;
  nullable: boolean;
  serial: boolean;
}

interface ForeignKeyInfo {
  columns: string[];
  parent: string;
  parentColumns: string[];
}

/**
 * docs/adr/0008: the re-keying migrations move a database filled by the previous version without losing
 * a row. A fresh database is migrated up to the last migration before them, every table gets rows of
 * several accounts through SQL (values chosen from the catalog: types, CHECK lists, foreign keys to a
 * parent row of the same account), the new migrations run, and every row is still there, unchanged,
 * every constraint and index is valid, and no key breaks the distribution rule.
 */
describe('migrations to a schema distributable by account, on a filled database', () => {
  const url = new URL(process.env.LEADFLOW_TEST_TEMPLATE_URL ?? process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/leadflow');
  url.pathname = `/leadflow_test_distribution_${randomUUID().slice(0, 8)}`;
  const databaseUrl = url.toString();
  let client: Client;

  beforeAll(async () => {
    await ensureDatabase(databaseUrl);
    await runMigrations(databaseUrl, PREVIOUS_MIGRATIONS);
    client = new Client({ connectionString: databaseUrl });
    await client.connect();
  }, 120_000);

  afterAll(async () => {
    await client?.end();
    const admin = new URL(databaseUrl);
    admin.pathname = '/postgres';
    const dropper = new Client({ connectionString: admin.toString() });
    await dropper.connect();
    await dropper.query(`DROP DATABASE IF EXISTS "${url.pathname.slice(1)}" WITH (FORCE)`);
    await dropper.end();
  });

  it('keeps every row of every table and leaves every key valid and leading with account_id', async () => {
    expect(PREVIOUS_MIGRATIONS.length).toBeGreaterThan(10);
    expect(PREVIOUS_MIGRATIONS.length).toBeLessThan(ALL_MIGRATIONS.length);
    const accounts = Array.from({ length: ACCOUNTS }, () => randomUUID());
    const tables = await fill(client, accounts);
    const before = await fingerprints(client, tables);
    for (const table of tables) expect({ table, rows: before[table].rows }).toEqual({ table, rows: expectedRows(table) });

    const ran = await runMigrations(databaseUrl, ALL_MIGRATIONS);
    expect(ran.length).toBe(ALL_MIGRATIONS.length - PREVIOUS_MIGRATIONS.length);

    expect(await fingerprints(client, tables)).toEqual(before);
    const keys = await client.query(`SELECT k.prefix, k.account_id, k.id, p.account_id AS p_account, p.key_id FROM accounts.api_keys k FULL JOIN accounts.api_key_prefixes p ON p.prefix = k.prefix`);
    expect(keys.rows).toHaveLength(ACCOUNTS * ROWS_PER_ACCOUNT);
    for (const row of keys.rows) expect([row.p_account, row.key_id]).toEqual([row.account_id, row.id]);
    expect(await distributionViolations(client)).toEqual([]);
    const invalid = await client.query(`
      SELECT conrelid::regclass::text AS name FROM pg_constraint WHERE NOT convalidated
      UNION ALL SELECT indexrelid::regclass::text FROM pg_index WHERE NOT indisvalid OR NOT indisready`);
    expect(invalid.rows).toEqual([]);
    // the composite foreign keys hold: a child of another account's parent is refused
    const [first, second] = accounts;
    await expect(
      client.query(
        `INSERT INTO events.editions
         SELECT (jsonb_populate_record(e, jsonb_build_object('id', gen_random_uuid(), 'account_id', $2::uuid))).* FROM events.editions e WHERE e.account_id = $1 LIMIT 1`,
        [first, second],
      ),
    ).rejects.toMatchObject({ code: '23503' });
  }, 120_000);
});

function expectedRows(table: string): number {
  if (table === 'accounts.accounts') return ACCOUNTS;
  if (table === 'platform.outbox_reconciliation') return 1;
  if (table === 'platform.workers') return ROWS_PER_ACCOUNT;
  return ACCOUNTS * ROWS_PER_ACCOUNT;
}

/** Row count and a digest of every row's text, per table. */
async function fingerprints(client: Client, tables: string[]): Promise<Record<string, { rows: number; digest: string }>> {
  const result: Record<string, { rows: number; digest: string }> = {};
  for (const table of tables) {
    const { rows } = await client.query(`SELECT count(*)::int AS rows, md5(coalesce(string_agg(t::text, '|' ORDER BY t::text), '')) AS digest FROM ${table} t`);
    result[table] = rows[0];
  }
  return result;
}

/** Fills every table (parents first) with rows of `accounts`; answers the tables filled or already holding rows. */
async function fill(client: Client, accounts: string[]): Promise<string[]> {
  const { rows: tableRows } = await client.query<{ name: string }>(`
    SELECT n.nspname || '.' || c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE c.relkind IN ('r', 'p') AND n.nspname NOT IN ('pg_catalog', 'information_schema', 'pg_toast', 'public')`);
  const tables = tableRows.map((row) => row.name);
  const foreignKeys = new Map<string, ForeignKeyInfo[]>();
  for (const table of tables) {
    const { rows } = await client.query<ForeignKeyInfo>(
      `SELECT ARRAY(SELECT a.attname::text FROM unnest(c.conkey) WITH ORDINALITY k(n, o) JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.n ORDER BY k.o) AS columns,
              c.confrelid::regclass::text AS parent,
              ARRAY(SELECT a.attname::text FROM unnest(c.confkey) WITH ORDINALITY k(n, o) JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.n ORDER BY k.o) AS "parentColumns"
         FROM pg_constraint c WHERE c.conrelid = $1::regclass AND c.contype = 'f' AND c.confrelid <> c.conrelid`,
      [table],
    );
    foreignKeys.set(table, rows);
  }
  const ordered: string[] = [];
  const visit = (table: string) => {
    if (ordered.includes(table)) return;
    for (const fk of foreignKeys.get(table) ?? []) visit(fk.parent);
    ordered.push(table);
  };
  tables.sort().forEach(visit);
  /** ids of the rows written, per table and account: a child refers to a parent row of its own account. */
  const written = new Map<string, Map<string, Record<string, unknown>>>();
  let counter = 0;
  for (const table of ordered) {
    if (table === 'platform.outbox_reconciliation') continue; // its one row exists since its migration
    const columns = await columnsOf(client, table);
    const checks = await checkListsOf(client, table);
    const owners = columns.some((column) => column.name === 'account_id') ? accounts : table === 'accounts.accounts' ? accounts : [null];
    for (const account of owners) {
      for (let index = 0; index < (table === 'accounts.accounts' ? 1 : ROWS_PER_ACCOUNT); index++) {
        counter += 1;
        const row: Record<string, unknown> = {};
        for (const column of columns) {
          if (column.serial) continue;
          row[column.name] = valueFor(table, column, checks, counter, index, account);
        }
        for (const fk of foreignKeys.get(table) ?? []) {
          const parent = written.get(fk.parent)?.get(account ?? '');
          if (!parent) throw new Error(`no ${fk.parent} row for ${table}`);
          fk.columns.forEach((column, position) => (row[column] = parent[fk.parentColumns[position]]));
        }
        const names = Object.keys(row);
        await client.query(
          `INSERT INTO ${table} (${names.map((name) => `"${name}"`).join(', ')}) VALUES (${names.map((name, position) => `$${position + 1}::${columns.find((column) => column.name === name)?.type}`).join(', ')})`,
          names.map((name) => row[name]),
        );
        if (!written.has(table)) written.set(table, new Map());
        if (!written.get(table)?.has(account ?? '')) written.get(table)?.set(account ?? '', row);
      }
    }
  }
  return ordered;
}

async function columnsOf(client: Client, table: string): Promise<ColumnInfo[]> {
  const { rows } = await client.query<ColumnInfo>(
    `SELECT a.attname AS name, format_type(a.atttypid, a.atttypmod) AS type, NOT a.attnotnull AS nullable,
            (coalesce(pg_get_expr(d.adbin, d.adrelid), '') LIKE 'nextval%' OR a.attgenerated <> '' OR a.attidentity <> '') AS serial
       FROM pg_attribute a LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
      WHERE a.attrelid = $1::regclass AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum`,
    [table],
  );
  return rows;
}

/** Per column, the first value its `CHECK (column = ANY (ARRAY[...]))` allows. */
async function checkListsOf(client: Client, table: string): Promise<Map<string, string>> {
  const { rows } = await client.query<{ definition: string }>(`SELECT pg_get_constraintdef(oid) AS definition FROM pg_constraint WHERE conrelid = $1::regclass AND contype = 'c'`, [table]);
  const lists = new Map<string, string>();
  for (const { definition } of rows) {
    const match = /\(\(?(\w+) = ANY \(ARRAY\['([^']*)'/.exec(definition);
    if (match) lists.set(match[1], match[2]);
  }
  return lists;
}

function valueFor(table: string, column: ColumnInfo, checks: Map<string, string>, counter: number, index: number, account: string | null): unknown {
  if (column.name === 'account_id' || (table === 'accounts.accounts' && column.name === 'id')) return account;
  if (checks.has(column.name)) return checks.get(column.name);
  if (table === 'usage.hour_buckets' && column.type === 'integer') return 0;
  if (column.nullable) return null; // NULL satisfies every CHECK; foreign keys are set by the caller
  const hour = new Date(Date.UTC(2026, 0, 1, 10 + index));
  switch (column.type) {
    case 'uuid':
      return randomUUID();
    case 'text':
    case 'character varying':
      return `v-${counter}`;
    case 'integer':
    case 'smallint':
    case 'bigint':
    case 'numeric':
    case 'double precision':
    case 'real':
      return index + 1;
    case 'boolean':
      return false;
    case 'jsonb':
    case 'json':
      return '{}';
    case 'text[]':
      return '{fr}';
    case 'uuid[]':
      return `{${randomUUID()}}`;
    case 'timestamp with time zone':
      return /^(ends?_at|end)$/.test(column.name) ? new Date(hour.getTime() + 3_600_000) : hour;
    case 'date':
      return '2026-01-01';
    default:
      if (column.nullable) return null;
      throw new Error(`no value for ${table}.${column.name} (${column.type})`);
  }
}
