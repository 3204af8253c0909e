import type { QueryRunner } from 'typeorm';

/** A primary or unique key a table should end with (columns in order, `account_id` first). */
export interface AccountKey {
  /** `schema.table` */
  table: string;
  columns: readonly string[];
}

/** A unique key with its constraint name (the index it is built on gets the same name). */
export interface AccountUniqueKey extends AccountKey {
  name: string;
}

/** A foreign key to (re)create, `account_id` first on both sides. */
export interface AccountForeignKey {
  /** `schema.table` of the referencing rows. */
  table: string;
  name: string;
  columns: readonly string[];
  /** `schema.table` of the referenced rows. */
  references: string;
  referencedColumns: readonly string[];
  onDelete?: 'CASCADE';
}

/** What {@link leadKeysWithAccount} changes in one schema; every name is a constant of the calling migration. */
export interface AccountKeysPlan {
  /** New primary keys (the old one, whatever its columns, is replaced). */
  primaryKeys?: readonly AccountKey[];
  /** New unique constraints. */
  uniques?: readonly AccountUniqueKey[];
  /** Unique constraints or unique indexes that go (`schema.table` and the constraint or index name). */
  dropUniques?: readonly { table: string; name: string }[];
  /** Foreign keys dropped first and created again over the new keys (same name). */
  foreignKeys?: readonly AccountForeignKey[];
}

/** How long the short swap transaction waits for a table lock before it gives up and tries again. */
const LOCK_TIMEOUT = '3s';
const SWAP_ATTEMPTS = 5;

const quoteTable = (table: string) =>
  table
    .split('.')
    .map((part) => `"${part}"`)
    .join('.');
const relationName = (table: string) => table.split('.')[1];
const schemaName = (table: string) => table.split('.')[0];
const columnList = (columns: readonly string[]) => columns.map((column) => `"${column}"`).join(', ');
/** Name of the index a new primary key is built on (renamed `<table>_pkey` when it becomes the key). */
const pkIndexName = (table: string) => `${relationName(table)}_account_pkey`;

/**
 * Re-keys tables by account without long write locks (docs/adr/0008): run it from a migration declared
 * with `transaction = false`.
 *
 * 1. Builds every new primary-key and unique index with `CREATE UNIQUE INDEX CONCURRENTLY` (writes go on;
 *    an invalid index left by an interrupted run is dropped and built again).
 * 2. In ONE short transaction (`lock_timeout` 3 s, retried 5 times): drops the foreign keys to replace
 *    and the unique keys that go, swaps each primary key for its new index (`ADD CONSTRAINT … PRIMARY KEY
 *    USING INDEX`: no scan, `account_id` is already `NOT NULL`), adds the unique constraints on their
 *    indexes and the foreign keys `NOT VALID` (no scan).
 * 3. Validates each foreign key (`VALIDATE CONSTRAINT`: a scan under a lock that lets writes through).
 *
 * Idempotent: a step already done (a key already in place) is skipped, so a failed run can be run again.
 */
export async function leadKeysWithAccount(queryRunner: QueryRunner, plan: AccountKeysPlan): Promise<void> {
  const primaryKeys = [];
  for (const key of plan.primaryKeys ?? []) {
    if (await primaryKeyIs(queryRunner, key)) continue;
    await buildUniqueIndex(queryRunner, key.table, pkIndexName(key.table), key.columns);
    primaryKeys.push(key);
  }
  const uniques = [];
  for (const key of plan.uniques ?? []) {
    if (await constraintExists(queryRunner, key.table, key.name)) continue;
    await buildUniqueIndex(queryRunner, key.table, key.name, key.columns);
    uniques.push(key);
  }
  for (let attempt = 1; ; attempt++) {
    try {
      await queryRunner.startTransaction();
      await queryRunner.query(`SET LOCAL lock_timeout = '${LOCK_TIMEOUT}'`);
      for (const fk of plan.foreignKeys ?? []) await queryRunner.query(`ALTER TABLE ${quoteTable(fk.table)} DROP CONSTRAINT IF EXISTS "${fk.name}"`);
      for (const unique of plan.dropUniques ?? []) {
        if (await constraintExists(queryRunner, unique.table, unique.name)) {
          await queryRunner.query(`ALTER TABLE ${quoteTable(unique.table)} DROP CONSTRAINT "${unique.name}"`);
        } else {
          await queryRunner.query(`DROP INDEX IF EXISTS "${schemaName(unique.table)}"."${unique.name}"`);
        }
      }
      for (const key of primaryKeys) {
        const current = await primaryKeyName(queryRunner, key.table);
        if (current) await queryRunner.query(`ALTER TABLE ${quoteTable(key.table)} DROP CONSTRAINT "${current}"`);
        await queryRunner.query(
          `ALTER TABLE ${quoteTable(key.table)} ADD CONSTRAINT "${relationName(key.table)}_pkey" PRIMARY KEY USING INDEX "${pkIndexName(key.table)}"`,
        );
      }
      for (const key of uniques) await queryRunner.query(`ALTER TABLE ${quoteTable(key.table)} ADD CONSTRAINT "${key.name}" UNIQUE USING INDEX "${key.name}"`);
      for (const fk of plan.foreignKeys ?? []) {
        await queryRunner.query(
          `ALTER TABLE ${quoteTable(fk.table)} ADD CONSTRAINT "${fk.name}" FOREIGN KEY (${columnList(fk.columns)})
             REFERENCES ${quoteTable(fk.references)} (${columnList(fk.referencedColumns)})${fk.onDelete ? ` ON DELETE ${fk.onDelete}` : ''} NOT VALID`,
        );
      }
      await queryRunner.commitTransaction();
      break;
    } catch (error) {
      if (queryRunner.isTransactionActive) await queryRunner.rollbackTransaction();
      const lockTimeout = (error as { driverError?: { code?: string }; code?: string }).driverError?.code === '55P03';
      if (!lockTimeout || attempt >= SWAP_ATTEMPTS) throw error;
      await new Promise((resolve) => setTimeout(resolve, 500 * attempt));
    }
  }
  for (const fk of plan.foreignKeys ?? []) await queryRunner.query(`ALTER TABLE ${quoteTable(fk.table)} VALIDATE CONSTRAINT "${fk.name}"`);
}

/**
 * `CREATE UNIQUE INDEX CONCURRENTLY` (outside any transaction), after dropping an invalid index of that
 * name left by an interrupted build. Also used by migrations for plain indexes (`unique` false).
 */
export async function buildIndexConcurrently(queryRunner: QueryRunner, table: string, name: string, definition: string, unique = false): Promise<void> {
  const [existing] = (await queryRunner.query(
    `SELECT i.indisvalid AS valid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = $1 AND c.relname = $2`,
    [schemaName(table), name],
  )) as { valid: boolean }[];
  if (existing?.valid) return;
  if (existing) await queryRunner.query(`DROP INDEX CONCURRENTLY "${schemaName(table)}"."${name}"`);
  await queryRunner.query(`CREATE ${unique ? 'UNIQUE ' : ''}INDEX CONCURRENTLY "${name}" ON ${quoteTable(table)} ${definition}`);
}

function buildUniqueIndex(queryRunner: QueryRunner, table: string, name: string, columns: readonly string[]): Promise<void> {
  return buildIndexConcurrently(queryRunner, table, name, `(${columnList(columns)})`, true);
}

async function primaryKeyName(queryRunner: QueryRunner, table: string): Promise<string | null> {
  const [row] = (await queryRunner.query(`SELECT conname FROM pg_constraint WHERE conrelid = $1::regclass AND contype = 'p'`, [table])) as {
    conname: string;
  }[];
  return row?.conname ?? null;
}

async function primaryKeyIs(queryRunner: QueryRunner, key: AccountKey): Promise<boolean> {
  const [row] = (await queryRunner.query(
    `SELECT array_agg(a.attname::text ORDER BY k.ordinality) AS columns
       FROM pg_constraint c CROSS JOIN LATERAL unnest(c.conkey) WITH ORDINALITY AS k(attnum, ordinality)
       JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.attnum
      WHERE c.conrelid = $1::regclass AND c.contype = 'p'`,
    [key.table],
  )) as { columns: string[] | null }[];
  return (row?.columns ?? []).join(',') === key.columns.join(',');
}

async function constraintExists(queryRunner: QueryRunner, table: string, name: string): Promise<boolean> {
  const rows = (await queryRunner.query(`SELECT 1 FROM pg_constraint WHERE conrelid = $1::regclass AND conname = $2`, [table, name])) as unknown[];
  return rows.length > 0;
}
