import { randomBytes } from 'node:crypto';
import { Client, QueryResult } from 'pg';
import { DataSource, QueryFailedError } from 'typeorm';
import { dataSourceOptions } from '../src/database/data-source.factory';
import { PREPARED_STATEMENTS_PER_CONNECTION, PreparedStatementClient } from '../src/database/prepared-statement.client';
import { TransactionHost } from '../src/database/transaction-host';

/**
 * Issue 11 (hot path), PreparedStatementClient on real PostgreSQL: what a connection holds prepared is read
 * from `pg_prepared_statements` on that same connection (a query without parameters, so the probe itself
 * is never prepared). A scratch database of this file's own, created on the tier's server and dropped after.
 */
interface PreparedRow {
  name: string;
  statement: string;
}

const serverUrl = new URL(process.env.LEADFLOW_TEST_TEMPLATE_URL ?? process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
const databaseName = `leadflow_test_ps_${randomBytes(6).toString('hex')}`;
const databaseUrl = (() => {
  const url = new URL(serverUrl.toString());
  url.pathname = `/${databaseName}`;
  return url.toString();
})();

async function onAdmin(sql: string): Promise<void> {
  const url = new URL(serverUrl.toString());
  url.pathname = '/postgres';
  const admin = new Client({ connectionString: url.toString() });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}

/** The statements this connection holds prepared (simple protocol: the probe is not one of them). */
async function preparedOn(client: Client): Promise<PreparedRow[]> {
  return (await client.query<PreparedRow>('SELECT name, statement FROM pg_prepared_statements ORDER BY prepare_time, name')).rows;
}

const statementsWithText = async (client: Client, text: string) => (await preparedOn(client)).filter((row) => row.statement === text);

describe('PreparedStatementClient: parameterised statements as named prepared statements, per connection', () => {
  const clients: Client[] = [];

  /** A new connection through the client under test. */
  async function connect(): Promise<PreparedStatementClient> {
    const client = new PreparedStatementClient({ connectionString: databaseUrl });
    clients.push(client);
    await client.connect();
    return client;
  }

  beforeAll(async () => {
    await onAdmin(`CREATE DATABASE "${databaseName}"`);
    const setup = new Client({ connectionString: databaseUrl });
    await setup.connect();
    try {
      await setup.query(`CREATE TABLE ps_items (id int PRIMARY KEY, name text NOT NULL);
        INSERT INTO ps_items VALUES (1, 'one'), (2, 'two'), (3, 'three');
        CREATE TABLE ps_altered (id int PRIMARY KEY);
        INSERT INTO ps_altered VALUES (1);
        CREATE TABLE ps_altered_in_transaction (id int PRIMARY KEY);
        INSERT INTO ps_altered_in_transaction VALUES (1);`);
    } finally {
      await setup.end();
    }
  });

  afterAll(async () => {
    await Promise.all(clients.map((client) => client.end().catch(() => undefined)));
    await onAdmin(`DROP DATABASE IF EXISTS "${databaseName}" WITH (FORCE)`).catch(() => undefined);
  });

  it('a parameterised statement run twice on one connection is prepared once, and the second run answers its own rows', async () => {
    const client = await connect();
    const text = 'SELECT id, name FROM ps_items WHERE id = $1';

    expect((await client.query(text, [1])).rows).toEqual([{ id: 1, name: 'one' }]);
    expect((await client.query(text, [2])).rows).toEqual([{ id: 2, name: 'two' }]);

    const prepared = await statementsWithText(client, text);
    expect(prepared).toEqual([{ name: expect.stringMatching(/^lf\d+$/), statement: text }]);
    expect(await preparedOn(client)).toHaveLength(1);
  });

  it('a prepared statement run again reuses its row layout: rows, types, nulls and result fields equal pg\'s own client, execution after execution', async () => {
    const client = await connect();
    const plain = new Client({ connectionString: databaseUrl });
    clients.push(plain);
    await plain.connect();
    const text = `SELECT i.id, i.name, $1::int + i.id AS total, now() - interval '1 day' * i.id AS at, jsonb_build_object('n', i.id) AS doc,
        CASE WHEN i.id = 2 THEN NULL ELSE i.name END AS maybe, i.id > 1 AS big FROM ps_items i WHERE i.id <= $2 ORDER BY i.id`;

    for (const [offset, upTo] of [[10, 3], [20, 2], [30, 3], [40, 0]]) {
      const ours = await client.query(text, [offset, upTo]);
      const theirs = await plain.query({ text, values: [offset, upTo] });
      expect(ours.rows.map((row: Record<string, unknown>) => ({ ...row, at: null }))).toEqual(theirs.rows.map((row: Record<string, unknown>) => ({ ...row, at: null })));
      expect(ours.rows.every((row: { at: unknown }) => row.at instanceof Date)).toBe(true);
      expect(ours.fields.map((field: { name: string; dataTypeID: number }) => [field.name, field.dataTypeID])).toEqual(theirs.fields.map((field) => [field.name, field.dataTypeID]));
      expect(ours.rowCount).toBe(upTo);
    }
    expect(await statementsWithText(client, text)).toHaveLength(1);
  });

  it('a statement prepared longer ago than its maximum age is prepared again under a new name on its next use, and the old one deallocated', async () => {
    const client = new PreparedStatementClient({ connectionString: databaseUrl, preparedStatementMaxAgeMs: 200 });
    clients.push(client);
    await client.connect();
    const text = 'SELECT name FROM ps_items WHERE id = $1';

    await client.query(text, [1]);
    const [first] = await statementsWithText(client, text);
    expect((await client.query(text, [2])).rows).toEqual([{ name: 'two' }]);
    expect(await statementsWithText(client, text)).toEqual([first]); // young: the same prepared statement

    await new Promise((resolve) => setTimeout(resolve, 250));
    expect((await client.query(text, [3])).rows).toEqual([{ name: 'three' }]);
    await client.query('SELECT name FROM ps_items WHERE id = $1 AND name IS NOT NULL', [1]); // the next statement deallocates the old name
    const again = await statementsWithText(client, text);
    expect(again).toEqual([{ name: expect.stringMatching(/^lf\d+$/), statement: text }]);
    expect(again[0]?.name).not.toBe(first?.name);
  });

  it("a retired statement is closed with the protocol's Close message in the round trip of the next prepared execution, never SQL DEALLOCATE, even in an aborted transaction", async () => {
    const client = new PreparedStatementClient({ connectionString: databaseUrl, preparedStatementMaxAgeMs: 100 });
    clients.push(client);
    await client.connect();
    const connection = (client as unknown as { connection: { close(message: { type: string; name: string }): void; query(text: string): void } }).connection;
    const closed: string[] = [];
    const simple: string[] = [];
    const close = connection.close.bind(connection);
    const query = connection.query.bind(connection);
    connection.close = (message) => {
      closed.push(`${message.type}:${message.name}`);
      close(message);
    };
    connection.query = (text) => {
      simple.push(text);
      query(text);
    };
    const text = 'SELECT name FROM ps_items WHERE id = $1';
    await client.query(text, [1]);
    const [first] = await statementsWithText(client, text);

    await new Promise((resolve) => setTimeout(resolve, 150));
    await client.query('BEGIN');
    await expect(client.query('SELECT 1 / 0')).rejects.toMatchObject({ code: '22012' });
    // Aged: prepared again under a new name, refused in the aborted transaction; the old name is closed all the same.
    await expect(client.query(text, [2])).rejects.toMatchObject({ code: '25P02' });
    await client.query('ROLLBACK');
    expect(closed).toEqual([`S:${first?.name}`]);
    expect(await statementsWithText(client, text)).toEqual([]);

    expect((await client.query(text, [3])).rows).toEqual([{ name: 'three' }]);
    expect(await statementsWithText(client, text)).toEqual([{ name: expect.stringMatching(/^lf\d+$/), statement: text }]);
    expect(simple.filter((sent) => /DEALLOCATE/i.test(sent))).toEqual([]);
  });

  it('a statement without parameters (none, or an empty list) keeps the simple protocol: nothing prepared', async () => {
    const client = await connect();

    expect((await client.query('SELECT id FROM ps_items ORDER BY id')).rows).toEqual([{ id: 1 }, { id: 2 }, { id: 3 }]);
    expect((await client.query('SELECT name FROM ps_items WHERE id = 3', [])).rows).toEqual([{ name: 'three' }]);
    expect((await client.query({ text: 'SELECT count(*)::int AS n FROM ps_items' })).rows).toEqual([{ n: 3 }]);

    expect(await preparedOn(client)).toEqual([]);
  });

  it(`beyond PREPARED_STATEMENTS_PER_CONNECTION (${PREPARED_STATEMENTS_PER_CONNECTION}) distinct texts the least recently used is deallocated, and runs again when asked`, async () => {
    const client = await connect();
    const text = (i: number) => `SELECT $1::int + ${i} AS n`;
    for (let i = 0; i < PREPARED_STATEMENTS_PER_CONNECTION; i++) await client.query(text(i), [1]);
    expect(await preparedOn(client)).toHaveLength(PREPARED_STATEMENTS_PER_CONNECTION);

    // Text 0 used again: text 1 is now the least recently used.
    expect((await client.query(text(0), [5])).rows).toEqual([{ n: 5 }]);
    expect((await client.query(text(PREPARED_STATEMENTS_PER_CONNECTION), [1])).rows).toEqual([{ n: 1 + PREPARED_STATEMENTS_PER_CONNECTION }]);

    let statements = (await preparedOn(client)).map((row) => row.statement);
    expect(statements).toHaveLength(PREPARED_STATEMENTS_PER_CONNECTION);
    expect(statements).not.toContain(text(1));
    expect(statements).toContain(text(0));
    expect(statements).toContain(text(PREPARED_STATEMENTS_PER_CONNECTION));

    // The evicted text still runs (prepared again, under a new name), evicting the next oldest (text 2).
    expect((await client.query(text(1), [41])).rows).toEqual([{ n: 42 }]);
    statements = (await preparedOn(client)).map((row) => row.statement);
    expect(statements).toHaveLength(PREPARED_STATEMENTS_PER_CONNECTION);
    expect(statements).toContain(text(1));
    expect(statements).not.toContain(text(2));
    expect(new Set(statements).size).toBe(PREPARED_STATEMENTS_PER_CONNECTION);
  });

  it('after ALTER TABLE … ADD COLUMN the prepared SELECT * fails once with SQLSTATE 0A000 (passed on), then is prepared again and succeeds', async () => {
    const client = await connect();
    const text = 'SELECT * FROM ps_altered WHERE id = $1';
    expect((await client.query(text, [1])).rows).toEqual([{ id: 1 }]);
    const [before] = await statementsWithText(client, text);

    await client.query(`ALTER TABLE ps_altered ADD COLUMN label text NOT NULL DEFAULT 'new'`);

    await expect(client.query(text, [1])).rejects.toMatchObject({ code: '0A000', message: 'cached plan must not change result type' });
    expect((await client.query(text, [1])).rows).toEqual([{ id: 1, label: 'new' }]);
    const after = await statementsWithText(client, text);
    expect(after).toEqual([{ name: expect.stringMatching(/^lf\d+$/), statement: text }]);
    expect(after[0].name).not.toBe(before.name);
  });

  it('the 0A000 failure inside a transaction aborts only that transaction: after ROLLBACK the statement is prepared again and succeeds, and the refused one is deallocated (no leak)', async () => {
    const client = await connect();
    const text = 'SELECT * FROM ps_altered_in_transaction WHERE id = $1';
    expect((await client.query(text, [1])).rows).toEqual([{ id: 1 }]);
    await client.query(`ALTER TABLE ps_altered_in_transaction ADD COLUMN label text NOT NULL DEFAULT 'new'`);

    await client.query('BEGIN');
    await expect(client.query(text, [1])).rejects.toMatchObject({ code: '0A000' });
    await client.query('ROLLBACK');

    expect((await client.query(text, [1])).rows).toEqual([{ id: 1, label: 'new' }]);
    expect((await client.query(text, [2])).rows).toEqual([]);
    expect(await statementsWithText(client, text)).toHaveLength(1);
  });

  it('the callback form client.query(text, values, callback) keeps pg\'s own behaviour (not prepared) and passes errors to the callback', async () => {
    const client = await connect();
    const text = 'SELECT name FROM ps_items WHERE id = $1';
    const run = (values: unknown[]) =>
      new Promise<{ error: Error | null; result?: QueryResult }>((resolve) => {
        const returned = client.query(text, values, (error: Error | null, result?: QueryResult) => resolve({ error, result }));
        expect(returned).toBeUndefined();
      });

    const first = await run([1]);
    const second = await run([3]);
    expect(first.error).toBeNull();
    expect(first.result?.rows).toEqual([{ name: 'one' }]);
    expect(second.result?.rows).toEqual([{ name: 'three' }]);
    expect(await statementsWithText(client, text)).toHaveLength(0);

    const failed = await run(['not-a-number']);
    expect(failed.error).toMatchObject({ code: '22P02' });
    expect((await run([2])).result?.rows).toEqual([{ name: 'two' }]);
  });

  it("a DataSource from dataSourceOptions prepares TypeORM's parameterised queries on its pooled connections", async () => {
    const dataSource = new DataSource(dataSourceOptions(databaseUrl));
    await dataSource.initialize();
    const runner = dataSource.createQueryRunner();
    try {
      await runner.connect();
      const text = 'SELECT name FROM ps_items WHERE id = $1';
      expect(await runner.query(text, [2])).toEqual([{ name: 'two' }]);
      expect(await runner.query(text, [3])).toEqual([{ name: 'three' }]);
      const prepared = (await runner.query('SELECT name, statement FROM pg_prepared_statements')) as PreparedRow[];
      expect(prepared.filter((row) => row.statement === text)).toEqual([{ name: expect.stringMatching(/^lf\d+$/), statement: text }]);
    } finally {
      await runner.release();
      await dataSource.destroy();
    }
  });

  describe('TransactionHost.query: one statement on the pool outside a transaction, on the transaction inside run()', () => {
    let dataSource: DataSource;
    let transactions: TransactionHost;

    beforeAll(async () => {
      dataSource = new DataSource(dataSourceOptions(databaseUrl));
      await dataSource.initialize();
      await dataSource.query('CREATE TABLE IF NOT EXISTS th_items (id int PRIMARY KEY, name text NOT NULL)');
      transactions = new TransactionHost(dataSource);
    });

    afterAll(async () => {
      await dataSource.destroy();
    });

    it('outside run() it answers the rows of a parameterised statement, prepared on a pooled connection that goes back to the pool', async () => {
      await dataSource.query("INSERT INTO th_items VALUES (1, 'one') ON CONFLICT DO NOTHING");
      const pool = (dataSource.driver as unknown as { master: { totalCount: number; idleCount: number } }).master;

      expect(await transactions.query('SELECT id, name FROM th_items WHERE id = $1', [1])).toEqual([{ id: 1, name: 'one' }]);
      expect(await transactions.query('SELECT id, name FROM th_items WHERE id = $1', [99])).toEqual([]);
      expect(pool.idleCount).toBe(pool.totalCount); // every connection given back
      const prepared = await transactions.query<PreparedRow>('SELECT name, statement FROM pg_prepared_statements WHERE statement LIKE $1', ['SELECT id, name FROM th_items%']);
      expect(prepared.length).toBeGreaterThanOrEqual(1);
    });

    it('inside run() it sees the transaction\'s own uncommitted write, which a rollback then removes', async () => {
      await expect(
        transactions.run(async (manager) => {
          await manager.query("INSERT INTO th_items VALUES (2, 'two')");
          expect(await transactions.query('SELECT name FROM th_items WHERE id = $1', [2])).toEqual([{ name: 'two' }]);
          throw new Error('roll back');
        }),
      ).rejects.toThrow('roll back');
      expect(await transactions.query('SELECT name FROM th_items WHERE id = $1', [2])).toEqual([]);
    });

    it('a failing statement throws QueryFailedError carrying PostgreSQL\'s code, and its connection goes back to the pool', async () => {
      const pool = (dataSource.driver as unknown as { master: { totalCount: number; idleCount: number } }).master;
      const failure = await transactions.query('SELECT id FROM th_items WHERE id = $1', ['not-a-number']).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(QueryFailedError);
      expect(failure).toMatchObject({ driverError: { code: '22P02' }, query: 'SELECT id FROM th_items WHERE id = $1', parameters: ['not-a-number'] });
      expect(pool.idleCount).toBe(pool.totalCount);
      expect(await transactions.query('SELECT name FROM th_items WHERE id = $1', [1])).toEqual([{ name: 'one' }]);
    });
  });
});
