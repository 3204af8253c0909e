import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { CommandBus } from '@nestjs/cqrs';
import { PostgresQueryRunner } from 'typeorm/driver/postgres/PostgresQueryRunner';
import { DefineCustomFieldsCommand } from '@leadflow/contacts-contracts';
import { ProvisionPipelinesCommand } from '@leadflow/pipeline-contracts';
import { asAccountId, FixedClock } from '@leadflow/shared-kernel';
import { TransactionHost } from '@leadflow/shared-platform';
import { createApiApp } from '../src/bootstrap';
import { db } from './support/contacts-fixtures';
import { captureLead, freshPhone, leadsBlueprint } from './support/lead-capture-fixtures';
import { ProvisionedAccount, TestApi, TestResponse } from './support/test-api';

/**
 * Issue 11, item 3: lead capture reads the account's settings (Systems, pipelines and stages, team
 * members, custom-field definitions, tags) through a per-account in-process cache, invalidated after
 * commit by every write of them in any process; and a capture writes in one transaction with no
 * statement per row. "Second api process": a second api application with its own DI container, cache
 * and Redis connections, on the same database and Redis prefix.
 */
describe('lead capture settings cache (issue 11 › Lead capture in as few SQL statements as the rules allow)', () => {
  const clock = new FixedClock(new Date('2026-05-14T13:00:00.000Z'));
  let api: TestApi;
  let second: NestFastifyApplication;

  beforeAll(async () => {
    api = await TestApi.start({}, clock);
    second = await createApiApp(api.services.config(), clock);
  });
  afterAll(async () => {
    await second.close();
    await api.close();
  });

  const provision = () => api.provision(leadsBlueprint());
  const capture = (account: ProvisionedAccount, body: Record<string, unknown>): Promise<TestResponse> => captureLead(api, account.api_keys.capture.key, body);
  const lead = (extra: Record<string, unknown> = {}) => ({ phone: freshPhone().raw, sms_consent: true, ...extra });

  /** The statements PostgreSQL receives while `work` runs (transaction control included). */
  async function statementsOf(work: () => Promise<unknown>): Promise<string[]> {
    const spy = jest.spyOn(PostgresQueryRunner.prototype, 'query');
    try {
      await work();
      return spy.mock.calls.map(([sql]) => String(sql).replace(/\s+/g, ' ').trim());
    } finally {
      spy.mockRestore();
    }
  }

  /** A write's invalidation also comes back to the writing process over Redis a few milliseconds later: let it arrive. */
  const settle = () => new Promise((resolve) => setTimeout(resolve, 200));

  /** Runs `probe` every 25 ms until `done` holds; the elapsed milliseconds, or null after `withinMs`. */
  async function msUntil<T>(probe: () => Promise<T>, done: (value: T) => boolean, withinMs: number): Promise<number | null> {
    const started = Date.now();
    while (Date.now() - started <= withinMs) {
      if (done(await probe())) return Date.now() - started;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    return null;
  }

  it('a pipeline and its stages provisioned by a second api process are used by the next capture within 1 s (settings cache warm)', async () => {
    const account = await provision();
    const wanted = { pipeline: { pipeline_slug: 'suivi', stage_slug: 'relance' } };
    await settle();
    expect((await capture(account, lead(wanted))).body).toMatchObject({ code: 'pipeline_not_found' });
    let refused: TestResponse | null = null;
    const statements = await statementsOf(async () => (refused = await capture(account, lead(wanted))));
    expect(refused!.status).toBe(422);
    expect(refused!.body).toMatchObject({ code: 'pipeline_not_found' });
    expect(statements.filter((sql) => /pipeline\.|accounts\.systems/.test(sql))).toEqual([]); // answered from the warm cache

    const provisioned = await second.get(TransactionHost).run(() =>
      second.get(CommandBus).execute(
        new ProvisionPipelinesCommand(asAccountId(account.account_id), [
          { name: 'Suivi', slug: 'suivi', isDefault: false, stages: [{ name: 'À relancer', slug: 'relance', isDefault: true }] },
        ]),
      ),
    );
    let placed: TestResponse | null = null;
    const elapsed = await msUntil(
      async () => (placed = await capture(account, lead(wanted))),
      (response) => response.status === 200,
      1000,
    );
    expect(elapsed).not.toBeNull();
    expect(placed!.body.pipeline).toMatchObject({ pipeline_slug: 'suivi', stage_slug: 'relance', stage_name: 'À relancer', stage_id: provisioned.suivi.stages.relance });
    const [row] = await db(api).query(`SELECT stage_id FROM contacts.contacts WHERE account_id = $1 AND id = $2`, [account.account_id, placed!.body.contact_id]);
    expect(row.stage_id).toBe(provisioned.suivi.stages.relance);
  });

  it('a pipeline provisioned in this process is used by the next capture at once', async () => {
    const account = await provision();
    const wanted = { pipeline: { pipeline_slug: 'garantie', stage_slug: 'ouverte' } };
    expect((await capture(account, lead(wanted))).status).toBe(422);
    await api.app.get(TransactionHost).run(() =>
      api.app.get(CommandBus).execute(
        new ProvisionPipelinesCommand(asAccountId(account.account_id), [{ name: 'Garantie', slug: 'garantie', stages: [{ name: 'Ouverte', slug: 'ouverte' }] }]),
      ),
    );
    const placed = await capture(account, lead(wanted));
    expect(placed.status).toBe(200);
    expect(placed.body.pipeline).toMatchObject({ pipeline_slug: 'garantie', stage_slug: 'ouverte' });
  });

  it('a custom field defined after a capture is resolved by the next capture at once (no stale definitions)', async () => {
    const account = await provision();
    const first = await capture(account, lead({ custom_fields: { couleur: 'bleu' } }));
    expect(first.status).toBe(200);
    expect(first.body.ignored_fields).toEqual([{ field: 'custom_fields.couleur', reason: 'custom_field_not_defined' }]);

    const ids = await api.app.get(TransactionHost).run(() =>
      api.app.get(CommandBus).execute(new DefineCustomFieldsCommand(asAccountId(account.account_id), [{ name: 'couleur', type: 'text' }])),
    );
    const next = await capture(account, lead({ custom_fields: { couleur: 'bleu' } }));
    expect(next.status).toBe(200);
    expect(next.body.ignored_fields).toEqual([]);
    const [row] = await db(api).query(`SELECT custom_fields FROM contacts.contacts WHERE account_id = $1 AND id = $2`, [account.account_id, next.body.contact_id]);
    expect(row.custom_fields).toEqual({ [ids.couleur]: 'bleu' });
  });

  it('a custom field defined by a second api process is resolved by the next capture within 1 s', async () => {
    const account = await provision();
    expect((await capture(account, lead({ custom_fields: { etage: '2' } }))).body.ignored_fields).toEqual([
      { field: 'custom_fields.etage', reason: 'custom_field_not_defined' },
    ]);
    await second.get(TransactionHost).run(() =>
      second.get(CommandBus).execute(new DefineCustomFieldsCommand(asAccountId(account.account_id), [{ name: 'etage', type: 'text' }])),
    );
    const elapsed = await msUntil(
      () => capture(account, lead({ custom_fields: { etage: '2' } })),
      (response) => response.status === 200 && response.body.ignored_fields.length === 0,
      1000,
    );
    expect(elapsed).not.toBeNull();
  });

  describe('SQL statements of one capture (warm settings)', () => {
    const run = async (account: ProvisionedAccount, body: Record<string, unknown>) => {
      const response = await capture(account, body);
      if (response.status !== 200) throw new Error(`capture: ${response.status} ${JSON.stringify(response.body)}`);
      return response;
    };
    /** Reads of the account's settings (what the cache holds). */
    const SETTINGS = /accounts\.systems|accounts\.team_members|pipeline\.|contacts\.custom_field_definitions|FROM contacts\.tags/;

    /** The statements of lead capture itself (the request path around it, e.g. usage bookkeeping, is not lead capture's). */
    const captureStatementsOf = (statements: string[]) =>
      statements.filter((sql) => /^(START TRANSACTION|COMMIT|ROLLBACK)$|contacts\.|platform\.(outbox|activity_log)/.test(sql));

    it('a new person is captured in ONE statement and no transaction: the identity check, then the insert of contact, identities, tags, capture, activity entry and outbox rows only if no identity is stored', async () => {
      const account = await provision();
      const body = (email: string) => ({
        ...lead({ email, first_name: 'Élise', tags: ['Facebook Ads', 'Cuisine'], custom_fields: { budget: '25k' } }),
        pipeline: { pipeline_slug: 'renovation', stage_slug: 'visite', assigned_sales_rep_email: 'julie@tremblay.test' },
        system_id: account.systems.Main,
      });
      await settle();
      await run(account, body('warm-1@example.com')); // loads the settings, creates the tags (which invalidates them)
      await settle();
      await run(account, body('warm-2@example.com')); // loads them again
      const all = await statementsOf(() => run(account, body('warm-3@example.com')));
      expect(all.filter((sql) => SETTINGS.test(sql))).toEqual([]);
      const statements = captureStatementsOf(all);
      expect(statements).toHaveLength(1);
      expect(statements[0]).toMatch(
        /^WITH RECURSIVE chain AS .* new_person AS MATERIALIZED .* new_contact AS \( INSERT INTO contacts\.contacts .* new_identities AS .* new_tags AS .* journal_entries AS \(INSERT INTO platform\.activity_log .* journal_events AS \(INSERT INTO platform\.outbox .* capture AS \( INSERT INTO contacts\.lead_captures/,
      );
      const [row] = await db(api).query(
        `SELECT (SELECT count(*)::int FROM contacts.contact_tags t WHERE t.account_id = c.account_id AND t.contact_id = c.id) AS tags,
                (SELECT count(*)::int FROM contacts.contact_identities i WHERE i.account_id = c.account_id AND i.contact_id = c.id) AS identities,
                (SELECT count(*)::int FROM platform.outbox o WHERE o.account_id = c.account_id AND o.payload->>'contact_id' = c.id::text) AS events
           FROM contacts.contacts c WHERE c.account_id = $1 AND c.email = 'warm-3@example.com'`,
        [account.account_id],
      );
      expect(row).toEqual({ tags: 2, identities: 2, events: 3 });
    });

    it('a replay is answered in 5 statements: the new-person statement (which writes nothing and answers who holds the identities), then a transaction locking the contact and reading its last capture', async () => {
      const account = await provision();
      const body = lead({ email: 'replay@example.com' });
      await settle();
      await run(account, body);
      const all = await statementsOf(() => run(account, body));
      expect(all.filter((sql) => SETTINGS.test(sql))).toEqual([]);
      const statements = captureStatementsOf(all);
      expect(statements.map((sql) => sql.slice(0, 40))).toEqual([
        expect.stringMatching(/^WITH RECURSIVE chain AS/),
        'START TRANSACTION',
        expect.stringMatching(/^SELECT c\.id, c\.account_id/),
        expect.stringMatching(/^SELECT id, contact_id, activity_id/),
        'COMMIT',
      ]);
      expect(statements[0]).toMatch(/new_person AS MATERIALIZED .* capture AS \( INSERT INTO contacts\.lead_captures/);
      expect(statements[2]).toMatch(/FOR UPDATE$/);
      const [row] = await db(api).query(
        `SELECT (SELECT count(*)::int FROM contacts.contacts WHERE account_id = $1 AND email = 'replay@example.com') AS contacts,
                (SELECT count(*)::int FROM contacts.lead_captures WHERE account_id = $1) AS captures`,
        [account.account_id],
      );
      expect(row).toEqual({ contacts: 1, captures: 1 });
    });
  });
});
