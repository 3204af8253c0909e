import 'reflect-metadata';
import { Client } from 'pg';
import { AppConfig, ConfigError, ensureDatabase, runMigrations } from '@leadflow/shared-platform';
import { ALL_MIGRATIONS } from '../../apps/api/src/database/all-migrations';

/** Advisory lock key: two `npm start` (or `npm run migrate`) on one database migrate and seed one after the other. */
export const PREPARE_LOCK = 7_460_113;
/** Pause between two tries of the preparation lock while another process holds it (ms). */
const PREPARE_LOCK_RETRY_MS = 250;

/** Creates the database when missing and runs every pending migration (`ALL_MIGRATIONS`). Returns the names run. */
export async function migrate(databaseUrl: string): Promise<string[]> {
  await ensureDatabase(databaseUrl);
  return runMigrations(databaseUrl, ALL_MIGRATIONS);
}

/**
 * Runs `work` while holding the preparation lock of `databaseUrl`'s database: a TRANSACTION-scoped advisory
 * lock (`pg_advisory_xact_lock`) taken in a transaction of a connection of its own, kept open for the
 * length of `work` and ended after it (COMMIT, or ROLLBACK when `work` throws). Released by PostgreSQL
 * when that transaction ends, whatever happens to this process: it cannot stay behind on a backend of a
 * pooler in transaction mode the way a session lock (`pg_advisory_lock`) taken through one did. Through
 * such a pooler the open transaction holds one server connection for the length of `work`, so the
 * pooler's pool must have at least two. Create the database first (`ensureDatabase`): the lock lives in it.
 *
 * While another process holds the lock, this one does NOT wait inside a statement: it tries
 * (`pg_try_advisory_xact_lock`), and on a refusal ends its transaction and tries again
 * {@link PREPARE_LOCK_RETRY_MS} later. A waiting statement holds a snapshot, and the holder's migrations'
 * `CREATE INDEX CONCURRENTLY` waits for every older snapshot to end: two nodes starting together with a
 * migration pending deadlocked that way (the holder waiting for the waiter, the waiter for the holder).
 */
export async function withPrepareLock<T>(databaseUrl: string, work: () => Promise<T>): Promise<T> {
  const lock = new Client({ connectionString: databaseUrl, application_name: 'leadflow-prepare-lock' });
  lock.on('error', () => undefined); // a dropped connection ends the transaction, and the lock with it
  await lock.connect();
  try {
    // Simple protocol (no parameters): a parameterised query leaves its unnamed portal, and the snapshot it
    // holds, open until the transaction ends, and `CREATE INDEX CONCURRENTLY` in a migration then waits for
    // this transaction forever (`npm start` hung in prepare.ts).
    for (;;) {
      await lock.query('BEGIN');
      const taken = await lock.query<{ taken: boolean }>(`SELECT pg_try_advisory_xact_lock(${PREPARE_LOCK}) AS taken`);
      if (taken.rows[0]?.taken === true) break;
      await lock.query('ROLLBACK');
      await new Promise((resolve) => setTimeout(resolve, PREPARE_LOCK_RETRY_MS));
    }
    let result: T;
    try {
      result = await work();
    } catch (error) {
      await lock.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
    await lock.query('COMMIT');
    return result;
  } finally {
    await lock.end().catch(() => undefined);
  }
}

/** `npm run migrate` */
if (require.main === module) {
  const run = async (): Promise<string[]> => {
    const { databaseUrl } = new AppConfig();
    await ensureDatabase(databaseUrl);
    return withPrepareLock(databaseUrl, () => migrate(databaseUrl));
  };
  run().then(
    (ran) => console.log(ran.length > 0 ? `Migrations run: ${ran.join(', ')}` : 'No pending migration.'),
    (error: unknown) => {
      if (error instanceof ConfigError) {
        for (const problem of error.problems) console.error(`[migrate] invalid configuration: ${problem}`);
        process.exit(ConfigError.EXIT_CODE);
      }
      console.error(error);
      process.exit(1);
    },
  );
}
