import { ClientConfig, Connection, Query } from 'pg';
import { PooledClient } from './pooled-client';

/**
 * How many distinct statements one connection keeps prepared (per PostgreSQL backend) before the least
 * recently used one is deallocated. The request paths use a few dozen; dynamic statements (filters,
 * batch inserts of N rows) beyond the bound only cost a `DEALLOCATE` now and then.
 */
export const PREPARED_STATEMENTS_PER_CONNECTION = 256;

/**
 * How long a statement stays prepared on a connection before it is prepared again (milliseconds; the
 * default of {@link PreparedStatementClient}, `preparedStatementMaxAgeMs` in its config overrides it).
 * PostgreSQL replans a cached generic plan only when the statistics or the schema of its tables change;
 * where they do not (autovacuum off or behind, a table never analysed), a plan chosen while a table was
 * empty (a sequential scan) stayed in use as the table grew: measured on 2026-11-28, the webhook
 * claim and fan-out statements took 80 ms each at 90,000 deliveries, and delivery fell from about 900 to
 * 15 a second, until an `ANALYZE`. Preparing again plans with the table's current size.
 */
export const PREPARED_STATEMENT_MAX_AGE_MS = 60_000;

/** PostgreSQL's "cached plan must not change result type" (a table a prepared `SELECT *` reads was altered). */
const FEATURE_NOT_SUPPORTED = '0A000';

/**
 * A `pg` client that runs every parameterised statement as a named prepared statement (issue 11,
 * hot path: PostgreSQL's parse and plan were a third of its CPU per lead capture). The first execution of
 * a statement text on a connection sends Parse + Bind + Execute under a name of this connection
 * (`lf1`, `lf2`, …); every later one sends Bind + Execute only, and after five executions PostgreSQL
 * may keep a generic plan (`plan_cache_mode = auto`), so the statement is neither parsed nor planned again.
 *
 * Shapes: statements are keyed by their exact text; names are per connection and never reused. At most
 * {@link PREPARED_STATEMENTS_PER_CONNECTION} stay prepared per connection (least recently used first
 * out): an evicted one is deallocated (`DEALLOCATE`) just before the connection's next statement, in the
 * same turn (never queued beside a running one); refused there (an aborted transaction), it is tried
 * again before the next one. A statement prepared more than {@link PREPARED_STATEMENT_MAX_AGE_MS} ago is
 * retired the same way on its next use and prepared again under a new name, so its plan follows the growth
 * of its tables even when their statistics do not. Statements without parameters (`BEGIN`, `COMMIT`, DDL, migrations) and the
 * callback form keep pg's own behaviour (simple protocol, unnamed). A statement whose prepared plan
 * PostgreSQL refuses after a schema change (SQLSTATE 0A000) is forgotten and deallocated the same way, so
 * its next execution prepares it again; the failing execution's error is passed on unchanged.
 *
 * Used as the pool's `Client` (`extra.Client` in {@link dataSourceOptions}); TypeORM's repositories,
 * query builders and `manager.query` all go through it unchanged. Not for PgBouncer in transaction mode.
 */
export class PreparedStatementClient extends PooledClient {
  /** Statement text → this connection's name for it and when it was prepared (epoch ms), in order of last use (oldest first). */
  private readonly prepared = new Map<string, { name: string; preparedAt: number }>();
  /** Names evicted or refused, closed (protocol Close) with this connection's next prepared execution. */
  private readonly stale: string[] = [];
  /** Statement name → the row layout of its last result (see {@link PreparedQuery}). */
  private readonly layouts = new Map<string, RowLayout>();
  private sequence = 0;
  /** See {@link PREPARED_STATEMENT_MAX_AGE_MS}. */
  private readonly maxAgeMs: number;

  /** `config` as pg's Client takes it, plus `preparedStatementMaxAgeMs` (default {@link PREPARED_STATEMENT_MAX_AGE_MS}). */
  constructor(config?: string | (ClientConfig & { preparedStatementMaxAgeMs?: number })) {
    super(config);
    this.maxAgeMs = (typeof config === 'object' ? config.preparedStatementMaxAgeMs : undefined) ?? PREPARED_STATEMENT_MAX_AGE_MS;
  }

  // pg's overloads (string, config object, Query, Submittable; promise or callback) are kept as they are.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  override query(config: any, values?: any, callback?: any): any {
    if (typeof config !== 'string' || typeof values === 'function' || typeof callback === 'function') return super.query(config, values, callback);
    return this.run(config, values);
  }

  /**
   * Runs `text`: prepared under this connection's name for it when it has parameters. The names retired so
   * far go with that execution, closed (protocol Close) just before its Parse/Bind in the same round trip.
   */
  private run(text: string, values: unknown): Promise<unknown> {
    if (!Array.isArray(values) || values.length === 0) return super.query(text, values as unknown[] | undefined);
    const name = this.nameFor(text);
    const closing = this.stale.splice(0);
    return new Promise((resolve, reject) => {
      super.query(new PreparedQuery(text, values, name, closing, this.layouts, (error, result) => (error ? reject(error) : resolve(result))));
    }).catch((error: Error) => {
      Error.captureStackTrace(error); // as pg does: a stack leading back to the caller, not to the socket read
      if ((error as { code?: string }).code === FEATURE_NOT_SUPPORTED && this.prepared.get(text)?.name === name) {
        this.prepared.delete(text);
        this.layouts.delete(name);
        this.retire(name);
      }
      throw error;
    });
  }

  private nameFor(text: string): string {
    const now = Date.now();
    const known = this.prepared.get(text);
    if (known !== undefined) {
      this.prepared.delete(text);
      if (now - known.preparedAt < this.maxAgeMs) {
        this.prepared.set(text, known);
        return known.name;
      }
      this.layouts.delete(known.name);
      this.retire(known.name);
    } else if (this.prepared.size >= PREPARED_STATEMENTS_PER_CONNECTION) {
      const [oldest, { name }] = this.prepared.entries().next().value as [string, { name: string }];
      this.prepared.delete(oldest);
      this.layouts.delete(name);
      this.retire(name);
    }
    const name = `lf${++this.sequence}`;
    this.prepared.set(text, { name, preparedAt: now });
    return name;
  }

  /** Drops `name` from pg's record and queues its Close (with the next prepared execution) when the server has (or is about to have) it. */
  private retire(name: string): void {
    const connection = (this as unknown as { connection: { parsedStatements: Record<string, string>; submittedNamedStatements?: Record<string, string> } }).connection;
    const known = connection.parsedStatements[name] !== undefined || connection.submittedNamedStatements?.[name] !== undefined;
    delete connection.parsedStatements[name];
    if (known) this.stale.push(name);
  }
}

/** The part of pg's Connection that {@link PreparedQuery}'s `submit` writes to besides pg's own Query. */
interface WireConnection {
  stream: { cork?(): void; uncork?(): void };
  close(message: { type: 'S'; name: string }): void;
}

/** A column of a RowDescription message, as pg's protocol parser gives it. */
interface FieldDescription {
  name: string;
  dataTypeID: number;
  format: string;
}

/** pg's Result internals that {@link PreparedQuery} fills from a kept {@link RowLayout}. */
interface ResultInternals {
  command: string | null;
  fields: FieldDescription[];
  _parsers: unknown[] | undefined;
  _types: unknown;
  _prebuiltEmptyResultObject: Record<string, null> | null;
  addFields(fields: FieldDescription[]): void;
}

/** What pg derives from a statement's RowDescription: one type parser per column and the all-null row it copies per row. */
interface RowLayout {
  fields: FieldDescription[];
  types: unknown;
  parsers: unknown[] | undefined;
  emptyRow: Record<string, null> | null;
}

/** Same columns (names, types, formats) in the same order. */
function sameFields(kept: readonly FieldDescription[], given: readonly FieldDescription[]): boolean {
  if (kept.length !== given.length) return false;
  for (let index = 0; index < kept.length; index += 1) {
    const a = kept[index] as FieldDescription;
    const b = given[index] as FieldDescription;
    if (a.name !== b.name || a.dataTypeID !== b.dataTypeID || a.format !== b.format) return false;
  }
  return true;
}

/**
 * One execution of a named prepared statement (issue 11, hot path), submitted to pg as a ready Query:
 * - built from the statement text, so pg does not copy a config object (`cloneQueryConfig` redefines
 *   every property one by one);
 * - its RowDescription reuses the layout of the statement's previous execution on this connection when
 *   the columns are the same (names, type oids, formats, compared one by one). pg's own `addFields` builds
 *   a dictionary-mode object of every column and copies it on each execution: 24 µs for the 36 columns of
 *   a contact, measured, on every read. Rows are then parsed by pg exactly as before;
 * - `closing`: names its connection retired, closed (protocol Close, `C` type `S`) ahead of its own messages,
 *   so they leave in the same write and need no Sync of their own (pg's client ignores CloseComplete).
 */
class PreparedQuery extends Query {
  constructor(
    text: string,
    values: unknown[],
    name: string,
    private readonly closing: string[],
    private readonly layouts: Map<string, RowLayout>,
    callback: (error: Error | undefined, result: unknown) => void,
  ) {
    super(text, values, callback);
    (this as unknown as { name: string }).name = name;
  }

  /** pg's `submit` (its returned error is pg's to handle), preceded by a Close of every retired name, all in one corked write. */
  override submit = (connection: Connection): Error | null => {
    const submit = (Query.prototype as unknown as { submit(this: Query, connection: Connection): Error | null }).submit;
    if (this.closing.length === 0) return submit.call(this, connection);
    const wire = connection as unknown as WireConnection;
    wire.stream.cork?.();
    try {
      for (const name of this.closing) wire.close({ type: 'S', name });
      return submit.call(this, connection);
    } finally {
      wire.stream.uncork?.();
    }
  };

  handleRowDescription(message: { fields: FieldDescription[] }): void {
    const self = this as unknown as { name: string; _result: ResultInternals; _checkForMultirow(): void; _accumulateRows: boolean; callback: unknown };
    self._checkForMultirow();
    const result = self._result;
    const kept = this.layouts.get(self.name);
    if (kept && kept.types === result._types && sameFields(kept.fields, message.fields)) {
      result.fields = message.fields;
      result._parsers = kept.parsers;
      result._prebuiltEmptyResultObject = kept.emptyRow;
    } else {
      result.addFields(message.fields);
      this.layouts.set(self.name, { fields: message.fields, types: result._types, parsers: result._parsers, emptyRow: result._prebuiltEmptyResultObject });
    }
    self._accumulateRows = Boolean(self.callback) || this.listeners('row').length === 0;
  }
}
