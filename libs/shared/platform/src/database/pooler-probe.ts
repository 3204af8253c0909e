import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { ConfigError } from '../config/env-schema';

/**
 * What {@link probePreparedStatements} found between the apps and PostgreSQL:
 * - `direct`: no sign of a pooler (each client connection kept its own backend), or a pooler in session
 *   mode, which is the same for prepared statements;
 * - `pooler-keeps-statements`: client connections share or change backends, and a named prepared statement
 *   still follows its client connection (PgBouncer 1.21+ with `max_prepared_statements`);
 * - `pooler-drops-statements`: client connections share or change backends and a named prepared statement
 *   does not follow (PgBouncer in transaction mode before 1.21, or without `max_prepared_statements`).
 */
export type PoolerKind = 'direct' | 'pooler-keeps-statements' | 'pooler-drops-statements';

/** The outcome of {@link probePreparedStatements}: the kind and the observation that decided it (for the log line). */
export interface PoolerProbeResult {
  kind: PoolerKind;
  evidence: string;
}

/** Swap rounds before a connection that never shared nor changed its backend is taken for a direct one. */
const PROBE_ROUNDS = 3;
/** SQLSTATE of Bind naming a statement the backend does not have (26000) and of Parse reusing a name (42P05). */
const UNDEFINED_STATEMENT = '26000';
const DUPLICATE_STATEMENT = '42P05';

/** Attempts and pause of {@link resolvePreparedStatements} when the probe cannot reach PostgreSQL: TypeORM's own defaults (10 × 3 s). */
const PROBE_ATTEMPTS = 10;
const PROBE_RETRY_DELAY_MS = 3_000;

/**
 * Finds out, on two client connections of `databaseUrl`, whether a named prepared statement survives from
 * one transaction to the next on one client connection: the property {@link PreparedStatementClient} needs.
 * It measures that property itself rather than guessing from addresses (a pooler may listen on 5432 and a
 * NAT or Docker port mapping changes ports without any pooler).
 *
 * Each round: A runs a named statement (a random name, `SELECT pg_backend_pid()`), then B opens a
 * transaction and reads its backend pid while A runs the statement again.
 * - B on A's backend: two client connections share one backend, a pooler. B prepares the same name there:
 *   refused with 42P05, the pooler passes names through (drops); accepted, it renames them (keeps).
 * - A's run answering 26000, the pooler moved A to a backend without the statement (drops); A on another
 *   backend with the statement, it followed A (keeps).
 * - A still on its backend after {@link PROBE_ROUNDS} rounds, B never on it: `direct`.
 * Statement pooling refuses B's `BEGIN`: `pooler-drops-statements`. Both connections are closed afterwards
 * (A's statement closed with the protocol's Close first).
 *
 * @param timeoutMs connect and per-statement timeout (ms, default 5000).
 * @throws the connection or timeout error of pg when PostgreSQL (or the pooler) does not answer.
 */
export async function probePreparedStatements(databaseUrl: string, timeoutMs = 5_000): Promise<PoolerProbeResult> {
  const options = { connectionString: databaseUrl, connectionTimeoutMillis: timeoutMs, query_timeout: timeoutMs, application_name: 'leadflow-pooler-probe' };
  const a = new Client(options);
  const b = new Client(options);
  a.on('error', () => undefined);
  b.on('error', () => undefined);
  const statement = { name: `lf_probe_${randomBytes(6).toString('hex')}`, text: 'SELECT pg_backend_pid() AS pid' };
  const pidOf = async (client: Client, named: boolean): Promise<number> => (await client.query<{ pid: number }>(named ? statement : statement.text)).rows[0].pid;
  try {
    await a.connect();
    await b.connect();
    const first = await pidOf(a, true);
    for (let round = 0; round < PROBE_ROUNDS; round += 1) {
      try {
        await b.query('BEGIN');
      } catch (error) {
        return { kind: 'pooler-drops-statements', evidence: `a transaction was refused (${(error as Error).message}): statement pooling` };
      }
      try {
        const other = await pidOf(b, false);
        if (other === first) {
          try {
            await pidOf(b, true);
            return { kind: 'pooler-keeps-statements', evidence: 'two client connections shared one backend, and a statement name prepared by both did not collide' };
          } catch (error) {
            if ((error as { code?: string }).code !== DUPLICATE_STATEMENT) throw error;
            return { kind: 'pooler-drops-statements', evidence: `two client connections shared one backend, where a statement of one was seen by the other (${DUPLICATE_STATEMENT})` };
          }
        }
        let again: number;
        try {
          again = await pidOf(a, true);
        } catch (error) {
          if ((error as { code?: string }).code !== UNDEFINED_STATEMENT) throw error;
          return { kind: 'pooler-drops-statements', evidence: `a client connection moved to another backend without its prepared statement (${UNDEFINED_STATEMENT})` };
        }
        if (again !== first) return { kind: 'pooler-keeps-statements', evidence: 'a client connection moved to another backend with its prepared statement' };
      } finally {
        await b.query('ROLLBACK').catch(() => undefined);
      }
    }
    return { kind: 'direct', evidence: `each client connection kept its own backend (${PROBE_ROUNDS} rounds)` };
  } finally {
    await closeStatement(a, statement.name).catch(() => undefined);
    await Promise.all([a.end().catch(() => undefined), b.end().catch(() => undefined)]);
  }
}

/**
 * Closes the named prepared statement `name` of `client` with the protocol's Close message (`C`, type `S`)
 * and a Sync, queued like a query: never SQL `DEALLOCATE`, which a pooler tracking statements by protocol
 * (PgBouncer 1.21+) does not see. Resolves at the server's ReadyForQuery; closing an unknown name is no error.
 */
export function closeStatement(client: Client, name: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const connection = (client as unknown as { connection: { parsedStatements: Record<string, string> } }).connection;
    delete connection.parsedStatements[name];
    const submittable = {
      submit(wire: { close(message: { type: 'S'; name: string }): void; sync(): void }): null {
        wire.close({ type: 'S', name });
        wire.sync();
        return null;
      },
      handleError: reject,
      handleCommandComplete: () => undefined,
      handleReadyForQuery: () => resolve(),
      handleEmptyQuery: () => undefined,
      handleRowDescription: () => undefined,
      handleDataRow: () => undefined,
      handlePortalSuspended: () => undefined,
      handleCopyInResponse: () => undefined,
      handleCopyData: () => undefined,
    };
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- pg's Submittable: handlers called by the client as messages arrive
    client.query(submittable as any);
  });
}

/** Probe results of this process, by URL: the probe runs (and its warning is logged) once per database. */
const resolved = new Map<string, Promise<boolean>>();

/**
 * Whether the pool of `databaseUrl` should run parameterised statements as named prepared statements
 * (`DATABASE_PREPARED_STATEMENTS`, `setting`):
 * - `false`: no, without probing;
 * - `null` (unset, the default): yes unless {@link probePreparedStatements} finds a pooler that drops them;
 *   then no, said once per process through `warn`;
 * - `true`: yes, and a pooler that drops them refuses start-up.
 * The probe is tried {@link PROBE_ATTEMPTS} times, {@link PROBE_RETRY_DELAY_MS} apart, while PostgreSQL does
 * not answer (as TypeORM retries its first connection), then its error is thrown.
 *
 * @throws ConfigError (exit 78 in the apps and prepare.ts) with one line naming the setting, when `setting`
 *   is `true` and the database is behind a pooler that drops prepared statements.
 */
export function resolvePreparedStatements(databaseUrl: string, setting: boolean | null, warn: (message: string) => void): Promise<boolean> {
  if (setting === false) return Promise.resolve(false);
  const key = `${setting}|${databaseUrl}`;
  let decision = resolved.get(key);
  if (decision === undefined) {
    decision = decide(databaseUrl, setting, warn);
    resolved.set(key, decision);
    decision.catch(() => resolved.delete(key)); // a later start (tests) probes again
  }
  return decision;
}

async function decide(databaseUrl: string, setting: true | null, warn: (message: string) => void): Promise<boolean> {
  const { kind, evidence } = await probeWithRetries(databaseUrl, warn);
  if (kind !== 'pooler-drops-statements') return true;
  const where = describe(databaseUrl);
  if (setting === true) {
    throw new ConfigError([
      `DATABASE_PREPARED_STATEMENTS=true: ${where} is a connection pooler that does not keep prepared statements across transactions (${evidence}; PgBouncer in transaction mode before 1.21 or without max_prepared_statements): unset it or set it to false`,
    ]);
  }
  warn(`${where} is a connection pooler that does not keep prepared statements across transactions (${evidence}): prepared statements off (DATABASE_PREPARED_STATEMENTS unset; set it to false to skip this probe)`);
  return false;
}

async function probeWithRetries(databaseUrl: string, warn: (message: string) => void): Promise<PoolerProbeResult> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await probePreparedStatements(databaseUrl);
    } catch (error) {
      if (attempt >= PROBE_ATTEMPTS) throw error;
      warn(`probing ${describe(databaseUrl)} for a connection pooler failed (${(error as Error).message}): retrying (${attempt})`);
      await new Promise((resolve) => setTimeout(resolve, PROBE_RETRY_DELAY_MS));
    }
  }
}

/** `host:port/database` of a PostgreSQL URL, without credentials. */
function describe(databaseUrl: string): string {
  const url = new URL(databaseUrl);
  return `${url.hostname}:${url.port || 5432}${url.pathname}`;
}
