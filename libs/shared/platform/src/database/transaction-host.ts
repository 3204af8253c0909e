import { AsyncLocalStorage } from 'node:async_hooks';
import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Pool } from 'pg';
import { DataSource, EntityManager, QueryFailedError } from 'typeorm';
import { UnitOfWork } from '@leadflow/shared-kernel';
import { onPrimary, READ_CONTEXT } from './read-replicas/read-context';

interface OpenTransaction {
  manager: EntityManager;
  /** Run once the outermost transaction has committed (never after a rollback). */
  afterCommit: (() => unknown)[];
}

/**
 * Unit of work for every write: `run(fn)` opens one PostgreSQL transaction and every repository,
 * the outbox writer and the activity log reach it through `manager` while `fn` runs, so a business
 * change, its activity entries and its outbox rows commit or roll back together. Nested `run` calls
 * join the outer transaction. Outside `run`, `manager` is the pool's manager (autocommit reads), whose
 * connections may come from a read replica in a read-only request (ReadReplicaRouter); `run` is always on
 * the primary.
 *
 * The context travels in an `AsyncLocalStorage`, which on Node 20 runs a hook on every promise the
 * process creates while it is enabled (about a tenth of the CPU of a cheap request such as `GET /v1/me`).
 * So the storage is disabled whenever no transaction is open, and a request that writes nothing never
 * pays for it (issue 11).
 *
 * It is the platform's binding of the kernel's {@link UnitOfWork} port (PlatformModule provides
 * `UnitOfWork` as this instance), so handlers in core depend on the port only.
 */
@Injectable()
export class TransactionHost extends UnitOfWork {
  private readonly logger = new Logger('TransactionHost');
  private readonly storage = new AsyncLocalStorage<OpenTransaction>();
  /** Outermost transactions in progress in this process. */
  private open = 0;

  constructor(@InjectDataSource() readonly dataSource: DataSource) {
    super();
  }

  get manager(): EntityManager {
    return this.storage.getStore()?.manager ?? this.dataSource.manager;
  }

  /**
   * One parameterised statement (`$1`, `$2`, … placeholders) and its rows as objects, for statements that
   * return rows (`SELECT`, or a write with `RETURNING`). Inside {@link run} it goes through the open
   * transaction's manager, so it sees that transaction's writes. Outside, it takes a connection of the same
   * DataSource's pool for this one statement and gives it back, without TypeORM's per-call QueryRunner,
   * events and awaits (issue 11: the hot reads, `GET /v1/contacts/{id}` and the list, in one pooled round
   * trip like a bare `pg` server). The statement is still prepared per connection (PreparedStatementClient).
   * Errors: PostgreSQL's error wrapped in TypeORM's `QueryFailedError`, as `manager.query` throws it.
   */
  async query<T = Record<string, unknown>>(text: string, parameters: readonly unknown[] = []): Promise<T[]> {
    const open = this.storage.getStore();
    if (open) return (await open.manager.query(text, parameters as unknown[])) as T[];
    const client = await (this.dataSource.driver as unknown as { master: Pool }).master.connect();
    try {
      return (await client.query(text, parameters as unknown[])).rows as T[];
    } catch (error) {
      throw new QueryFailedError(text, parameters as unknown[], error as Error);
    } finally {
      client.release();
    }
  }

  get inTransaction(): boolean {
    return this.storage.getStore() !== undefined;
  }

  async run<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    const current = this.storage.getStore();
    if (current) return work(current.manager);
    // With DATABASE_READ_URLS set, in a request: the unit of work, its reads included, on the primary, and the
    // request's writer then has its LSN recorded for read-your-writes (docs/adr/0007).
    const reading = READ_CONTEXT.getStore();
    if (reading) return onPrimary(reading, () => this.run(work));
    const afterCommit: (() => unknown)[] = [];
    this.open += 1;
    let result: T;
    try {
      result = await this.dataSource.transaction((manager) => this.storage.run({ manager, afterCommit }, () => work(manager)));
    } finally {
      this.open -= 1;
      if (this.open === 0) this.storage.disable(); // `run` enables it again
    }
    for (const callback of afterCommit) await this.runCallback(callback);
    return result;
  }

  /**
   * Runs `callback` once the current transaction has committed (at once outside a transaction); it is
   * dropped if the transaction rolls back. Used for side effects that must not see uncommitted state,
   * such as cache invalidations. A failing callback is logged, never thrown into the committed write.
   */
  async afterCommit(callback: () => unknown): Promise<void> {
    const current = this.storage.getStore();
    if (current) current.afterCommit.push(callback);
    else await this.runCallback(callback);
  }

  private async runCallback(callback: () => unknown): Promise<void> {
    try {
      await callback();
    } catch (error) {
      this.logger.warn({ err: error }, 'After-commit callback failed');
    }
  }
}
