import type { INestApplicationContext } from '@nestjs/common';
import { SmtpSink, TEST_ADMIN_TOKEN } from '@leadflow/shared-testing';
// The real worker app, booted beside the api on the same test services, as in emails-delivery.e2e-spec.ts.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { createWorker } from '../../worker/src/bootstrap';
import { createContact, expectStatus } from './support/contacts-fixtures';
import { captureLead, freshAddress, freshPhone } from './support/lead-capture-fixtures';
import { sendEmail } from './support/messaging-fixtures';
import { sqlOf } from './support/sql';
import { ProvisionedAccount, TestApi } from './support/test-api';
import { generateCertificate, HttpsReceiver, TestCertificate } from './support/webhooks-fixtures';

/* eslint-disable @typescript-eslint/no-explicit-any -- bodies and rows are asserted field by field */

async function waitFor<T>(read: () => Promise<T> | T, done: (value: T) => boolean, what: string, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; last value ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const MEMBER = 'julie@tremblay.test';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A live account with every kind of configuration the sandbox copies (operator-api's example blueprint, trimmed). */
function liveBlueprint(name: string): Record<string, unknown> {
  return {
    name,
    timezone: 'America/Montreal',
    api_terms_accepted: true,
    quote_defaults: { validity_days: 45, payment_terms: 'Payable à la signature' },
    systems: [{ name: 'Main', is_main: true }, { name: 'Laval', is_active: false }],
    team_members: [{ email: MEMBER, first_name: 'Julie', last_name: 'Roy', is_active: true, is_sales_rep: true, can_delete_prospects: true }],
    senders: [{ email: 'bonjour@tremblay.test', name: 'Rénovations Tremblay', is_default: true }, { email: 'soumissions@tremblay.test', name: 'Soumissions' }],
    api_keys: [
      { name: 'full', preset: 'full_integration', per_hour: 100000 },
      { name: 'capture', preset: 'lead_capture', per_hour: 100000 },
    ],
    pipelines: [
      {
        name: 'Ventes', slug: 'ventes', is_default: true,
        stages: [{ name: 'Nouveau', slug: 'nouveau', is_default: true }, { name: 'Gagné', slug: 'gagne', is_won: true }, { name: 'Perdu', slug: 'perdu', is_lost: true }],
      },
      { name: 'Rénovations', slug: 'renos', stages: [{ name: 'Visite', slug: 'visite' }, { name: 'Devis', slug: 'devis', is_default: true }] },
    ],
    custom_fields: [
      { name: 'budget', type: 'text' },
      { name: 'type_projet', type: 'select', options: ['cuisine', 'salle_de_bain'] },
    ],
    calendars: [
      {
        name: 'Consultation', duration_minutes: 60, slot_interval_minutes: 30, min_notice_minutes: 120, max_days_ahead: 60, daily_max: 4, capacity: 1,
        timezone: 'America/Montreal', hosts: [MEMBER], availability: [{ weekday: 1, start: '09:00', end: '17:00' }],
        questions: [{ id: 'adresse', label: 'Adresse des travaux', type: 'text', required: true }], requires_qualified_lead: false, is_active: true,
      },
    ],
    automations: [
      {
        name: 'Gagné', is_active: true, is_published: true,
        trigger: { type: 'stage_changed', pipeline_slug: 'renos', stage_slug: 'devis' },
        steps: [{ type: 'add_tag', tag: 'devis' }, { type: 'move_to_stage', pipeline_slug: 'ventes', stage_slug: 'gagne' }],
      },
      { name: 'Bienvenue', is_active: true, is_published: true, trigger: { type: 'custom_event', event: 'inscription' }, steps: [{ type: 'wait', seconds: 60 }] },
    ],
    events: [
      {
        slug: 'salon-2027', name: 'Salon Habitat 2027', status: 'published', languages: ['fr', 'en'],
        editions: [{ name: 'Montréal', starts_at: '2027-03-10T14:00:00.000Z', ends_at: '2027-03-12T22:00:00.000Z', status: 'open' }],
      },
    ],
  };
}

/**
 * Test mode (issue 15, item 4): sandbox accounts created and reset by the operator API, `lf_test_` keys,
 * `GET /v1/me` mode, and the sandbox's side effects (emails recorded and never sent, no SMS hand-off,
 * webhook payloads with `livemode: false`), with the real worker, a real SMTP server and a real HTTPS receiver.
 */
describe('Test mode: sandbox accounts (issue 15, item 4)', () => {
  let api: TestApi;
  let worker: INestApplicationContext;
  let sink: SmtpSink;
  let certificate: TestCertificate;
  let receiver: HttpsReceiver;
  let sql: ReturnType<typeof sqlOf>;
  let live: ProvisionedAccount;
  let sandbox: Record<string, any>;
  let liveContact: Record<string, any>;

  const sandboxKey = () => sandbox.api_keys.full.key as string;
  const configOf = async (accountId: string) => ({
    account: await sql.query(`SELECT name, timezone, features, api_terms_accepted, quote_defaults FROM accounts.accounts WHERE id = $1`, [accountId]),
    systems: await sql.query(`SELECT name, is_main, is_active FROM accounts.systems WHERE account_id = $1 ORDER BY name`, [accountId]),
    members: await sql.query(`SELECT email, first_name, last_name, is_active, is_sales_rep, can_delete_prospects FROM accounts.team_members WHERE account_id = $1 ORDER BY email`, [accountId]),
    pipelines: await sql.query(`SELECT name, slug, is_default, dashboard_order FROM pipeline.pipelines WHERE account_id = $1 ORDER BY slug`, [accountId]),
    stages: await sql.query(
      `SELECT p.slug AS pipeline, s.name, s.slug, s.stage_order, s.is_default, s.is_hidden, s.is_won, s.is_lost, s.is_disqualification
         FROM pipeline.stages s JOIN pipeline.pipelines p ON p.id = s.pipeline_id WHERE s.account_id = $1 ORDER BY p.slug, s.stage_order`,
      [accountId],
    ),
    senders: await sql.query(`SELECT email, name, is_default FROM messaging.senders WHERE account_id = $1 ORDER BY email`, [accountId]),
    customFields: await sql.query(`SELECT name, type, options, position FROM contacts.custom_field_definitions WHERE account_id = $1 ORDER BY position`, [accountId]),
    tags: await sql.query(`SELECT name, color, description, category, system_key FROM contacts.tags WHERE account_id = $1 ORDER BY name`, [accountId]),
    calendars: await sql.query(
      `SELECT c.name, c.duration_minutes, c.slot_interval_minutes, c.min_notice_minutes, c.max_days_ahead, c.daily_max, c.capacity, c.timezone,
              c.availability, c.questions, c.requires_qualified_lead, c.is_active, c.meeting_link,
              (SELECT array_agg(m.email ORDER BY m.email) FROM accounts.team_members m WHERE m.id = ANY (c.host_ids)) AS hosts
         FROM bookings.calendars c WHERE c.account_id = $1 ORDER BY c.name`,
      [accountId],
    ),
    automations: await sql.query(
      // Stage references read back as slugs, so the live and the sandbox rows compare equal.
      `SELECT a.name, a.is_active, a.is_published, a.allow_concurrent_runs, a.trigger_type, a.trigger->>'event' AS event,
              (SELECT p.slug || '/' || coalesce(s.slug, '*') FROM pipeline.pipelines p LEFT JOIN pipeline.stages s ON s.id = (a.trigger->>'stage_id')::uuid
                WHERE p.id = coalesce((a.trigger->>'pipeline_id')::uuid, s.pipeline_id)) AS trigger_target,
              (SELECT jsonb_agg(CASE WHEN step->>'type' = 'move_to_stage'
                                     THEN jsonb_build_object('type', 'move_to_stage', 'stage', (SELECT slug FROM pipeline.stages WHERE id = (step->>'stage_id')::uuid))
                                     ELSE step END)
                 FROM jsonb_array_elements(a.steps) AS step) AS steps
         FROM automations.automations a WHERE a.account_id = $1 ORDER BY a.name`,
      [accountId],
    ),
    events: await sql.query(
      `SELECT e.slug, e.name, e.status, e.languages, ed.name AS edition, ed.starts_at, ed.ends_at, ed.status AS edition_status
         FROM events.events e JOIN events.editions ed ON ed.event_id = e.id WHERE e.account_id = $1 ORDER BY e.slug, ed.position`,
      [accountId],
    ),
  });

  beforeAll(async () => {
    sink = await SmtpSink.start();
    certificate = generateCertificate();
    receiver = await HttpsReceiver.start(certificate);
    const env = { WEBHOOK_CA_FILE: certificate.certFile, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', SMTP_URL: sink.url };
    api = await TestApi.start(env);
    sql = sqlOf(api);
    worker = await createWorker(api.services.config({ ...env, OUTBOX_RELAY_INTERVAL_MS: '20', EMAIL_RETRY_DELAY_MS: '50', WEBHOOK_RETRY_BASE_MS: '1' }));
    live = await api.provision(liveBlueprint('Rénovations Tremblay'));
    expectStatus(await api.request({ method: 'POST', path: '/v1/tags', token: live.api_keys.full.key, body: { name: 'VIP', color: '#ff0000', description: 'Clients importants', category: 'statut' } }), 201);
    liveContact = await createContact(api, live.api_keys.full.key, { email: 'nadia@example.com', first_name: 'Nadia' });
    const created = await api.admin('POST', `/accounts/${live.account_id}/sandbox`, { api_keys: [{ name: 'full', preset: 'full_integration', per_hour: 100000 }, { name: 'capture', preset: 'lead_capture', per_hour: 100000 }] });
    sandbox = expectStatus(created, 201).body;
  }, 120_000);
  afterAll(async () => {
    await worker?.close().catch(() => undefined);
    await api?.close();
    await receiver?.stop();
    await sink?.stop();
    certificate?.remove();
  });

  describe('POST /admin/v1/accounts/{account_id}/sandbox', () => {
    it('creates a sandbox account linked to the live account (mode test, sandbox_of) and answers 201 with the ids of what it copied', async () => {
      expect(sandbox).toEqual({
        account_id: expect.stringMatching(UUID),
        mode: 'test',
        sandbox_of: live.account_id,
        api_keys: { full: expect.objectContaining({ id: expect.any(String) }), capture: expect.objectContaining({ id: expect.any(String) }) },
        systems: { Main: expect.any(String), Laval: expect.any(String) },
        team_members: { [MEMBER]: expect.any(String) },
        pipelines: { ventes: { id: expect.any(String), stages: { nouveau: expect.any(String), gagne: expect.any(String), perdu: expect.any(String) } }, renos: expect.any(Object) },
        senders: { 'bonjour@tremblay.test': expect.any(String), 'soumissions@tremblay.test': expect.any(String) },
        custom_fields: { budget: expect.any(String), type_projet: expect.any(String) },
        tags: expect.objectContaining({ VIP: expect.any(String) }),
        automations: { Gagné: expect.any(String), Bienvenue: expect.any(String) },
        calendars: { Consultation: expect.any(String) },
        events: { 'salon-2027': { id: expect.any(String), editions: [expect.any(String)] } },
      });
      expect(sandbox.account_id).not.toBe(live.account_id);
      expect(await sql.query(`SELECT id, mode, sandbox_of FROM accounts.accounts WHERE id = ANY ($1) ORDER BY mode`, [[live.account_id, sandbox.account_id]])).toEqual([
        { id: live.account_id, mode: 'live', sandbox_of: null },
        { id: sandbox.account_id, mode: 'test', sandbox_of: live.account_id },
      ]);
    });

    it('copies the configuration: settings, Systems, team members, pipelines and stages, senders, custom fields, tags, calendars, automations, events', async () => {
      const copied = await configOf(sandbox.account_id);
      expect(copied).toEqual(await configOf(live.account_id));
      expect(copied.pipelines).toHaveLength(2);
      expect(copied.stages).toHaveLength(5);
      expect(copied.tags.map((tag: any) => tag.name)).toContain('VIP');
      expect(copied.calendars).toEqual([expect.objectContaining({ name: 'Consultation', hosts: [MEMBER] })]);
      expect(copied.automations).toEqual(
        expect.arrayContaining([expect.objectContaining({ name: 'Gagné', trigger_target: 'renos/devis', steps: [{ type: 'add_tag', tag: 'devis' }, { type: 'move_to_stage', stage: 'gagne' }] })]),
      );
      // Ids are the sandbox's own: no row of the sandbox points into the live account.
      expect(await sql.query(`SELECT count(*)::int AS n FROM pipeline.stages WHERE account_id = $1 AND pipeline_id IN (SELECT id FROM pipeline.pipelines WHERE account_id = $2)`, [sandbox.account_id, live.account_id])).toEqual([{ n: 0 }]);
    });

    it('copies no contacts, deals, quotes, bookings, conversations, emails, webhook subscriptions or activity', async () => {
      for (const table of ['contacts.contacts', 'quotes.quotes', 'bookings.bookings', 'messaging.conversations', 'messaging.outgoing_emails', 'webhooks.subscriptions']) {
        expect([table, await sql.count(table, sandbox.account_id)]).toEqual([table, 0]);
      }
      expect(await sql.count('contacts.contacts', live.account_id)).toBeGreaterThan(0);
    });

    it('a second sandbox of the same live account answers 409 sandbox_exists with details.sandbox_id and writes nothing', async () => {
      const before = await sql.count('accounts.accounts');
      const response = await api.admin('POST', `/accounts/${live.account_id}/sandbox`, {});
      expect(response.status).toBe(409);
      expect(response.body).toMatchObject({ code: 'sandbox_exists', type: 'conflict_error', details: { account_id: live.account_id, sandbox_id: sandbox.account_id } });
      expect(await sql.count('accounts.accounts')).toBe(before);
    });

    it('two sandboxes requested at once for one live account: one 201, one 409 sandbox_exists', async () => {
      const other = await api.provision({ name: 'Course' });
      const answers = await Promise.all([1, 2].map(() => api.admin('POST', `/accounts/${other.account_id}/sandbox`, {})));
      expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409]);
      expect(answers.find((answer) => answer.status === 409)!.body.code).toBe('sandbox_exists');
      expect(await sql.query(`SELECT count(*)::int AS n FROM accounts.accounts WHERE sandbox_of = $1`, [other.account_id])).toEqual([{ n: 1 }]);
    });

    it('the body is optional: a sandbox requested without a body is created with no key (keys come later from POST .../api-keys)', async () => {
      const other = await api.provision({ name: 'Sans corps' });
      const response = await api.request({ method: 'POST', path: `/admin/v1/accounts/${other.account_id}/sandbox`, token: TEST_ADMIN_TOKEN });
      expect(response.status).toBe(201);
      expect(response.body).toMatchObject({ mode: 'test', sandbox_of: other.account_id, api_keys: {} });
      expect(await sql.count('accounts.api_keys', response.body.account_id)).toBe(0);
    });

    it('a sandbox of a sandbox answers 422 live_account_required', async () => {
      const response = await api.admin('POST', `/accounts/${sandbox.account_id}/sandbox`, {});
      expect(response.status).toBe(422);
      expect(response.body).toMatchObject({ code: 'live_account_required', details: { account_id: sandbox.account_id, mode: 'test' } });
    });

    it('an unknown or malformed account id answers 404 not_found; an invalid key item 400 validation_error; nothing written', async () => {
      const before = await sql.count('accounts.accounts');
      for (const id of ['00000000-0000-4000-8000-000000000000', 'nope']) {
        const response = await api.admin('POST', `/accounts/${id}/sandbox`, {});
        expect(response.status).toBe(404);
        expect(response.body).toMatchObject({ code: 'not_found', details: { resource: 'account' } });
      }
      const fresh = await api.provision({ name: 'Clés invalides' });
      const invalid = await api.admin('POST', `/accounts/${fresh.account_id}/sandbox`, { api_keys: [{ name: '' }] });
      expect(invalid.status).toBe(400);
      expect(invalid.body.code).toBe('validation_error');
      expect(await sql.count('accounts.accounts')).toBe(before + 1);
    });

    it('operator routes need the admin token: no token or an API key answers 401 and writes nothing', async () => {
      const fresh = await api.provision({ name: 'Sans jeton' });
      for (const token of [undefined, live.api_keys.full.key, `${TEST_ADMIN_TOKEN}x`]) {
        for (const path of [`/admin/v1/accounts/${fresh.account_id}/sandbox`, `/admin/v1/accounts/${sandbox.account_id}/reset`]) {
          const response = await api.request({ method: 'POST', path, token, body: {} });
          expect([path, response.status]).toEqual([path, 401]);
        }
      }
      expect(await sql.query(`SELECT count(*)::int AS n FROM accounts.accounts WHERE sandbox_of = $1`, [fresh.account_id])).toEqual([{ n: 0 }]);
    });
  });

  describe('lf_test_ keys and GET /v1/me', () => {
    it('keys of a sandbox are lf_test_ (from the sandbox body and from POST .../api-keys); keys of a live account stay lf_live_', async () => {
      expect(sandbox.api_keys.full.key).toMatch(/^lf_test_[0-9A-Za-z]{8}_[0-9A-Za-z]{32,}$/);
      expect(sandbox.api_keys.full.prefix).toMatch(/^lf_test_[0-9A-Za-z]{8}$/);
      const more = expectStatus(await api.admin('POST', `/accounts/${sandbox.account_id}/api-keys`, { name: 'lecture', scopes: ['contacts:read'] }), 201).body;
      expect(more.key).toMatch(/^lf_test_/);
      expect(more.prefix).toBe(more.key.slice(0, 16));
      expect(live.api_keys.full.key).toMatch(/^lf_live_/);
      const liveMore = expectStatus(await api.admin('POST', `/accounts/${live.account_id}/api-keys`, { name: 'lecture', scopes: ['contacts:read'] }), 201).body;
      expect(liveMore.key).toMatch(/^lf_live_/);
      expect(await sql.query(`SELECT mode FROM accounts.api_keys WHERE id = ANY ($1) ORDER BY mode`, [[more.id, liveMore.id]])).toEqual([{ mode: 'live' }, { mode: 'test' }]);
    });

    it('GET /v1/me says mode "test" with an lf_test_ key and mode "live" with an lf_live_ key', async () => {
      const test = expectStatus(await api.request({ path: '/v1/me', token: sandboxKey() }), 200).body.data;
      expect(test).toMatchObject({ mode: 'test', client_id: sandbox.account_id, key_prefix: sandbox.api_keys.full.prefix });
      const liveMe = expectStatus(await api.request({ path: '/v1/me', token: live.api_keys.full.key }), 200).body.data;
      expect(liveMe).toMatchObject({ mode: 'live', client_id: live.account_id });
    });

    it('a key presented with the other mode head (lf_live_ for a test key, and the reverse) answers 401 invalid_api_key', async () => {
      for (const key of [sandboxKey().replace('lf_test_', 'lf_live_'), live.api_keys.full.key.replace('lf_live_', 'lf_test_')]) {
        const response = await api.request({ path: '/v1/me', token: key });
        expect(response.status).toBe(401);
        expect(response.body.code).toBe('invalid_api_key');
      }
    });
  });

  describe('every /v1 route works on a sandbox; tenant isolation', () => {
    it('a lead capture on the sandbox works and writes into the sandbox only', async () => {
      const before = await sql.count('contacts.contacts', live.account_id);
      const response = await captureLead(api, sandbox.api_keys.capture.key, { first_name: 'Élise', email: 'elise@example.com', phone: freshPhone().raw, sms_consent: 'oui' }, { remoteAddress: freshAddress() });
      expect(response.status).toBe(200);
      expect(await sql.query(`SELECT account_id FROM contacts.contacts WHERE id = $1`, [response.body.contact_id])).toEqual([{ account_id: sandbox.account_id }]);
      expect(await sql.count('contacts.contacts', live.account_id)).toBe(before);
    });

    it('tenant isolation: a sandbox key cannot read the live account\'s contact and a live key cannot read the sandbox\'s (404 like a missing one)', async () => {
      const sandboxContact = await createContact(api, sandboxKey(), { email: 'isolation@example.com' });
      const fromSandbox = await api.request({ path: `/v1/contacts/${liveContact.id}`, token: sandboxKey() });
      const fromLive = await api.request({ path: `/v1/contacts/${sandboxContact.id}`, token: live.api_keys.full.key });
      const missing = await api.request({ path: '/v1/contacts/00000000-0000-4000-8000-000000000000', token: sandboxKey() });
      expect(fromSandbox.status).toBe(404);
      expect(fromLive.status).toBe(404);
      expect({ ...fromSandbox.body, request_id: null }).toEqual({ ...missing.body, request_id: null });
      const list = expectStatus(await api.request({ path: '/v1/contacts', token: sandboxKey(), query: { search: 'nadia' } }), 200).body;
      expect(list.data).toEqual([]);
    });
  });

  describe('side effects of a sandbox', () => {
    it('an email from a sandbox is recorded sent (provider_message_id skipped_test_mode) and never reaches the SMTP server; a live one does', async () => {
      const fromSandbox = expectStatus(await sendEmail(api, sandboxKey(), { to: 'client@example.com', subject: 'Bac à sable', body: '<p>Essai</p>' }), 201).body.data;
      const fromLive = expectStatus(await sendEmail(api, live.api_keys.full.key, { to: 'client@example.com', subject: 'Réel', body: '<p>Réel</p>' }), 201).body.data;
      const rowOf = async (accountId: string, id: string) =>
        (await sql.query<any>(`SELECT status, attempts, provider_message_id, is_test FROM messaging.outgoing_emails WHERE account_id = $1 AND id = $2`, [accountId, id]))[0];
      const sandboxRow = await waitFor(() => rowOf(sandbox.account_id, fromSandbox.id), (row) => row?.status === 'sent', 'the sandbox email settled');
      await waitFor(() => sink.withHeader('X-Leadflow-Email-Id', fromLive.id), (received) => received.length === 1, 'the live email at the SMTP server');
      expect(sandboxRow).toEqual({ status: 'sent', attempts: 1, provider_message_id: 'skipped_test_mode', is_test: false });
      expect(sink.withHeader('X-Leadflow-Email-Id', fromSandbox.id)).toEqual([]);
      expect(sink.received.filter((message: any) => message.headers.subject === 'Bac à sable')).toEqual([]);
      expect(await sql.query(`SELECT count(*)::int AS n FROM platform.outbox WHERE account_id = $1 AND type = 'email_sent' AND payload->>'email_id' = $2`, [sandbox.account_id, fromSandbox.id])).toEqual([{ n: 1 }]);
    });

    it('no SMS hand-off for a sandbox: the consenting lead\'s hand-off is recorded skipped_test_mode; a live one is pending', async () => {
      const phoneOf = () => freshPhone().raw;
      const onSandbox = expectStatus(await captureLead(api, sandbox.api_keys.capture.key, { first_name: 'Sam', phone: phoneOf(), sms_consent: 'oui' }, { remoteAddress: freshAddress() }), 200).body;
      const onLive = expectStatus(await captureLead(api, live.api_keys.capture.key, { first_name: 'Lou', phone: phoneOf(), sms_consent: 'oui' }, { remoteAddress: freshAddress() }), 200).body;
      const handOffOf = (accountId: string, contactId: string) => sql.query<any>(`SELECT status FROM contacts.sms_handoffs WHERE account_id = $1 AND contact_id = $2`, [accountId, contactId]);
      expect(await waitFor(() => handOffOf(sandbox.account_id, onSandbox.contact_id), (rows) => rows.length > 0, 'the sandbox hand-off record')).toEqual([{ status: 'skipped_test_mode' }]);
      expect(await waitFor(() => handOffOf(live.account_id, onLive.contact_id), (rows) => rows.length > 0, 'the live hand-off')).toEqual([{ status: 'pending' }]);
    });

    it('webhook payloads carry livemode false for a sandbox and true for a live account', async () => {
      for (const [account, token, path] of [[sandbox, sandboxKey(), '/sandbox'], [live, live.api_keys.full.key, '/live']] as const) {
        expectStatus(await api.request({ method: 'POST', path: '/v1/webhooks', token, body: { url: receiver.url(path), events: ['contact_created'] } }), 201);
        await createContact(api, token, { email: `webhook-${account.account_id.slice(-8)}@example.com` });
      }
      const [onSandbox] = await waitFor(() => receiver.at('/sandbox'), (received) => received.length > 0, 'the sandbox delivery');
      const [onLive] = await waitFor(() => receiver.at('/live'), (received) => received.length > 0, 'the live delivery');
      expect(onSandbox.body).toMatchObject({ event: 'contact_created', livemode: false });
      expect(onLive.body).toMatchObject({ event: 'contact_created', livemode: true });
      expect(Object.keys(onLive.body)).toEqual(['event', 'id', 'created_at', 'livemode', 'data', 'changes']);
    });
  });

  describe('POST /admin/v1/accounts/{sandbox_id}/reset', () => {
    it('empties the sandbox data in every context and keeps its configuration and keys (which still authenticate)', async () => {
      const token = sandboxKey();
      const contact = await createContact(api, token, { email: 'reset@example.com', first_name: 'Remi' });
      expectStatus(await api.request({ method: 'POST', path: `/v1/contacts/${contact.id}/notes`, token, body: { body: 'Rappeler' } }), 201);
      expectStatus(await api.request({ method: 'POST', path: '/v1/quotes', token, body: { contact_id: contact.id, line_items: [{ description: 'Cuisine', quantity: 1, unit_price: 1000 }] } }), 201);
      await waitFor(() => sql.count('webhooks.deliveries', sandbox.account_id), (n) => n > 0, 'a sandbox delivery');
      const configBefore = await configOf(sandbox.account_id);
      const keysBefore = await sql.query(`SELECT id, revoked_at FROM accounts.api_keys WHERE account_id = $1 ORDER BY id`, [sandbox.account_id]);
      const liveBefore = await Promise.all(['contacts.contacts', 'contacts.contact_notes', 'platform.activity_log'].map((table) => sql.count(table, live.account_id)));

      const response = await api.admin('POST', `/accounts/${sandbox.account_id}/reset`);

      expect(response.status).toBe(200);
      expect(response.body.data).toMatchObject({ account_id: sandbox.account_id, mode: 'test', sandbox_of: live.account_id, reset_at: expect.any(String) });
      expect(response.body.data.deleted['contacts.contacts']).toBeGreaterThanOrEqual(4);
      expect(response.body.data.deleted['quotes.quotes']).toBe(1);
      for (const table of [
        'contacts.contacts', 'contacts.contact_notes', 'contacts.contact_identities', 'contacts.lead_captures', 'contacts.sms_handoffs',
        'quotes.quotes', 'quotes.quote_sequences', 'messaging.outgoing_emails', 'webhooks.deliveries', 'webhooks.delivery_attempts', 'platform.activity_log', 'platform.idempotency_keys',
      ]) {
        expect([table, await sql.count(table, sandbox.account_id)]).toEqual([table, 0]);
      }
      expect(await sql.query(`SELECT count(*)::int AS n FROM platform.outbox WHERE account_id = $1 AND relayed_at IS NULL`, [sandbox.account_id])).toEqual([{ n: 0 }]);
      expect(await configOf(sandbox.account_id)).toEqual(configBefore);
      expect(await sql.query(`SELECT id, revoked_at FROM accounts.api_keys WHERE account_id = $1 ORDER BY id`, [sandbox.account_id])).toEqual(keysBefore);
      expect(await sql.count('webhooks.subscriptions', sandbox.account_id)).toBe(1);
      expect(await Promise.all(['contacts.contacts', 'contacts.contact_notes', 'platform.activity_log'].map((table) => sql.count(table, live.account_id)))).toEqual(liveBefore);

      expect(expectStatus(await api.request({ path: '/v1/contacts', token }), 200).body.data).toEqual([]);
      expect(expectStatus(await api.request({ path: `/v1/contacts/${contact.id}`, token }), 404).body.code).toBe('not_found');
      expect((await createContact(api, token, { email: 'reset@example.com' })).id).not.toBe(contact.id); // the address is free again
    });

    it('reset on a live account answers 422 sandbox_required and deletes nothing; an unknown account 404 not_found', async () => {
      const before = await Promise.all(['contacts.contacts', 'platform.activity_log'].map((table) => sql.count(table, live.account_id)));
      const response = await api.admin('POST', `/accounts/${live.account_id}/reset`);
      expect(response.status).toBe(422);
      expect(response.body).toMatchObject({ code: 'sandbox_required', type: 'unprocessable_error', details: { account_id: live.account_id, mode: 'live' } });
      expect(await Promise.all(['contacts.contacts', 'platform.activity_log'].map((table) => sql.count(table, live.account_id)))).toEqual(before);
      const unknown = await api.admin('POST', '/accounts/00000000-0000-4000-8000-000000000000/reset');
      expect(unknown.status).toBe(404);
      expect(unknown.body).toMatchObject({ code: 'not_found', details: { resource: 'account' } });
    });
  });
});
