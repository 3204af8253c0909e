import { Client, ClientConfig } from 'pg';

/**
 * How many distinct statements one connection keeps prepared (per PostgreSQL backend) before the least
 * recently used one is deallocated. The request paths use a few dozen; dynamic statements (filters,
 * batch inserts of N rows) beyond the bound only cost a `DEALLOCATE` now and then.
 */
export const PREPARED_STATEMENTS_PER_CONNECTION = 256;

/** PostgreSQL's "cached plan must not change result type" (a table a prepared `SELECT *` reads was altered). */
const FEATURE_NOT_SUPPORTED = '0A000';

type QueryCallback = (error: Error | null, result?: unknown) => void;

/**
 * A `pg` client that runs every parameterised statement as a named prepared statement (issue 11,
 * hot path: PostgreSQL's parse and plan were a third of its CPU per lead capture). The first execution of
 * a statement text on a connection sends Parse + Bind + Execute under a name of this connection
 * (`lf1`, `lf2`, …); every later one sends Bind + Execute only, and after five executions PostgreSQL
 * may keep a generic plan (`plan_cache_mode = auto`), so the statement is neither parsed nor planned again.
 *
 * Shapes: statements are keyed by their exact text; names are per connection and never reused, so a
 * deallocation that fails (in an aborted transaction) can never collide with a later statement. At most
 * {@link PREPARED_STATEMENTS_PER_CONNECTION} stay prepared per connection (least recently used first out).
 * Statements without parameters (`BEGIN`, `COMMIT`, DDL, migrations) keep the simple protocol.
 * A statement whose prepared plan PostgreSQL refuses after a schema change (SQLSTATE 0A000) is forgotten,
 * so its next execution prepares it again; the failing execution's error is passed on unchanged.
 *
 * Used as the pool's `Client` (`extra.Client` in {@link dataSourceOptions}); TypeORM's repositories,
 * query builders and `manager.query` all go through it unchanged. Not for PgBouncer in transaction mode.
 */
export class PreparedStatementClient extends Client {
  /** Statement text → this connection's name for it, in order of last use (oldest first). */
  private readonly prepared = new Map<string, string>();
  private sequence = 0;

  constructor(config?: string | ClientConfig) {
    super(config);
  }

  // pg's overloads (string, config object, Query, Submittable; promise or callback) are kept as they are.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  override query(config: any, values?: any, callback?: any): any {
    if (typeof config !== 'string' || !Array.isArray(values) || values.length === 0) return super.query(config, values, callback);
    const text = config;
    const name = this.nameFor(text);
    if (typeof callback === 'function') {
      return super.query({ name, text, values }, (error: Error | null, result: unknown) => {
        if (error) this.forgetOnPlanChange(text, name, error);
        (callback as QueryCallback)(error, result);
      });
    }
    return super.query({ name, text, values }).catch((error: Error) => {
      this.forgetOnPlanChange(text, name, error);
      throw error;
    });
  }

  private nameFor(text: string): string {
    const known = this.prepared.get(text);
    if (known !== undefined) {
      this.prepared.delete(text);
      this.prepared.set(text, known);
      return known;
    }
    if (this.prepared.size >= PREPARED_STATEMENTS_PER_CONNECTION) this.evictOldest();
    const name = `lf${++this.sequence}`;
    this.prepared.set(text, name);
    return name;
  }

  private evictOldest(): void {
    const [text, name] = this.prepared.entries().next().value as [string, string];
    this.prepared.delete(text);
    const parsed = this.parsedStatements();
    if (parsed[name] === undefined) return; // never parsed (its Parse failed): nothing on the server
    delete parsed[name];
    super.query(`DEALLOCATE ${name}`).catch(() => undefined);
  }

  private forgetOnPlanChange(text: string, name: string, error: Error): void {
    if ((error as { code?: string }).code !== FEATURE_NOT_SUPPORTED) return;
    if (this.prepared.get(text) === name) this.prepared.delete(text);
    const parsed = this.parsedStatements();
    if (parsed[name] === undefined) return;
    delete parsed[name];
    super.query(`DEALLOCATE ${name}`).catch(() => undefined);
  }

  /** pg's own record of the statements parsed on this connection (name → text). */
  private parsedStatements(): Record<string, string> {
    return (this as unknown as { connection: { parsedStatements: Record<string, string> } }).connection.parsedStatements;
  }
}
