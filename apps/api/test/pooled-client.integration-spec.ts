import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '@leadflow/shared-platform';
import { createTestServices, TestServices } from '@leadflow/shared-testing';

/**
 * A pooled connection lost while checked out (PostgreSQL restarted, PgBouncer stopped, a backend
 * terminated) must not end the process: pg emits `error` on the client, and pg-pool listens only on idle
 * ones. The statement in flight rejects, the pool drops the connection, and the next statement works.
 */
describe.each([
  ['prepared statements', true],
  ['unnamed statements (through a pooler)', false],
])('a pooled connection lost while checked out, %s', (_label, prepared) => {
  let services: TestServices;
  let dataSource: DataSource;
  const uncaught: unknown[] = [];
  const onUncaught = (error: unknown) => uncaught.push(error);

  beforeAll(async () => {
    services = await createTestServices();
    dataSource = new DataSource(dataSourceOptions(services.databaseUrl, [], [], prepared));
    await dataSource.initialize();
    process.prependListener('uncaughtException', onUncaught);
  });
  afterAll(async () => {
    process.removeListener('uncaughtException', onUncaught);
    await dataSource.destroy();
    await services.dispose();
  });

  it('never ends the process: the error stays on the connection, the pool drops it, the next statement works', async () => {
    const pool = (dataSource.driver as unknown as { master: { connect(): Promise<Client & { release(): void }> } }).master;
    const client = await pool.connect();
    const [{ pid }] = (await client.query('SELECT pg_backend_pid() AS pid')).rows as { pid: number }[];
    const ended = new Promise<void>((resolve) => client.once('end', () => resolve()));

    const admin = new Client({ connectionString: services.databaseUrl });
    await admin.connect();
    await admin.query('SELECT pg_terminate_backend($1)', [pid]);
    await admin.end();

    await ended;
    await expect(client.query('SELECT 1 AS one', [])).rejects.toThrow();
    client.release();
    expect(uncaught).toEqual([]);
    expect(await dataSource.query('SELECT $1::int AS one', [1])).toEqual([{ one: 1 }]);
  });
});
