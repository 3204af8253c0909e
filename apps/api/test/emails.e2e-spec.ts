import { createContact, expectStatus } from './support/contacts-fixtures';
import { ACTIVE_MEMBER, DEFAULT_SENDER, INACTIVE_MEMBER, messagingBlueprint, queueEmail, sendEmail, unsubscribe } from './support/messaging-fixtures';
import { sqlOf } from './support/sql';
import { ProvisionedAccount, TestApi } from './support/test-api';

/* eslint-disable @typescript-eslint/no-explicit-any -- bodies and rows are asserted field by field */

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const DAY_MS = 24 * 3600 * 1000;

/** `POST /v1/emails/send` and `GET /v1/emails/conversations` (public-api-v1 › Endpoints › Emails). */
describe('Emails API', () => {
  let api: TestApi;
  let sql: ReturnType<typeof sqlOf>;

  const provision = (extra: Record<string, unknown> = {}) => api.provision(messagingBlueprint(extra));
  const tokenOf = (account: ProvisionedAccount, name = 'full') => account.api_keys[name].key;
  const emailsOf = (account: ProvisionedAccount) =>
    sql.query<any>(`SELECT * FROM messaging.outgoing_emails WHERE account_id = $1 ORDER BY created_at, id`, [account.account_id]);
  const outboxOf = (account: ProvisionedAccount) =>
    sql.query<any>(`SELECT type, payload FROM platform.outbox WHERE account_id = $1 AND type = 'email_queued'`, [account.account_id]);
  const threadsOf = (account: ProvisionedAccount) => sql.query<any>(`SELECT * FROM messaging.email_threads WHERE account_id = $1`, [account.account_id]);
  const emailActivityOf = (account: ProvisionedAccount) =>
    sql.query<any>(`SELECT contact_id, type, actor, data FROM platform.activity_log WHERE account_id = $1 AND type = 'email_queued'`, [account.account_id]);
  const nothingWritten = async (account: ProvisionedAccount) => {
    expect(await emailsOf(account)).toEqual([]);
    expect(await outboxOf(account)).toEqual([]);
    expect(await threadsOf(account)).toEqual([]);
    expect(await emailActivityOf(account)).toEqual([]);
  };
  const valid = { to: 'nadia.belanger@example.com', subject: 'Votre projet', body: '<p>Bonjour</p>' };

  beforeAll(async () => {
    api = await TestApi.start();
    sql = sqlOf(api);
  });
  afterAll(() => api.close());

  describe('POST /v1/emails/send', () => {
    it('queues a transactional email (status queued, priority 1) from the default sender and answers 201 { data: { id, status: queued, … } }', async () => {
      const account = await provision();

      const response = await sendEmail(api, tokenOf(account), { ...valid, to: 'Nadia.Belanger@Example.com' });

      expect(response.status).toBe(201);
      expect(response.body).toEqual({
        data: {
          id: expect.any(String),
          status: 'queued',
          to: 'nadia.belanger@example.com',
          subject: 'Votre projet',
          from: { email: DEFAULT_SENDER, name: 'Rénovations Tremblay' },
          type: 'transactional',
          priority: 1,
          test: false,
          thread_id: expect.any(String),
          contact_id: null,
          created_at: expect.stringMatching(ISO),
        },
      });
      const [row] = await emailsOf(account);
      expect(row).toMatchObject({
        id: response.body.data.id,
        to: 'nadia.belanger@example.com',
        from_email: DEFAULT_SENDER,
        type: 'transactional',
        priority: 1,
        status: 'queued',
        is_test: false,
        thread_id: response.body.data.thread_id,
      });
      expect(await outboxOf(account)).toEqual([{ type: 'email_queued', payload: expect.objectContaining({ email_id: row.id, priority: 1, is_test: false }) }]);
    });

    it('sanitises the HTML body (sanitize-html): scripts, event handlers and javascript: links never reach the stored email', async () => {
      const account = await provision();

      const response = await sendEmail(api, tokenOf(account), {
        ...valid,
        body: '<p onclick="x()">Bonjour <strong>Nadia</strong><script>alert(1)</script> <a href="javascript:alert(1)">ici</a></p>',
      });

      expect(response.status).toBe(201);
      const [row] = await emailsOf(account);
      expect(row.html).toBe('<p>Bonjour <strong>Nadia</strong> <a>ici</a></p>');
    });

    it('does not support Idempotency-Key: the header is ignored and a repeated request queues a second email', async () => {
      const account = await provision();

      const first = await sendEmail(api, tokenOf(account), valid, { 'Idempotency-Key': 'same-key' });
      const second = await sendEmail(api, tokenOf(account), valid, { 'Idempotency-Key': 'same-key' });

      expect([first.status, second.status]).toEqual([201, 201]);
      expect(second.body.data.id).not.toBe(first.body.data.id);
      expect(await emailsOf(account)).toHaveLength(2);
    });

    it.each(['not-an-email', 'nadia@example', 'nadia belanger@example.com', '@example.com', 'nadia@@example.com'])(
      'refuses a to outside ^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$ (%s) with 400 validation_error, field to, reason invalid_format; nothing written',
      async (to) => {
        const account = await provision();

        const response = await sendEmail(api, tokenOf(account), { ...valid, to });

        expect(response.status).toBe(400);
        expect(response.body).toMatchObject({ code: 'validation_error', details: [{ field: 'to', reason: 'invalid_format' }] });
        await nothingWritten(account);
      },
    );

    it('requires to, subject and body: 400 validation_error listing each with reason required', async () => {
      const account = await provision();

      const response = await sendEmail(api, tokenOf(account), {});

      expect(response.status).toBe(400);
      expect(response.body.code).toBe('validation_error');
      expect(response.body.details).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ field: 'to', reason: 'required' }),
          expect.objectContaining({ field: 'subject', reason: 'required' }),
          expect.objectContaining({ field: 'body', reason: 'required' }),
        ]),
      );
      await nothingWritten(account);
    });

    it('refuses an empty subject or body (reason required) and a subject over 255 characters (reason too_long)', async () => {
      const account = await provision();

      const empty = await sendEmail(api, tokenOf(account), { ...valid, subject: '', body: '' });
      const long = await sendEmail(api, tokenOf(account), { ...valid, subject: 'x'.repeat(256) });

      expect(empty.status).toBe(400);
      expect(empty.body.details).toEqual(
        expect.arrayContaining([expect.objectContaining({ field: 'subject', reason: 'required' }), expect.objectContaining({ field: 'body', reason: 'required' })]),
      );
      expect(long.status).toBe(400);
      expect(long.body.details).toEqual([expect.objectContaining({ field: 'subject', reason: 'too_long' })]);
      expect((await sendEmail(api, tokenOf(account), { ...valid, subject: 'x'.repeat(255) })).status).toBe(201);
    });

    it('refuses a body over 100000 characters with reason too_long', async () => {
      const account = await provision();

      const response = await sendEmail(api, tokenOf(account), { ...valid, body: `<p>${'x'.repeat(100_000)}</p>` });

      expect(response.status).toBe(400);
      expect(response.body.details).toEqual([expect.objectContaining({ field: 'body', reason: 'too_long' })]);
      await nothingWritten(account);
    });

    it('refuses unknown fields (400 validation_error, reason unknown_field) and wrong types (reason invalid_type)', async () => {
      const account = await provision();

      const unknown = await sendEmail(api, tokenOf(account), { ...valid, cc: 'x@example.com' });
      const types = await sendEmail(api, tokenOf(account), { to: 42, subject: ['a'], body: { html: 1 }, test: 'yes' });

      expect(unknown.status).toBe(400);
      expect(unknown.body).toMatchObject({ code: 'validation_error', details: [{ field: 'cc', reason: 'unknown_field' }] });
      expect(types.status).toBe(400);
      expect(types.body.details).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ field: 'to', reason: 'invalid_type' }),
          expect.objectContaining({ field: 'subject', reason: 'invalid_type' }),
          expect.objectContaining({ field: 'body', reason: 'invalid_type' }),
          expect.objectContaining({ field: 'test', reason: 'invalid_type' }),
        ]),
      );
      await nothingWritten(account);
    });

    it('answers 400 to invalid JSON or a body that is not an object, and 415 without a JSON Content-Type; never 500', async () => {
      const account = await provision();
      const token = tokenOf(account);

      const invalid = await api.request({ method: 'POST', path: '/v1/emails/send', token, rawBody: '{"to":', headers: { 'content-type': 'application/json' } });
      const array = await sendEmail(api, token, [valid]);
      const noType = await api.request({ method: 'POST', path: '/v1/emails/send', token, rawBody: JSON.stringify(valid), headers: { 'content-type': 'text/plain' } });

      expect(invalid.status).toBe(400);
      expect(array.status).toBe(400);
      expect(noType.status).toBe(415);
      await nothingWritten(account);
    });

    it('answers 400 no_sender_configured when the account has no default sender, writing nothing', async () => {
      const account = await provision({ senders: [] });

      const response = await sendEmail(api, tokenOf(account), valid);

      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ code: 'no_sender_configured', type: 'invalid_request_error' });
      await nothingWritten(account);
    });

    it('needs scope email:send (403 insufficient_scope) and the emails module (403 feature_not_available)', async () => {
      const account = await provision();
      const withoutModule = await provision({ features: ['public_api', 'conversations'] });

      const scope = await sendEmail(api, tokenOf(account, 'reader'), valid);
      const feature = await sendEmail(api, tokenOf(withoutModule), valid);

      expect(scope.status).toBe(403);
      expect(scope.body).toMatchObject({ code: 'insufficient_scope', details: { required_scope: 'email:send' } });
      expect(feature.status).toBe(403);
      expect(feature.body).toMatchObject({ code: 'feature_not_available', details: { feature: 'emails' } });
      expect((await sendEmail(api, tokenOf(account, 'sender'), valid)).status).toBe(201);
      await nothingWritten(withoutModule);
    });

    it('refuses a recipient on the unsubscribe list with 409 recipient_unsubscribed (real sends), writing nothing', async () => {
      const account = await provision();
      await unsubscribe(api, account, 'nadia.belanger@example.com');

      const response = await sendEmail(api, tokenOf(account), { ...valid, to: 'NADIA.BELANGER@example.com' });

      expect(response.status).toBe(409);
      expect(response.body).toMatchObject({ code: 'recipient_unsubscribed', details: { field: 'to' } });
      await nothingWritten(account);
    });

    it("fills the variables of a real send from the recipient's contact, links the contact and records email_queued on its timeline", async () => {
      const account = await provision();
      const contact = await createContact(api, tokenOf(account), { email: 'nadia.belanger@example.com', first_name: 'Nadia', last_name: 'Bélanger', company: 'NB inc.' });

      const response = await sendEmail(api, tokenOf(account), {
        ...valid,
        subject: 'Bonjour {{contact.first_name}}',
        body: '<p>{{contact.full_name}} de {{ contact.company }} ({{contact.unknown}})</p>',
      });

      expect(response.status).toBe(201);
      expect(response.body.data).toMatchObject({ subject: 'Bonjour Nadia', contact_id: contact.id });
      const [row] = await emailsOf(account);
      expect(row).toMatchObject({ html: '<p>Nadia Bélanger de NB inc. ({{contact.unknown}})</p>', contact_id: contact.id });
      expect(await emailActivityOf(account)).toEqual([
        {
          contact_id: contact.id,
          type: 'email_queued',
          actor: expect.objectContaining({ type: 'api_key', via: 'api_key', name: 'full' }),
          data: { email_id: row.id, thread_id: response.body.data.thread_id, subject: 'Bonjour Nadia', to: 'nadia.belanger@example.com' },
        },
      ]);
    });

    describe('test mode', () => {
      it('prefixes the subject with [TEST], fills the variables with the sample values and queues it as a test (is_test)', async () => {
        const account = await provision();

        const response = await sendEmail(api, tokenOf(account), {
          to: 'Julie@Tremblay.test',
          subject: 'Bonjour {{contact.first_name}}',
          body: '<p>{{contact.full_name}}, {{contact.email}}, {{contact.phone}}, {{contact.company}}</p>',
          test: true,
        });

        expect(response.status).toBe(201);
        expect(response.body.data).toMatchObject({ status: 'queued', subject: '[TEST] Bonjour Marie', test: true, thread_id: null, contact_id: null, priority: 1 });
        const [row] = await emailsOf(account);
        expect(row).toMatchObject({
          to: ACTIVE_MEMBER,
          subject: '[TEST] Bonjour Marie',
          html: '<p>Marie Tremblay, marie.tremblay@example.com, +15145550100, Exemple inc.</p>',
          is_test: true,
          type: 'transactional',
          priority: 1,
          contact_id: null,
          thread_id: null,
        });
      });

      it('bypasses recipient compliance checks: a team member on the unsubscribe list still gets the test', async () => {
        const account = await provision();
        await unsubscribe(api, account, ACTIVE_MEMBER);

        const response = await sendEmail(api, tokenOf(account), { ...valid, to: ACTIVE_MEMBER, test: true });

        expect(response.status).toBe(201);
      });

      it.each([
        ['an address that is no team member', 'nadia.belanger@example.com'],
        ['an inactive team member', INACTIVE_MEMBER],
      ])('refuses %s with 400 recipient_not_allowed, writing nothing', async (_, to) => {
        const account = await provision();

        const response = await sendEmail(api, tokenOf(account), { ...valid, to, test: true });

        expect(response.status).toBe(400);
        expect(response.body).toMatchObject({ code: 'recipient_not_allowed', type: 'invalid_request_error', details: { field: 'to' } });
        await nothingWritten(account);
      });

      it("refuses another account's team member with 400 recipient_not_allowed", async () => {
        const account = await provision({ team_members: [] });
        await provision(); // holds julie@tremblay.test as an active member

        const response = await sendEmail(api, tokenOf(account), { ...valid, to: ACTIVE_MEMBER, test: true });

        expect(response.status).toBe(400);
        expect(response.body.code).toBe('recipient_not_allowed');
      });

      it('creates no conversation or contact history: no email thread, no contact link, no timeline entry, even when a contact holds the address', async () => {
        const account = await provision();
        await createContact(api, tokenOf(account), { email: ACTIVE_MEMBER, first_name: 'Julie' });

        const response = await sendEmail(api, tokenOf(account), { ...valid, to: ACTIVE_MEMBER, test: true });

        expect(response.status).toBe(201);
        expect(await threadsOf(account)).toEqual([]);
        expect(await emailActivityOf(account)).toEqual([]);
        expect((await emailsOf(account))[0]).toMatchObject({ contact_id: null, thread_id: null });
        const threads = await api.request({ path: '/v1/emails/conversations', token: tokenOf(account) });
        expect(threads.body.data).toEqual([]);
      });

      it('allows 50 test sends per rolling 24 hours, shared with the platform test buttons: the 51st gets 429 test_quota_exceeded with details and Retry-After', async () => {
        const account = await provision();
        // 30 tests from the platform's test buttons (the same outgoing-email path), then 20 through the API.
        for (let i = 0; i < 30; i += 1) await queueEmail(api, account, { isTest: true, to: ACTIVE_MEMBER });
        api.clock.advance(3600 * 1000);
        for (let i = 0; i < 20; i += 1) expectStatus(await sendEmail(api, tokenOf(account), { ...valid, to: ACTIVE_MEMBER, test: true }), 201);

        const refused = await sendEmail(api, tokenOf(account), { ...valid, to: ACTIVE_MEMBER, test: true });
        const platformRefused = await queueEmail(api, account, { isTest: true, to: ACTIVE_MEMBER }).then(
          () => null,
          (error: { code?: string }) => error.code,
        );

        expect(refused.status).toBe(429);
        const retryAfter = 23 * 3600; // the 30 oldest leave the window 23 hours from now
        expect(refused.body).toMatchObject({
          code: 'test_quota_exceeded',
          type: 'rate_limit_error',
          details: { limit: 50, used: 50, window_seconds: 86400, retry_after_seconds: retryAfter },
        });
        expect(refused.headers['retry-after']).toBe(String(retryAfter));
        expect(platformRefused).toBe('test_quota_exceeded');
        expect((await emailsOf(account)).filter((row) => row.is_test)).toHaveLength(50);
        // Real sends are not test sends: they still go.
        expect((await sendEmail(api, tokenOf(account), valid)).status).toBe(201);
      });

      it('frees test slots as the rolling 24 hours move on, and counts each account apart', async () => {
        const account = await provision();
        const other = await provision();
        for (let i = 0; i < 50; i += 1) await queueEmail(api, account, { isTest: true, to: ACTIVE_MEMBER });
        expect((await sendEmail(api, tokenOf(account), { ...valid, to: ACTIVE_MEMBER, test: true })).status).toBe(429);
        expect((await sendEmail(api, tokenOf(other), { ...valid, to: ACTIVE_MEMBER, test: true })).status).toBe(201);

        api.clock.advance(DAY_MS + 1);

        expect((await sendEmail(api, tokenOf(account), { ...valid, to: ACTIVE_MEMBER, test: true })).status).toBe(201);
      });

      it('is race-safe: concurrent test sends never take more than the 50 slots', async () => {
        const account = await provision();
        for (let i = 0; i < 47; i += 1) await queueEmail(api, account, { isTest: true, to: ACTIVE_MEMBER });

        const responses = await Promise.all(
          Array.from({ length: 8 }, () => sendEmail(api, tokenOf(account), { ...valid, to: ACTIVE_MEMBER, test: true })),
        );

        expect(responses.map((r) => r.status).sort()).toEqual([201, 201, 201, 429, 429, 429, 429, 429]);
        expect((await emailsOf(account)).filter((row) => row.is_test)).toHaveLength(50);
      });
    });
  });

  describe('GET /v1/emails/conversations', () => {
    const list = (account: ProvisionedAccount, query: Record<string, string> = {}, name = 'full') =>
      api.request({ path: '/v1/emails/conversations', token: tokenOf(account, name), query });

    it('lists one thread per recipient address with metadata only, sorted last_message_at DESC, id DESC', async () => {
      const account = await provision();
      const first = await sendEmail(api, tokenOf(account), { ...valid, to: 'a@example.com', subject: 'Un' });
      api.clock.advance(1000);
      await sendEmail(api, tokenOf(account), { ...valid, to: 'b@example.com', subject: 'Deux' });
      api.clock.advance(1000);
      const again = await sendEmail(api, tokenOf(account), { ...valid, to: 'A@example.com', subject: 'Trois' });

      const response = await list(account, {}, 'reader');

      expect(again.body.data.thread_id).toBe(first.body.data.thread_id);
      expect(response.status).toBe(200);
      expect(response.body.data).toEqual([
        {
          id: first.body.data.thread_id,
          subject: 'Trois',
          contact_id: null,
          participants: ['a@example.com', DEFAULT_SENDER],
          message_count: 2,
          last_message_at: again.body.data.created_at,
          created_at: first.body.data.created_at,
        },
        expect.objectContaining({ subject: 'Deux', message_count: 1, last_message_at: expect.stringMatching(ISO) }),
      ]);
      expect(response.body.pagination).toEqual({ next_cursor: null, has_more: false, limit: 20, total_count: 2 });
    });

    it('breaks last_message_at ties by id DESC and walks pages with next_cursor', async () => {
      const account = await provision();
      for (const to of ['c1@example.com', 'c2@example.com', 'c3@example.com', 'c4@example.com', 'c5@example.com']) {
        expectStatus(await sendEmail(api, tokenOf(account), { ...valid, to }), 201); // same instant (fixed clock)
      }

      const seen: any[] = [];
      let cursor: string | null = null;
      do {
        const page: any = await list(account, { limit: '2', ...(cursor ? { cursor } : {}) });
        expect(page.status).toBe(200);
        seen.push(...page.body.data);
        cursor = page.body.pagination.next_cursor;
        expect(page.body.pagination.has_more).toBe(cursor !== null);
      } while (cursor);

      const ids = seen.map((thread) => thread.id);
      expect(ids).toHaveLength(5);
      expect(ids).toEqual([...ids].sort().reverse());
    });

    it("feeds a quote's email (the same outgoing-email path) into the recipient's thread, linked to its contact", async () => {
      const account = await provision();
      const sent = await sendEmail(api, tokenOf(account), { ...valid, to: 'nadia@example.com' });
      api.clock.advance(1000);
      const quoteEmail = await queueEmail(api, account, { type: 'quote', priority: 2, subject: 'Soumission 2026-0001', contactId: '2d4c9a31-7f0e-4b1a-9c3d-5e6f7a8b9c0d' });

      const response = await list(account);

      expect(quoteEmail.threadId).toBe(sent.body.data.thread_id);
      expect(response.body.data).toEqual([
        expect.objectContaining({ subject: 'Soumission 2026-0001', message_count: 2, contact_id: '2d4c9a31-7f0e-4b1a-9c3d-5e6f7a8b9c0d' }),
      ]);
    });

    it("never lists another account's threads", async () => {
      const mine = await provision();
      const other = await provision();
      await sendEmail(api, tokenOf(other), { ...valid, to: 'nadia@example.com' });

      const response = await list(mine);

      expect(response.status).toBe(200);
      expect(response.body).toEqual({ data: [], pagination: { next_cursor: null, has_more: false, limit: 20, total_count: 0 } });
    });

    it('answers 400 invalid_request to a bad limit or cursor', async () => {
      const account = await provision();

      for (const query of [{ limit: '0' }, { limit: '101' }, { limit: 'abc' }, { cursor: '!!!' }] as Record<string, string>[]) {
        const response = await list(account, query);
        expect(response.status).toBe(400);
        expect(response.body.code).toBe('invalid_request');
      }
    });

    it('needs scope email:read (403 insufficient_scope) and the emails module', async () => {
      const account = await provision();
      const withoutModule = await provision({ features: ['public_api'] });

      const scope = await list(account, {}, 'sender');
      const feature = await list(withoutModule);

      expect(scope.status).toBe(403);
      expect(scope.body).toMatchObject({ code: 'insufficient_scope', details: { required_scope: 'email:read' } });
      expect(feature.body).toMatchObject({ code: 'feature_not_available', details: { feature: 'emails' } });
    });
  });
});
