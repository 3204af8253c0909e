import { FixedClock, newId } from '@leadflow/shared-kernel';
import { TEST_ADMIN_TOKEN } from '@leadflow/shared-testing';
import { IDEMPOTENCY_KEY_IGNORED, registeredRoutes } from '@leadflow/shared-platform';
import { automationsList } from './support/automations-fixtures';
import { bookingsBlueprint } from './support/bookings-fixtures';
import { createContact, createTag, db, expectStatus } from './support/contacts-fixtures';
import { EXAMPLE_EVENTS } from './support/events-fixtures';
import { createQuote, QUOTE_DEFAULTS, SENDABLE } from './support/quotes-fixtures';
import { PUBLIC_TARGET } from './support/webhooks-fixtures';
import { ProvisionedAccount, TestApi, TestResponse } from './support/test-api';

/* eslint-disable @typescript-eslint/no-explicit-any -- response bodies are asserted field by field */

/**
 * One Idempotency-Key rule on every `POST /v1` route and every creating `POST /admin/v1` route (issue 18,
 * item 4; IdempotencyInterceptor; docs/adr/0002-idempotent-creates-with-secrets.md): a malformed key
 * answers the same 400 everywhere; a valid key is honoured (replay, write once, 409 on another payload)
 * except on the routes of IDEMPOTENCY_KEY_IGNORED (only `POST /v1/emails/send`, the spec's), where it is
 * validated and then ignored. The tables below name every `POST /v1` and every `POST /admin/v1` route the
 * app registers (the operator's 200 actions apart, which do not read the header): a new route fails the
 * first test until it is added here.
 */
interface Call {
  path: string;
  body?: unknown;
  remoteAddress?: string;
}

interface Row {
  honoured: boolean;
  /** Operator routes: sent with the operator token, and the writes are counted over every account (one may be created). */
  operator?: boolean;
  /** A fresh valid request (its own data: `n` is unique per call); fixtures it needs are created here, before writes are counted. */
  make: (n: number) => Promise<Call>;
  /** How the replay answers, when not the stored body as is (lead capture marks its replays). */
  replayed?: (first: any, replay: any) => void;
}

const MALFORMED = ['bad key!', 'k'.repeat(65), 'tab\tkey', 'é-key'];
/** Weekdays of March 2027 after the fixed clock (2027-03-01 12:00 UTC), one Consultation slot each (10:00 in Montreal). */
const SLOTS = ['02', '03', '04', '05', '08', '09', '10', '11', '12', '15'].map((day) => `2027-03-${day}T15:00:00Z`);

describe('Idempotency-Key on every POST /v1 and every creating POST /admin/v1 route: one rule', () => {
  let api: TestApi;
  let account: ProvisionedAccount;
  let token: string;
  let tag: string;
  let seq = 0;

  beforeAll(async () => {
    api = await TestApi.start({}, new FixedClock(new Date('2027-03-01T12:00:00.000Z')));
    account = await api.provision(
      bookingsBlueprint({
        quote_defaults: QUOTE_DEFAULTS,
        automations: automationsList(),
        events: EXAMPLE_EVENTS,
        api_keys: [{ name: 'full', preset: 'full_integration', per_hour: 1000000 }],
      }),
    );
    token = account.api_keys.full.key;
    tag = (await createTag(api, token, { name: 'Idempotence' })).id;
  });
  afterAll(() => api.close());

  const contact = (n: number) => createContact(api, token, { first_name: 'Idem', email: `idem.contact.${n}@example.com` });
  const address = (n: number) => `10.31.${(n >> 8) & 255}.${n & 255}`;
  /** A subscription of the key (the account holds 10 at most: deleted again once the test has its id's rows). */
  let webhooks: string[] = [];
  const webhook = async (): Promise<{ id: string }> => {
    if (webhooks.length >= 8) {
      for (const id of webhooks.splice(0, 4)) await api.request({ method: 'DELETE', path: `/v1/webhooks/${id}`, token });
    }
    const created = expectStatus(await api.request({ method: 'POST', path: '/v1/webhooks', token, body: { url: PUBLIC_TARGET, events: '*' } }), 201).body.data;
    webhooks = [...webhooks, created.id];
    return created;
  };

  const ROUTES: Record<string, Row> = {
    'POST /v1/contacts': { honoured: true, make: async (n) => ({ path: '/v1/contacts', body: { email: `idem.${n}@example.com` } }) },
    'POST /v1/contacts/batch': {
      honoured: true,
      make: async (n) => ({ path: '/v1/contacts/batch', body: { inputs: [{ email: `idem.batch.${n}@example.com` }, { phone: `(514) 304-${String(n).padStart(4, '0')}` }] } }),
    },
    'POST /v1/contacts/:id/merge': {
      honoured: true,
      make: async (n) => ({ path: `/v1/contacts/${(await contact(n)).id}/merge`, body: { into: (await createContact(api, token, { email: `idem.survivor.${n}@example.com` })).id } }),
    },
    'POST /v1/contacts/:id/tags': { honoured: true, make: async (n) => ({ path: `/v1/contacts/${(await contact(n)).id}/tags`, body: { tag_ids: [tag] } }) },
    'POST /v1/contacts/:id/notes': { honoured: true, make: async (n) => ({ path: `/v1/contacts/${(await contact(n)).id}/notes`, body: { body: `Note ${n}` } }) },
    'POST /v1/tags': { honoured: true, make: async (n) => ({ path: '/v1/tags', body: { name: `Idem ${n}` } }) },
    'POST /v1/leads/capture': {
      honoured: true,
      make: async (n) => ({ path: '/v1/leads/capture', body: { phone: `(514) 303-${String(n).padStart(4, '0')}`, sms_consent: true, first_name: 'Idem' }, remoteAddress: address(n) }),
      replayed: (first, replay) => expect(replay).toMatchObject({ status: 'idempotent_replay', contact_id: first.contact_id, contact_was_new: first.contact_was_new }),
    },
    'POST /v1/presuasion/submissions': {
      honoured: true,
      make: async (n) => ({
        path: '/v1/presuasion/submissions',
        body: { tool: { slug: 'quiz', name: 'Quiz' }, answers: [{ question: 'Projet ?', answer: `Toiture ${n}` }], person: { email: `idem.quiz.${n}@example.com` } },
        remoteAddress: address(n),
      }),
    },
    'POST /v1/quotes': { honoured: true, make: async (n) => ({ path: '/v1/quotes', body: { ...SENDABLE, prospect_email: `idem.quote.${n}@example.com` } }) },
    'POST /v1/quotes/:id/send': {
      honoured: true,
      make: async (n) => ({ path: `/v1/quotes/${(await createQuote(api, token, { ...SENDABLE, prospect_email: `idem.send.${n}@example.com` })).id}/send` }),
    },
    'POST /v1/pipeline/deals': {
      honoured: true,
      make: async (n) => ({ path: '/v1/pipeline/deals', body: { contact_id: (await contact(n)).id, stage_id: account.pipelines!.ventes.stages.nouveau } }),
    },
    'POST /v1/events': { honoured: true, make: async (n) => ({ path: '/v1/events', body: { event: 'inscription', contact: { email: `idem.event.${n}@example.com` } }, remoteAddress: address(n) }) },
    'POST /v1/event-registrations': { honoured: true, make: async (n) => ({ path: '/v1/event-registrations', body: { contact_id: (await contact(n)).id, event_slug: 'salon-2027' } }) },
    'POST /v1/bookings': {
      honoured: true,
      make: async (n) => ({
        path: '/v1/bookings',
        body: {
          event_type_id: (account.calendars as Record<string, string>).Consultation,
          start_datetime: SLOTS[n % SLOTS.length],
          contact_id: (await contact(n)).id,
          form_responses: { adresse: { value: '12 rue Principale' } },
        },
      }),
    },
    'POST /v1/automations/:id/trigger': {
      honoured: true,
      make: async (n) => ({ path: `/v1/automations/${(account.automations as Record<string, string>).Manuelle}/trigger`, body: { contact_id: (await contact(n)).id } }),
    },
    'POST /v1/emails/send': { honoured: false, make: async (n) => ({ path: '/v1/emails/send', body: { to: `idem.mail.${n}@example.com`, subject: 'Bonjour', body: '<p>Bonjour</p>' } }) },
    'POST /v1/webhooks': { honoured: true, make: async (n) => ({ path: '/v1/webhooks', body: { url: `${PUBLIC_TARGET}/${n}`, events: '*' } }) },
    'POST /v1/webhooks/:id/rotate-secret': { honoured: true, make: async () => ({ path: `/v1/webhooks/${(await webhook()).id}/rotate-secret` }) },
    'POST /v1/webhooks/:id/deliveries/:delivery_id/redeliver': {
      honoured: true,
      make: async () => {
        const subscription = await webhook();
        const deliveryId = newId();
        await db(api).query(
          `INSERT INTO webhooks.deliveries (id, account_id, subscription_id, event_id, event, body, status, attempt, response_status, created_at, updated_at)
           VALUES ($1, $2, $3, $4, 'lead_created', '{}'::jsonb, 'succeeded', 1, 200, now(), now())`,
          [deliveryId, account.account_id, subscription.id, newId()],
        );
        return { path: `/v1/webhooks/${subscription.id}/deliveries/${deliveryId}/redeliver` };
      },
    },
  };
  /** A busy time of the Consultation calendar's first host, two hours per `n` from April 2027. */
  const busyTime = (n: number) => ({
    host_id: Object.values(account.team_members)[0],
    kind: 'blocked_time',
    start_datetime: new Date(Date.UTC(2027, 3, 1) + n * 7_200_000).toISOString(),
    end_datetime: new Date(Date.UTC(2027, 3, 1) + n * 7_200_000 + 3_600_000).toISOString(),
  });
  /** A live account of its own (one sandbox per live account). */
  const liveAccount = async (n: number) => (await api.provision({ name: `Idem live ${n}`, api_keys: [] })).account_id;

  /** Every creating `POST /admin/v1` route (201 Created): the key is honoured there, in the operator token's scope. */
  const OPERATOR_ROUTES: Record<string, Row> = {
    'POST /admin/v1/accounts': {
      honoured: true,
      operator: true,
      make: async (n) => ({ path: '/admin/v1/accounts', body: { name: `Idem ${n}`, api_terms_accepted: true, api_keys: [{ name: 'full', preset: 'full_integration' }] } }),
    },
    'POST /admin/v1/accounts/:account_id/api-keys': {
      honoured: true,
      operator: true,
      make: async (n) => ({ path: `/admin/v1/accounts/${account.account_id}/api-keys`, body: { name: `idem-${n}`, preset: 'lead_capture' } }),
    },
    'POST /admin/v1/accounts/:account_id/sandbox': { honoured: true, operator: true, make: async (n) => ({ path: `/admin/v1/accounts/${await liveAccount(n)}/sandbox`, body: {} }) },
    'POST /admin/v1/accounts/:account_id/calendars/:calendar_id/busy-times': {
      honoured: true,
      operator: true,
      make: async (n) => ({ path: `/admin/v1/accounts/${account.account_id}/calendars/${(account.calendars as Record<string, string>).Consultation}/busy-times`, body: busyTime(n) }),
    },
  };
  /** The operator's `POST` actions answering 200 (they create nothing): the header is not read there. */
  const OPERATOR_ACTIONS = [
    'POST /admin/v1/accounts/:account_id/api-keys/:key_id/revoke',
    'POST /admin/v1/accounts/:account_id/reset',
    'POST /admin/v1/accounts/:account_id/contacts/:contact_id/archive',
    'POST /admin/v1/accounts/:account_id/contacts/:contact_id/unarchive',
    'POST /admin/v1/accounts/:account_id/contacts/:contact_id/merge',
    'POST /admin/v1/accounts/:account_id/contacts/:contact_id/unmerge',
    'POST /admin/v1/accounts/:account_id/contacts/:contact_id/disqualify',
    'POST /admin/v1/accounts/:account_id/quotes/:quote_id/lead-actions',
    'POST /admin/v1/accounts/:account_id/bookings/:booking_id/outcome',
  ];
  const rows = (honoured?: boolean) =>
    Object.entries({ ...ROUTES, ...OPERATOR_ROUTES }).filter(([, row]) => honoured === undefined || row.honoured === honoured);

  const post = (call: Call, idempotencyKey?: string, operator = false): Promise<TestResponse> =>
    api.request({
      method: 'POST',
      path: call.path,
      token: operator ? TEST_ADMIN_TOKEN : token,
      body: call.body,
      headers: idempotencyKey === undefined ? {} : { 'idempotency-key': idempotencyKey },
      remoteAddress: call.remoteAddress,
    });

  /**
   * Rows of every table the routes can write (usage counters and the idempotency store left out): the
   * account's rows, or (`everyAccount`, the operator routes, which may create an account) every row.
   */
  async function writes(everyAccount = false): Promise<Record<string, number>> {
    const tables: { name: string }[] = await db(api).query(
      `SELECT t.table_schema || '.' || t.table_name AS name
         FROM information_schema.tables t
        WHERE t.table_type = 'BASE TABLE' AND t.table_schema NOT IN ('usage', 'pg_catalog', 'information_schema', 'public')
          AND (t.table_schema, t.table_name) NOT IN (('platform', 'idempotency_keys'), ('platform', 'event_inbox'))
          AND ($1 OR EXISTS (SELECT 1 FROM information_schema.columns c
                              WHERE c.table_schema = t.table_schema AND c.table_name = t.table_name AND c.column_name = 'account_id'))
        ORDER BY 1`,
      [everyAccount],
    );
    const counts: Record<string, number> = {};
    for (const { name } of tables) {
      counts[name] = everyAccount ? await db(api).count(name, 'true', []) : await db(api).count(name, 'account_id = $1', [account.account_id]);
    }
    return counts;
  }
  const total = (counts: Record<string, number>) => Object.values(counts).reduce((sum, count) => sum + count, 0);

  it('the table names every POST /v1 route the app registers, and its ignored routes are exactly IDEMPOTENCY_KEY_IGNORED (POST /v1/emails/send alone)', () => {
    const registered = registeredRoutes(api.app)
      .filter((route) => route.method === 'POST' && route.path.startsWith('/v1/'))
      .map((route) => `${route.method} ${route.path}`);
    expect([...new Set(registered)].sort()).toEqual(Object.keys(ROUTES).sort());
    expect(rows(false).map(([route]) => route).sort()).toEqual(Object.keys(IDEMPOTENCY_KEY_IGNORED).sort());
    expect(Object.keys(IDEMPOTENCY_KEY_IGNORED)).toEqual(['POST /v1/emails/send']);
  });

  it('the operator table names every creating POST /admin/v1 route, and every other POST /admin/v1 route is a listed 200 action', () => {
    const registered = registeredRoutes(api.app)
      .filter((route) => route.method === 'POST' && route.path.startsWith('/admin/v1/'))
      .map((route) => `${route.method} ${route.path}`);
    expect([...new Set(registered)].sort()).toEqual([...Object.keys(OPERATOR_ROUTES), ...OPERATOR_ACTIONS].sort());
  });

  it.each(rows().map(([route, row]) => [route, row] as const))(
    '%s: a malformed Idempotency-Key answers 400 invalid_request (details.field Idempotency-Key, reason invalid_format), the same everywhere, and writes nothing',
    async (_route, row) => {
      const call = await row.make(++seq);
      const before = await writes(row.operator);
      for (const key of MALFORMED) {
        const response = await post(call, key, row.operator);
        expect({ status: response.status, code: response.body.code, type: response.body.type, details: response.body.details }).toEqual({
          status: 400,
          code: 'invalid_request',
          type: 'invalid_request_error',
          details: { field: 'Idempotency-Key', reason: 'invalid_format' },
        });
        expect(response.body.request_id).toBe(response.headers['x-request-id']);
      }
      expect(await writes(row.operator)).toEqual(before);
    },
  );

  it.each(rows(true).map(([route, row]) => [route, row] as const))(
    '%s honours the key: the same key and body replay the first answer (Idempotent-Replayed: true) and write once; another payload with the key answers 409 idempotency_conflict, nothing written',
    async (_route, row) => {
      const n = ++seq;
      const key = `every-post-${n}`;
      const call = await row.make(n);
      const other = await row.make(++seq);
      const before = await writes(row.operator);
      const first = await post(call, key, row.operator);
      expect(first.status).toBeLessThan(300);
      const afterFirst = await writes(row.operator);
      expect(total(afterFirst)).toBeGreaterThan(total(before));

      const replay = await post(call, key, row.operator);
      expect(replay.status).toBe(first.status);
      expect(replay.headers['idempotent-replayed']).toBe('true');
      if (row.replayed) row.replayed(first.body, replay.body);
      else expect(replay.raw.body).toBe(first.raw.body);
      expect(await writes(row.operator)).toEqual(afterFirst);

      const conflict = await post(other, key, row.operator);
      expect({ status: conflict.status, code: conflict.body.code, details: conflict.body.details }).toEqual({
        status: 409,
        code: 'idempotency_conflict',
        details: { reason: 'payload_mismatch' },
      });
      expect(await writes(row.operator)).toEqual(afterFirst);
    },
  );

  it.each(rows(false).map(([route, row]) => [route, row] as const))(
    '%s ignores a valid key (IDEMPOTENCY_KEY_IGNORED): the same key and body run twice, two writes, no replay',
    async (_route, row) => {
      const n = ++seq;
      const key = `ignored-${n}`;
      const call = await row.make(n);
      const before = await writes();
      const first = expectStatus(await post(call, key), 201);
      const afterFirst = await writes();
      expect(total(afterFirst)).toBeGreaterThan(total(before));
      const second = expectStatus(await post(call, key), 201);
      expect(second.headers['idempotent-replayed']).toBeUndefined();
      expect(second.body.data.id).not.toBe(first.body.data.id);
      expect(total(await writes())).toBeGreaterThan(total(afterFirst)); // the second request wrote too (a thread it shares is updated, not added)
    },
  );

  it("PATCH and DELETE do not read the header, nor do the operator's 200 actions: a malformed key changes nothing there", async () => {
    const created = await contact(++seq);
    const patched = await api.request({ method: 'PATCH', path: `/v1/contacts/${created.id}`, token, body: { company: 'Idem' }, headers: { 'idempotency-key': 'bad key!' } });
    expect(patched.status).toBe(200);
    const removed = await api.request({ method: 'DELETE', path: `/v1/contacts/${created.id}/tags/${tag}`, token, headers: { 'idempotency-key': 'bad key!' } });
    expect(removed.status).toBe(204);
    const issued = expectStatus(await api.admin('POST', `/accounts/${account.account_id}/api-keys`, { name: 'idem', preset: 'lead_capture' }), 201).body;
    const admin = await api.request({
      method: 'POST',
      path: `/admin/v1/accounts/${account.account_id}/api-keys/${issued.id}/revoke`,
      token: TEST_ADMIN_TOKEN,
      headers: { 'idempotency-key': 'bad key!' },
    });
    expect(admin.status).toBe(200);
  });
});
