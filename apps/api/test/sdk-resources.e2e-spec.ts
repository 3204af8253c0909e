import { createLeadflowClient, LeadflowApiError, LeadflowClient } from '@leadflow/sdk';
import { FixedClock } from '@leadflow/shared-kernel';
import { automationsBlueprint } from './support/automations-fixtures';
import { bookingsBlueprint } from './support/bookings-fixtures';
import { contactsBlueprint, db } from './support/contacts-fixtures';
import { eventsBlueprint } from './support/events-fixtures';
import { leadsBlueprint } from './support/lead-capture-fixtures';
import { messagingBlueprint, SAMPLE_CONVERSATIONS } from './support/messaging-fixtures';
import { pipelineBlueprint } from './support/pipeline-fixtures';
import { quotesBlueprint, SENDABLE } from './support/quotes-fixtures';
import { ProvisionedAccount, TestApi } from './support/test-api';

/**
 * The SDK (`@leadflow/sdk`, issue 16 item 5) against the running api: the app listens on a real port of
 * 127.0.0.1 and every call goes through the SDK's fetch, on real PostgreSQL and Redis. One test (at
 * least) per resource group of the spec's `/v1`: Me and Usage, Contacts and Tags, Leads, Presuasion,
 * Pipeline, Quotes, Bookings, Automations, Emails, Conversations, Events, Webhooks (subscriptions and
 * samples here; a real signed delivery in sdk-webhooks.e2e-spec.ts), plus errors, retries and
 * idempotency keys seen by the server.
 *
 * FixedClock at Monday 2027-03-01 12:00Z (07:00 in Montreal): the bookings slot of 2027-03-02 15:00Z is
 * ahead, and the events fixture's next open edition (Montréal, 2027-03-10) is still upcoming.
 */
describe('SDK against the running api', () => {
  const clock = new FixedClock(new Date('2027-03-01T12:00:00.000Z'));
  let api: TestApi;
  let baseUrl: string;

  beforeAll(async () => {
    api = await TestApi.start({}, clock);
    await api.app.listen(0, '127.0.0.1');
    baseUrl = await api.app.getUrl();
  });
  afterAll(() => api?.close());

  const sql = () => db(api);
  const clientFor = (account: ProvisionedAccount, key = 'full', options: { fetch?: (request: Request) => Promise<Response>; maxRetries?: number } = {}): LeadflowClient =>
    createLeadflowClient({ apiKey: account.api_keys[key].key, baseUrl, ...options });

  describe('Me and Usage', () => {
    it('GET /v1/me describes the calling key; GET /v1/usage answers the counters of the key over a range (query parameters typed)', async () => {
      const account = await api.provision(contactsBlueprint());
      const client = clientFor(account);

      const me = await client.get('/v1/me');
      expect(me.data).toMatchObject({ key_id: account.api_keys.full.id, key_name: 'full', client_id: account.account_id, preset: 'full_integration', lifecycle_state: 'active' });

      const usage = await client.get('/v1/usage', {
        params: { query: { from: '2027-03-01T00:00:00.000Z', to: '2027-03-02T00:00:00.000Z', granularity: 'day' } },
      });
      expect(usage.data).toMatchObject({ api_key_id: account.api_keys.full.id, granularity: 'day' });
      expect(Array.isArray(usage.data.buckets)).toBe(true);
    });
  });

  describe('Contacts and Tags', () => {
    it('creates, reads, updates, tags, notes and deletes a contact; paginate walks every page of GET /v1/contacts', async () => {
      const account = await api.provision(contactsBlueprint());
      const client = clientFor(account);

      const created = await client.post('/v1/contacts', { body: { email: 'Nadia.Belanger@Example.com', first_name: 'Nadia', last_name: 'Bélanger', phone: '514 555-0142' } });
      expect(created.data).toMatchObject({ email: 'nadia.belanger@example.com', phone: '+15145550142' });
      const id = created.data.id;

      const updated = await client.patch('/v1/contacts/{id}', { params: { path: { id } }, body: { company: 'Rénovations Bélanger', deal_value: 12500 } });
      expect(updated.data).toMatchObject({ id, company: 'Rénovations Bélanger' });

      const tag = await client.post('/v1/tags', { body: { name: 'Cuisine' } });
      await client.post('/v1/contacts/{id}/tags', { params: { path: { id } }, body: { tag_ids: [tag.data.id] } });
      const note = await client.post('/v1/contacts/{id}/notes', { params: { path: { id } }, body: { body: 'A rappelé, veut une soumission.' } });
      expect(note.data).toMatchObject({ contact_id: id, body: 'A rappelé, veut une soumission.' });

      const read = await client.get('/v1/contacts/{id}', { params: { path: { id }, query: { expand: 'tags' } } });
      expect(read.data).toMatchObject({ id, company: 'Rénovations Bélanger' });
      expect(JSON.stringify(read.data)).toContain(tag.data.id);
      const timeline = await client.get('/v1/contacts/{id}/timeline', { params: { path: { id } } });
      expect(timeline.pagination.has_more).toBe(false);
      const tags = await client.get('/v1/tags');
      expect(tags.data.map((item) => item.name)).toContain('Cuisine');

      // 5 more contacts, walked 2 per page: 3 pages, every contact once, newest first.
      const made = [id];
      for (let n = 1; n <= 5; n++) {
        clock.advance(1000);
        made.push((await client.post('/v1/contacts', { body: { email: `client${n}@example.com`, first_name: `Client ${n}` } })).data.id);
      }
      const walked: string[] = [];
      for await (const contact of client.paginate('/v1/contacts', { params: { query: { limit: 2 } } })) walked.push(contact.id);
      expect(walked).toEqual([...made].reverse());
      const pages: number[] = [];
      for await (const page of client.pages('/v1/contacts', { params: { query: { limit: 2, search: 'client' } } })) pages.push(page.data.length);
      expect(pages).toEqual([2, 2, 1]);

      const deleted = await client.delete('/v1/contacts/{id}', { params: { path: { id } } });
      expect(deleted).toBeDefined();
      expect(await sql().count('contacts.contacts', 'id = $1', [id])).toBe(0);
      const gone = await client.get('/v1/contacts/{id}', { params: { path: { id } } }).catch((error: unknown) => error);
      expect(gone).toBeInstanceOf(LeadflowApiError);
      expect(gone).toMatchObject({ status: 404, code: 'not_found', type: 'not_found_error' });
    });

    it('batch upsert answers one result per input (discriminated on status), and a merge dry run reports without writing, then the merge absorbs the contact', async () => {
      const account = await api.provision(contactsBlueprint());
      const client = clientFor(account);
      const batch = await client.post('/v1/contacts/batch', {
        body: { inputs: [{ email: 'lot1@example.com', first_name: 'Lot' }, { email: 'lot2@example.com' }, { first_name: 'Sans identité' }] },
      });
      expect(batch.data.map((result) => result.status)).toEqual(['created', 'created', 'error']);
      const [first, second, refused] = batch.data;
      if (first.status === 'error' || second.status === 'error' || refused.status !== 'error') throw new Error('unexpected batch results');
      expect(refused.error.code).toEqual(expect.any(String));

      const dryRun = await client.post('/v1/contacts/{id}/merge', { params: { path: { id: second.contact.id } }, body: { into: first.contact.id, dry_run: true } });
      expect(dryRun.data).toMatchObject({ dry_run: true, merged_contact_id: second.contact.id, survivor: { id: first.contact.id } });
      expect((await client.get('/v1/contacts/{id}', { params: { path: { id: second.contact.id } } })).data.id).toBe(second.contact.id);

      await client.post('/v1/contacts/{id}/merge', { params: { path: { id: second.contact.id } }, body: { into: first.contact.id } });
      await expect(client.get('/v1/contacts/{id}', { params: { path: { id: second.contact.id } } })).rejects.toMatchObject({ status: 404, code: 'not_found' });
    });

    it('a refusal throws LeadflowApiError carrying the envelope: 409 duplicate_contact with details, doc_url and the request id of X-Request-ID', async () => {
      const account = await api.provision(contactsBlueprint());
      const client = clientFor(account);
      await client.post('/v1/contacts', { body: { email: 'double@example.com' } });

      const error = (await client.post('/v1/contacts', { body: { email: 'double@example.com' } }).catch((caught: unknown) => caught)) as LeadflowApiError;
      expect(error).toBeInstanceOf(LeadflowApiError);
      expect(error).toMatchObject({ status: 409, code: 'duplicate_contact', type: 'conflict_error', details: { conflicting_fields: ['email'] } });
      expect(error.doc_url).toMatch(/\/docs\/errors#duplicate_contact$/);
      expect(error.request_id).toBe(error.headers.get('x-request-id'));
      expect(error.request_id).toEqual(expect.any(String));
      expect(await sql().count('contacts.contacts', 'account_id = $1', [account.account_id])).toBe(1);
    });

    it('a missing scope is 403 insufficient_scope with details.required_scope, and nothing is retried', async () => {
      const account = await api.provision(contactsBlueprint());
      const seen: string[] = [];
      const client = clientFor(account, 'reader', {
        fetch: (request) => {
          seen.push(`${request.method} ${new URL(request.url).pathname}`);
          return fetch(request);
        },
      });
      await expect(client.post('/v1/contacts', { body: { email: 'x@example.com' } })).rejects.toMatchObject({
        status: 403,
        code: 'insufficient_scope',
        details: { required_scope: 'contacts:write' },
      });
      expect(seen).toEqual(['POST /v1/contacts']);
    });

    it('a key over its hourly quota: 429 rate_limit_exceeded with Retry-After beyond maxRetryDelaySeconds is thrown at once with retry_after_seconds', async () => {
      const account = await api.provision(contactsBlueprint({ api_keys: [{ name: 'full', preset: 'full_integration', per_hour: 1 }] }));
      let attempts = 0;
      const client = clientFor(account, 'full', {
        fetch: (request) => {
          attempts += 1;
          return fetch(request);
        },
      });
      await client.get('/v1/me');
      const started = Date.now();
      const error = (await client.get('/v1/me').catch((caught: unknown) => caught)) as LeadflowApiError;
      expect(error).toMatchObject({ status: 429, code: 'rate_limit_exceeded', type: 'rate_limit_error', details: { limit_type: 'per_key' } });
      expect(error.retry_after_seconds).toBeGreaterThan(60);
      expect(attempts).toBe(2);
      expect(Date.now() - started).toBeLessThan(5000);
    });
  });

  describe('Leads', () => {
    it('POST /v1/leads/capture carries an automatic Idempotency-Key; an answer lost in transit is retried with the same key and replayed by the api (one contact, one capture)', async () => {
      const account = await api.provision(leadsBlueprint());
      const sent: { key: string | null; replayed: string | null }[] = [];
      let dropped = false;
      const client = clientFor(account, 'capture', {
        // The first answer is "lost": the api handled the capture, the client sees a network failure.
        fetch: async (request) => {
          const response = await fetch(request);
          sent.push({ key: request.headers.get('idempotency-key'), replayed: response.headers.get('idempotent-replayed') });
          if (!dropped) {
            dropped = true;
            throw new TypeError('fetch failed: socket hang up');
          }
          return response;
        },
      });

      const captured = await client.post('/v1/leads/capture', {
        body: { first_name: 'Élise', last_name: 'Côté', email: 'Elise.Cote@Videotron.CA', phone: '(514) 301-7788', sms_consent: true, source_label: 'Webflow – Soumission cuisine' },
      });
      // The replayed answer of the first attempt (public-api-v1 › Lead capture rule 8): status idempotent_replay.
      expect(captured).toMatchObject({ status: 'idempotent_replay', contact_was_new: true, contact_id: expect.any(String) });
      expect(sent).toHaveLength(2);
      expect(sent[0].key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(sent[1]).toEqual({ key: sent[0].key, replayed: 'true' });
      expect(await sql().count('contacts.contacts', 'account_id = $1', [account.account_id])).toBe(1);
      expect(await sql().count('contacts.lead_captures', 'account_id = $1', [account.account_id])).toBe(1);
    });

    it('a capture refused with the simplified 422 body throws LeadflowApiError with details [{ field, reason }] and no type or doc_url', async () => {
      const account = await api.provision(leadsBlueprint());
      const client = clientFor(account, 'capture');
      const error = (await client.post('/v1/leads/capture', { body: { phone: '(514) 301-7789', sms_consent: false } }).catch((caught: unknown) => caught)) as LeadflowApiError;
      expect(error).toBeInstanceOf(LeadflowApiError);
      expect(error).toMatchObject({ status: 422, code: 'missing_consent', type: null, doc_url: null, details: [expect.objectContaining({ field: 'sms_consent' })] });
      expect(await sql().count('contacts.contacts', 'account_id = $1', [account.account_id])).toBe(0);
      expect(error.request_id).toEqual(expect.any(String));
    });
  });

  describe('Presuasion', () => {
    it('records a submission, reads it back and lists it', async () => {
      const account = await api.provision(leadsBlueprint());
      const client = clientFor(account, 'full');
      const created = await client.post('/v1/presuasion/submissions', {
        body: {
          tool: { slug: 'quiz-renovation', name: 'Quiz rénovation' },
          answers: [{ question_id: 'q1', question: 'Quel projet ?', answer: 'Cuisine' }],
          score: 42.5,
          outcome: 'Projet prêt',
          person: { email: 'quiz.personne@example.com', first_name: 'Élise' },
        },
      });
      const id = created.data.id;
      expect((await client.get('/v1/presuasion/submissions/{id}', { params: { path: { id } } })).data).toMatchObject({ id, outcome: 'Projet prêt' });
      const listed: string[] = [];
      for await (const submission of client.paginate('/v1/presuasion/submissions')) listed.push(submission.id);
      expect(listed).toEqual([id]);
    });
  });

  describe('Pipeline', () => {
    it('lists stages, places a deal, moves it, lists deals by stage and removes it', async () => {
      const account = await api.provision(pipelineBlueprint());
      const client = clientFor(account);
      const stages = await client.get('/v1/pipeline/stages');
      const nouveau = stages.data.find((stage) => stage.id === account.pipelines!.ventes.stages.nouveau);
      expect(nouveau).toBeDefined();
      const contact = await client.post('/v1/contacts', { body: { email: 'deal@example.com' } });

      const deal = await client.post('/v1/pipeline/deals', { body: { contact_id: contact.data.id, stage_id: account.pipelines!.ventes.stages.nouveau } });
      const moved = await client.patch('/v1/pipeline/deals/{id}', { params: { path: { id: deal.data.id } }, body: { stage_id: account.pipelines!.ventes.stages.soumission } });
      expect(moved.data).toMatchObject({ id: deal.data.id });

      const inStage: string[] = [];
      for await (const item of client.paginate('/v1/pipeline/deals', { params: { query: { stage_id: account.pipelines!.ventes.stages.soumission } } })) inStage.push(item.id);
      expect(inStage).toEqual([deal.data.id]);

      await client.delete('/v1/pipeline/deals/{id}', { params: { path: { id: deal.data.id } } });
      const [row] = await sql().query(`SELECT stage_id FROM contacts.contacts WHERE id = $1`, [contact.data.id]);
      expect(row.stage_id).toBeNull();
    });
  });

  describe('Quotes', () => {
    it('creates a draft, updates it, reads it, lists drafts and sends it', async () => {
      const account = await api.provision(quotesBlueprint());
      const client = clientFor(account);
      const quote = await client.post('/v1/quotes', { body: SENDABLE });
      expect(quote.data).toMatchObject({ status: 'draft', prospect_name: 'Nadia Bélanger' });
      const id = quote.data.id;

      await client.patch('/v1/quotes/{id}', { params: { path: { id } }, body: { internal_notes: 'Client référé par Julie' } });
      expect((await client.get('/v1/quotes/{id}', { params: { path: { id } } })).data).toMatchObject({ id, internal_notes: 'Client référé par Julie' });

      const drafts: string[] = [];
      for await (const item of client.paginate('/v1/quotes', { params: { query: { status: 'draft' } } })) drafts.push(item.id);
      expect(drafts).toEqual([id]);

      const sent = await client.post('/v1/quotes/{id}/send', { params: { path: { id } } });
      expect(sent.data).toMatchObject({ id, status: 'sent' });
    });
  });

  describe('Bookings', () => {
    it('books a calendar slot, lists it, and cancels it', async () => {
      const account = await api.provision(bookingsBlueprint());
      const client = clientFor(account);
      const calendars = account.calendars as Record<string, string>;
      const contact = await client.post('/v1/contacts', { body: { email: 'rdv@example.com', first_name: 'Nadia' } });

      const booking = await client.post('/v1/bookings', {
        body: {
          event_type_id: calendars.Consultation,
          start_datetime: '2027-03-02T15:00:00Z',
          contact_id: contact.data.id,
          timezone: 'America/Montreal',
          form_responses: { adresse: { value: '12 rue des Érables, Laval' } },
        },
      });
      expect(booking.data).toMatchObject({ contact_id: contact.data.id });

      const listed: string[] = [];
      for await (const item of client.paginate('/v1/bookings', { params: { query: { contact_id: contact.data.id } } })) listed.push(item.id);
      expect(listed).toEqual([booking.data.id]);

      const cancelled = await client.delete('/v1/bookings/{id}', { params: { path: { id: booking.data.id } } });
      expect(cancelled).toBeDefined();
      const [row] = await sql().query(`SELECT status FROM bookings.bookings WHERE id = $1`, [booking.data.id]);
      expect(row.status).toBe('cancelled');
    });
  });

  describe('Automations', () => {
    it('lists automations, triggers one for a contact and reads its execution history', async () => {
      const account = await api.provision(automationsBlueprint());
      const client = clientFor(account);
      const automations: { id: string; name: string }[] = [];
      for await (const automation of client.paginate('/v1/automations')) automations.push(automation);
      const manuelle = automations.find((automation) => automation.name === 'Manuelle');
      expect(manuelle).toBeDefined();

      const contact = await client.post('/v1/contacts', { body: { email: 'auto@example.com' } });
      const execution = await client.post('/v1/automations/{id}/trigger', { params: { path: { id: manuelle!.id } }, body: { contact_id: contact.data.id } });
      expect(execution.data).toMatchObject({ contact_id: contact.data.id });

      const history: string[] = [];
      for await (const item of client.paginate('/v1/automations/{id}/history', { params: { path: { id: manuelle!.id } } })) history.push(item.id);
      expect(history).toContain(execution.data.id);
    });
  });

  describe('Emails and Conversations', () => {
    it('queues a transactional email and lists email threads', async () => {
      const account = await api.provision(messagingBlueprint());
      const client = clientFor(account);
      const queued = await client.post('/v1/emails/send', { body: { to: 'Nadia.Belanger@Example.com', subject: 'Votre soumission', body: '<p>Bonjour Nadia</p>' } });
      expect(queued.data).toMatchObject({ status: 'queued' });
      expect(await sql().count('messaging.outgoing_emails', 'account_id = $1', [account.account_id])).toBe(1);
      const threads = await client.get('/v1/emails/conversations');
      expect(Array.isArray(threads.data)).toBe(true);
    });

    it('lists conversations, reads one and walks its messages', async () => {
      const account = await api.provision(messagingBlueprint({ conversations: SAMPLE_CONVERSATIONS }));
      const client = clientFor(account);
      const ids = account.conversations as string[];
      const listed: string[] = [];
      for await (const conversation of client.paginate('/v1/conversations')) listed.push(conversation.id);
      expect([...listed].sort()).toEqual([...ids].sort());

      const conversation = await client.get('/v1/conversations/{id}', { params: { path: { id: ids[0] } } });
      expect(conversation.data).toMatchObject({ id: ids[0] });
      const messages: unknown[] = [];
      for await (const message of client.paginate('/v1/conversations/{id}/messages', { params: { path: { id: ids[0] }, query: { limit: 1 } } })) messages.push(message);
      expect(messages).toHaveLength(4);
    });
  });

  describe('Events', () => {
    it('ingests a custom event and registers the contact to an event', async () => {
      const account = await api.provision(eventsBlueprint());
      const client = clientFor(account);
      const contact = await client.post('/v1/contacts', { body: { email: 'premier@example.com', first_name: 'Élise' } });
      const ingested = await client.post('/v1/events', { body: { event: 'inscription', contact: { email: 'premier@example.com' }, payload: { message: 'Bienvenue' } } });
      expect(ingested).toEqual({ status: 'ingested', enrolled_executions: 0 });
      expect(await sql().count('events.custom_events', 'account_id = $1 AND contact_id = $2', [account.account_id, contact.data.id])).toBe(1);

      const registration = await client.post('/v1/event-registrations', { body: { contact_id: contact.data.id, event_slug: 'salon-2027' } });
      expect(registration).toMatchObject({ data: { contact_id: contact.data.id }, created: true });
    });
  });

  describe('Webhooks', () => {
    it('creates a subscription (secret shown once), lists it, reads event samples and deletes it (204)', async () => {
      const account = await api.provision(contactsBlueprint());
      const client = clientFor(account);
      const created = await client.post('/v1/webhooks', { body: { url: 'https://93.184.215.14/hooks/leadflow', events: ['contact_created'] } });
      expect(created.data.secret).toMatch(/^[0-9a-f]{64}$/);

      const listed = await client.get('/v1/webhooks');
      expect(listed.data.map((subscription) => subscription.id)).toEqual([created.data.id]);
      expect(JSON.stringify(listed.data)).not.toContain(created.data.secret);

      await client.post('/v1/contacts', { body: { email: 'echantillon@example.com' } });
      const samples = await client.get('/v1/webhook-events', { params: { query: { event: 'contact_created', limit: 5 } } });
      expect(samples.pagination.has_more).toBe(false);

      await expect(client.delete('/v1/webhooks/{id}', { params: { path: { id: created.data.id } } })).resolves.toBeUndefined();
      expect((await client.get('/v1/webhooks')).data).toEqual([]);
    });
  });
});
