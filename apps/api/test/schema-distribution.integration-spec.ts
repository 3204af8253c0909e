import { Client } from 'pg';
import { createTestServices, TestServices } from '@leadflow/shared-testing';
import { distributionViolations, NOT_DISTRIBUTED, referenceTables } from './support/schema-distribution';

/**
 * docs/adr/0008: on a database migrated to the last version, every primary, unique and foreign key of a
 * table with `account_id` leads with it, and every other table is a named reference table (or one of the
 * two exceptions, with their reasons). The check itself is proven to catch each kind of slip.
 */
describe('schema distributable by account', () => {
  let services: TestServices;
  let client: Client;

  beforeAll(async () => {
    services = await createTestServices();
    client = new Client({ connectionString: services.databaseUrl });
    await client.connect();
  });

  afterAll(async () => {
    await client?.end();
    await services?.dispose();
  });

  it('has no key that does not lead with account_id and no unnamed global table', async () => {
    expect(await distributionViolations(client)).toEqual([]);
  });

  it('names its reference tables with a reason, and its two exceptions', async () => {
    const references = await referenceTables(client);
    expect(Object.keys(references)).toEqual(['accounts.api_key_prefixes', 'platform.outbox_reconciliation', 'platform.workers']);
    for (const reason of Object.values(references)) expect(reason.length).toBeGreaterThan(20);
    expect(Object.keys(NOT_DISTRIBUTED).sort()).toEqual(['accounts.accounts', 'public.migrations']);
  });

  it('catches a key, a unique index, a foreign key and a table that break the rule', async () => {
    await client.query('BEGIN');
    try {
      await client.query(`CREATE TABLE platform.bad_parent (id uuid PRIMARY KEY, account_id uuid NOT NULL, code text, UNIQUE (account_id, id))`);
      await client.query(`CREATE UNIQUE INDEX bad_parent_code_idx ON platform.bad_parent (code)`);
      await client.query(`CREATE TABLE platform.bad_child (account_id uuid NOT NULL, id uuid, parent_id uuid REFERENCES platform.bad_parent (id), PRIMARY KEY (account_id, id))`);
      await client.query(`CREATE TABLE platform.bad_global (id int PRIMARY KEY)`);
      await client.query(`CREATE TABLE platform.bad_reference (id int PRIMARY KEY)`);
      await client.query(`COMMENT ON TABLE platform.bad_reference IS 'a lookup'`);
      const problems = (await distributionViolations(client)).map((violation) => `${violation.table}: ${violation.problem.split(':')[0]}`);
      expect(problems).toEqual([
        'platform.bad_child: foreign key bad_child_parent_id_fkey does not lead with account_id',
        'platform.bad_child: foreign key bad_child_parent_id_fkey references platform.bad_parent without leading with account_id',
        'platform.bad_global: has no account_id and is not a named reference table (COMMENT ON TABLE … IS \'reference table',
        'platform.bad_parent: primary key bad_parent_pkey does not lead with account_id',
        'platform.bad_parent: unique index platform.bad_parent_code_idx does not lead with account_id',
        'platform.bad_reference: has no account_id and is not a named reference table (COMMENT ON TABLE … IS \'reference table',
      ]);
    } finally {
      await client.query('ROLLBACK');
    }
  });
});
