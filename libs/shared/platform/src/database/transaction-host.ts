import { AsyncLocalStorage } from 'node:async_hooks';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';

/**
 * Unit of work for every write: `run(fn)` opens one PostgreSQL transaction and every repository,
 * the outbox writer and the activity log reach it through `manager` while `fn` runs, so a business
 * change, its activity entries and its outbox rows commit or roll back together. Nested `run` calls
 * join the outer transaction. Outside `run`, `manager` is the pool's manager (autocommit reads).
 */
@Injectable()
export class TransactionHost {
  private readonly storage = new AsyncLocalStorage<EntityManager>();

  constructor(@InjectDataSource() readonly dataSource: DataSource) {}

  get manager(): EntityManager {
    return this.storage.getStore() ?? this.dataSource.manager;
  }

  get inTransaction(): boolean {
    return this.storage.getStore() !== undefined;
  }

  async run<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    const current = this.storage.getStore();
    if (current) return work(current);
    return this.dataSource.transaction((manager) => this.storage.run(manager, () => work(manager)));
  }
}
