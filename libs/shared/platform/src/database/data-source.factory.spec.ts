import { dataSourceOptions } from './data-source.factory';
import { PooledClient } from './pooled-client';
import { PreparedStatementClient } from './prepared-statement.client';

/** Issue 11: the pool's connections are PreparedStatementClients unless DATABASE_PREPARED_STATEMENTS=false (PgBouncer in transaction mode). */
describe('dataSourceOptions: the pool client', () => {
  const saved = process.env.DATABASE_PREPARED_STATEMENTS;
  afterEach(() => {
    if (saved === undefined) delete process.env.DATABASE_PREPARED_STATEMENTS;
    else process.env.DATABASE_PREPARED_STATEMENTS = saved;
  });

  const extraOf = () => dataSourceOptions('postgres://postgres@127.0.0.1:5432/leadflow').extra as { Client?: unknown; max: number };

  it('uses PreparedStatementClient by default (DATABASE_PREPARED_STATEMENTS unset or true)', () => {
    delete process.env.DATABASE_PREPARED_STATEMENTS;
    expect(extraOf().Client).toBe(PreparedStatementClient);
    process.env.DATABASE_PREPARED_STATEMENTS = 'true';
    expect(extraOf().Client).toBe(PreparedStatementClient);
  });

  it("DATABASE_PREPARED_STATEMENTS=false uses PooledClient (pg's unnamed statements, a lost connection never ends the process), the pool size unchanged", () => {
    process.env.DATABASE_PREPARED_STATEMENTS = 'false';
    const extra = extraOf();
    expect(extra.Client).toBe(PooledClient);
    expect(extra.max).toBe(Number(process.env.DATABASE_POOL_SIZE ?? 10));
  });

  it('an explicit preparedStatements argument (what the pooler probe decided) wins over the environment', () => {
    delete process.env.DATABASE_PREPARED_STATEMENTS;
    const url = 'postgres://postgres@127.0.0.1:6432/leadflow';
    expect((dataSourceOptions(url, [], [], false).extra as { Client?: unknown }).Client).toBe(PooledClient);
    process.env.DATABASE_PREPARED_STATEMENTS = 'false';
    expect((dataSourceOptions(url, [], [], true).extra as { Client?: unknown }).Client).toBe(PreparedStatementClient);
  });
});
