import { FixedClock } from '@leadflow/shared-kernel';
import { db, expectStatus } from './support/contacts-fixtures';
import { captureLead, freshAddress, freshPhone, leadsBlueprint } from './support/lead-capture-fixtures';
import { ProvisionedAccount, TestApi, TestResponse } from './support/test-api';

/* eslint-disable @typescript-eslint/no-explicit-any -- response bodies and rows are asserted field by field */

/**
 * `POST /v1/presuasion/submissions` (public-api-v1 › Presuasion submissions, designed in the OpenAPI
 * description and README › Decisions): the person is resolved with lead capture's identity rules, the
 * tool's tag (presuasion tag group) is attached, the submission, its activity entry and its
 * `presuasion_submission_created` outbox event commit together; every rejection is the standard
 * envelope and writes nothing. Real PostgreSQL and Redis.
 */
describe('presuasion submissions: recording', () => {
  const clock = new FixedClock(new Date('2027-03-10T15:00:00.000Z'));
  let api: TestApi;
  let account: ProvisionedAccount;
  let capture: string;
  let full: string;

  beforeAll(async () => {
    api = await TestApi.start({}, clock);
    account = await api.provision(leadsBlueprint());
    capture = account.api_keys.capture.key;
    full = account.api_keys.full.key;
  });
  afterAll(() => api?.close());

  const sql = () => db(api);
  let emails = 0;
  const freshEmail = () => `Quiz.Person${++emails}@Example.COM`;

  /** A valid body for a new person (overridable member by member). */
  function body(extra: Record<string, unknown> = {}): Record<string, any> {
    return {
      tool: { slug: 'quiz-renovation', name: 'Quiz rénovation' },
      form_id: 'quiz-2027-v2',
      answers: [
        { question_id: 'q1', question: 'Quel projet ?', answer: 'Cuisine', score: 3 },
        { question_id: 'q2', question: 'Budget ?', answer: 25000 },
        { question: 'Propriétaire ?', answer: true },
        { question: 'Pièces ?', answer: ['cuisine', 'salle de bain'] },
        { question: 'Commentaire ?', answer: null },
      ],
      score: 42.5,
      outcome: 'Projet prêt',
      person: { email: freshEmail(), first_name: 'Élise', last_name: 'Côté', language: 'fr-CA' },
      consent: { sms: 'oui', email: false, ads: true },
      attribution: { utm: { source: 'facebook', medium: 'paid_social', campaign: 'quiz-printemps' }, gclid: 'G-123', page_url: 'https://lavoie.example/quiz', referrer: 'https://www.facebook.com/' },
      submitted_at: '2027-03-10T09:58:00-05:00',
      ...extra,
    };
  }

  const submit = (payload: unknown, options: { token?: string; headers?: Record<string, string>; remoteAddress?: string } = {}): Promise<TestResponse> =>
    api.request({
      method: 'POST',
      path: '/v1/presuasion/submissions',
      token: options.token ?? capture,
      body: payload,
      headers: options.headers,
      remoteAddress: options.remoteAddress ?? freshAddress(),
    });
  const ok = async (payload: unknown, headers?: Record<string, string>) => expectStatus(await submit(payload, { headers }), 201).body.data;

  /** Row counts of every table a submission writes, for the account. */
  async function writeCounts(): Promise<Record<string, number>> {
    const counts: Record<string, number> = {};
    for (const table of ['contacts.contacts', 'contacts.contact_identities', 'contacts.tags', 'contacts.contact_tags', 'contacts.presuasion_submissions', 'platform.activity_log', 'platform.outbox']) {
      counts[table] = await sql().count(table, 'account_id = $1', [account.account_id]);
    }
    return counts;
  }
  const contactRow = async (id: string) => (await sql().query(`SELECT * FROM contacts.contacts WHERE account_id = $1 AND id = $2`, [account.account_id, id]))[0];
  const identitiesOf = (id: string) =>
    sql().query(`SELECT kind, value, is_primary FROM contacts.contact_identities WHERE account_id = $1 AND contact_id = $2 ORDER BY kind, value`, [account.account_id, id]);
  const tagsOf = (id: string) =>
    sql().query(
      `SELECT t.id, t.name, t.category, t.system_key FROM contacts.contact_tags ct JOIN contacts.tags t ON t.account_id = ct.account_id AND t.id = ct.tag_id
        WHERE ct.account_id = $1 AND ct.contact_id = $2 ORDER BY t.name`,
      [account.account_id, id],
    );
  const eventsOf = (id: string) => sql().query(`SELECT type, payload FROM platform.outbox WHERE account_id = $1 AND payload->>'contact_id' = $2 ORDER BY sequence`, [account.account_id, id]);

  describe('a new person', () => {
    it('records the submission: 201 with the submission, a new contact normalised like lead capture, the tool tag, the activity entry and the outbox events', async () => {
      const payload = body({ person: { email: ' Nadia.Roy@Videotron.CA ', phone: '(514) 555-0142 poste 3', first_name: 'Nadia', last_name: 'Roy', language: 'fr' } });
      const response = await submit(payload);
      expect(response.status).toBe(201);
      const data = response.body.data;
      expect(data).toEqual({
        id: expect.any(String),
        tool: { slug: 'quiz-renovation', name: 'Quiz rénovation' },
        form_id: 'quiz-2027-v2',
        contact_id: expect.any(String),
        contact_was_new: true,
        tag_id: expect.any(String),
        activity_id: expect.any(String),
        answers: [
          { question_id: 'q1', question: 'Quel projet ?', answer: 'Cuisine', score: 3 },
          { question_id: 'q2', question: 'Budget ?', answer: 25000, score: null },
          { question_id: null, question: 'Propriétaire ?', answer: true, score: null },
          { question_id: null, question: 'Pièces ?', answer: ['cuisine', 'salle de bain'], score: null },
          { question_id: null, question: 'Commentaire ?', answer: null, score: null },
        ],
        score: 42.5,
        outcome: 'Projet prêt',
        person: { email: 'nadia.roy@videotron.ca', phone: '+15145550142', first_name: 'Nadia', last_name: 'Roy', language: 'fr' },
        consent: { sms: true, email: false, ads: true },
        attribution: { utm: { source: 'facebook', medium: 'paid_social', campaign: 'quiz-printemps' }, gclid: 'G-123', page_url: 'https://lavoie.example/quiz', referrer: 'https://www.facebook.com/' },
        submitted_at: '2027-03-10T14:58:00.000Z',
        created_at: '2027-03-10T15:00:00.000Z',
      });

      const contact = await contactRow(data.contact_id);
      expect(contact).toMatchObject({ email: 'nadia.roy@videotron.ca', phone: '+15145550142', first_name: 'Nadia', last_name: 'Roy', source: 'api', source_label: 'Quiz rénovation', stage_id: null });
      expect(contact.attribution).toEqual({ source: 'facebook', medium: 'paid_social', campaign: 'quiz-printemps', gclid: 'G-123' });
      expect(await identitiesOf(data.contact_id)).toEqual([
        { kind: 'email', value: 'nadia.roy@videotron.ca', is_primary: true },
        { kind: 'phone', value: '+15145550142', is_primary: true },
      ]);
      expect(await tagsOf(data.contact_id)).toEqual([{ id: data.tag_id, name: 'Quiz rénovation', category: 'presuasion', system_key: 'presuasion:quiz-renovation' }]);

      const [row] = await sql().query(`SELECT * FROM contacts.presuasion_submissions WHERE account_id = $1 AND id = $2`, [account.account_id, data.id]);
      expect(row).toMatchObject({ tool_slug: 'quiz-renovation', contact_id: data.contact_id, tag_id: data.tag_id, activity_id: data.activity_id, outcome: 'Projet prêt' });

      const activity = await sql().query(`SELECT id, type, contact_id, actor, data FROM platform.activity_log WHERE account_id = $1 AND contact_id = $2`, [account.account_id, data.contact_id]);
      expect(activity).toEqual([
        { id: data.activity_id, type: 'presuasion_submission_created', contact_id: data.contact_id, actor: expect.objectContaining({ type: 'api_key', via: 'api_key', name: 'capture' }), data },
      ]);
      const events = await eventsOf(data.contact_id);
      expect(events.map((event: any) => event.type)).toEqual(['contact_created', 'presuasion_submission_created']);
      expect(events[1].payload).toEqual(data);
    });

    it('a person with only a phone (a string or a positive integer, as lead capture) or only an email is enough', async () => {
      const byPhone = await ok(body({ person: { phone: 15145550177 } }));
      expect(byPhone.person).toEqual({ email: null, phone: '+15145550177', first_name: null, last_name: null, language: null });
      expect(await identitiesOf(byPhone.contact_id)).toEqual([{ kind: 'phone', value: '+15145550177', is_primary: true }]);
      const byEmail = await ok(body({ person: { email: 'seule.adresse@example.com' } }));
      expect(await identitiesOf(byEmail.contact_id)).toEqual([{ kind: 'email', value: 'seule.adresse@example.com', is_primary: true }]);
    });

    it('refused ad consent: the gclid is kept neither on the submission nor on the contact (only the google / cpc origin, as lead capture)', async () => {
      const data = await ok(body({ consent: { ads: 'non' }, attribution: { gclid: 'G-999' } }));
      expect(data.consent).toEqual({ sms: null, email: null, ads: false });
      expect(data.attribution).toEqual({ utm: {}, gclid: null, page_url: null, referrer: null });
      expect((await contactRow(data.contact_id)).attribution).toEqual({ source: 'google', medium: 'cpc' });
    });
  });

  describe('same identity rules as lead capture', () => {
    it('an existing contact found by email (any casing) is reused and enriched, never duplicated; filled fields are kept; lead_updated is emitted', async () => {
      const existing = expectStatus(await api.request({ method: 'POST', path: '/v1/contacts', token: full, body: { email: 'julie.gagnon@example.com', first_name: 'Julie' } }), 201).body.data;
      const phone = freshPhone();
      const data = await ok(body({ person: { email: 'JULIE.GAGNON@Example.com', phone: phone.raw, first_name: 'Juliette', last_name: 'Gagnon' } }));
      expect(data.contact_id).toBe(existing.id);
      expect(data.contact_was_new).toBe(false);
      expect(await sql().count('contacts.contacts', 'account_id = $1 AND email = $2', [account.account_id, 'julie.gagnon@example.com'])).toBe(1);
      const contact = await contactRow(existing.id);
      expect(contact).toMatchObject({ first_name: 'Julie', last_name: 'Gagnon', phone: phone.e164 });
      const events = await eventsOf(existing.id);
      expect(events.map((event: any) => event.type)).toEqual(['contact_created', 'lead_updated', 'presuasion_submission_created']);
      expect(Object.keys(events[1].payload.changes).sort()).toEqual(['last_name', 'phone']);
    });

    it('found by a secondary phone; a new phone of a contact that has one is kept as secondary', async () => {
      const first = freshPhone();
      const second = freshPhone();
      const created = await ok(body({ person: { phone: first.raw } }));
      const again = await ok(body({ person: { phone: first.raw, email: 'secondaire@example.com' } }));
      expect(again.contact_id).toBe(created.contact_id);
      const third = await ok(body({ person: { email: 'secondaire@example.com', phone: second.raw } }));
      expect(third.contact_id).toBe(created.contact_id);
      expect(await identitiesOf(created.contact_id)).toEqual([
        { kind: 'email', value: 'secondaire@example.com', is_primary: true },
        { kind: 'phone', value: first.e164, is_primary: true },
        { kind: 'phone', value: second.e164, is_primary: false },
      ]);
      const bySecondary = await ok(body({ person: { phone: second.raw } }));
      expect(bySecondary.contact_id).toBe(created.contact_id);
    });

    it('email and phone of two different contacts: the email’s contact wins and nothing is taken from the other', async () => {
      const phone = freshPhone();
      const phoneOwner = await ok(body({ person: { phone: phone.raw } }));
      const emailOwner = await ok(body({ person: { email: 'gagnant@example.com' } }));
      const data = await ok(body({ person: { email: 'gagnant@example.com', phone: phone.raw } }));
      expect(data.contact_id).toBe(emailOwner.contact_id);
      expect(await identitiesOf(emailOwner.contact_id)).toEqual([{ kind: 'email', value: 'gagnant@example.com', is_primary: true }]);
      expect(await identitiesOf(phoneOwner.contact_id)).toEqual([{ kind: 'phone', value: phone.e164, is_primary: true }]);
    });

    it('lead capture and presuasion submissions resolve the same person to the same contact, both ways', async () => {
      const phone = freshPhone();
      const captured = expectStatus(await captureLead(api, capture, { phone: phone.raw, email: 'Meme.Personne@Example.com', sms_consent: true }), 200).body;
      const data = await ok(body({ person: { email: 'meme.personne@example.com' } }));
      expect(data.contact_id).toBe(captured.contact_id);
      const other = freshPhone();
      const first = await ok(body({ person: { phone: other.raw } }));
      const later = expectStatus(await captureLead(api, capture, { phone: other.e164, sms_consent: 'oui' }), 200).body;
      expect(later.contact_id).toBe(first.contact_id);
    });
  });

  describe('the presuasion tag group', () => {
    it('one tag per tool, category presuasion, created on the fly and found again by its slug whatever the name sent', async () => {
      const a = await ok(body({ tool: { slug: 'Calculateur-Thermopompe', name: 'Calculateur thermopompe' } }));
      const b = await ok(body({ tool: { slug: 'calculateur-thermopompe', name: 'Calculateur (nouveau nom)' } }));
      expect(a.tool).toEqual({ slug: 'calculateur-thermopompe', name: 'Calculateur thermopompe' });
      expect(b.tag_id).toBe(a.tag_id);
      const tags = await sql().query(`SELECT name, category, system_key FROM contacts.tags WHERE account_id = $1 AND system_key = 'presuasion:calculateur-thermopompe'`, [account.account_id]);
      expect(tags).toEqual([{ name: 'Calculateur thermopompe', category: 'presuasion', system_key: 'presuasion:calculateur-thermopompe' }]);
      const listed = expectStatus(await api.request({ path: '/v1/tags', token: full, query: { limit: '100' } }), 200).body.data;
      expect(listed.find((tag: any) => tag.id === a.tag_id)).toMatchObject({ category: 'presuasion', system_key: 'presuasion:calculateur-thermopompe' });
    });

    it('a tool whose name is already another tag’s gets its own tag, suffixed with its slug', async () => {
      expectStatus(await api.request({ method: 'POST', path: '/v1/tags', token: full, body: { name: 'Évaluation' } }), 201);
      const data = await ok(body({ tool: { slug: 'evaluation-gratuite', name: 'Évaluation' } }));
      expect(await tagsOf(data.contact_id)).toEqual([{ id: data.tag_id, name: 'Évaluation (evaluation-gratuite)', category: 'presuasion', system_key: 'presuasion:evaluation-gratuite' }]);
    });

    it('every submission is recorded (no 5 minute window): two submissions of one person in a minute are two rows, one tag attachment', async () => {
      const email = freshEmail();
      const first = await ok(body({ person: { email } }));
      const second = await ok(body({ person: { email }, outcome: 'Deuxième essai' }));
      expect(second.contact_id).toBe(first.contact_id);
      expect(second.id).not.toBe(first.id);
      expect(await sql().count('contacts.presuasion_submissions', 'account_id = $1 AND contact_id = $2', [account.account_id, first.contact_id])).toBe(2);
      expect(await tagsOf(first.contact_id)).toHaveLength(1);
    });
  });

  describe('Idempotency-Key', () => {
    it('the same key and body replay the 201 with Idempotent-Replayed and write nothing; another body gives 409 idempotency_conflict', async () => {
      const payload = body();
      const headers = { 'idempotency-key': 'quiz-submission-0001' };
      const first = await submit(payload, { headers });
      expect(first.status).toBe(201);
      const before = await writeCounts();
      const replay = await submit(payload, { headers });
      expect(replay.status).toBe(201);
      expect(replay.headers['idempotent-replayed']).toBe('true');
      expect(replay.body).toEqual(first.body);
      expect(await writeCounts()).toEqual(before);
      const conflict = await submit({ ...payload, outcome: 'Autre' }, { headers });
      expect(conflict.status).toBe(409);
      expect(conflict.body).toMatchObject({ code: 'idempotency_conflict', details: { reason: 'payload_mismatch' }, type: 'conflict_error' });
      expect(await writeCounts()).toEqual(before);
    });
  });

  describe('rejections: the standard envelope, nothing written, never a 500', () => {
    const cases: [string, (valid: Record<string, any>) => unknown, { field: string; reason: string }[]][] = [
      ['missing identity (neither email nor phone)', (valid) => ({ ...valid, person: { first_name: 'Sans' } }), [
        { field: 'person.email', reason: 'identity_required' },
        { field: 'person.phone', reason: 'identity_required' },
      ]],
      ['blank identity reads as absent', (valid) => ({ ...valid, person: { email: '  ', phone: '' } }), [
        { field: 'person.email', reason: 'identity_required' },
        { field: 'person.phone', reason: 'identity_required' },
      ]],
      ['no person at all', ({ person: _person, ...valid }) => valid, [{ field: 'person', reason: 'required' }]],
      ['bad consent value', (valid) => ({ ...valid, consent: { sms: 'peut-être', email: 2, ads: true } }), [
        { field: 'consent.sms', reason: 'invalid_value' },
        { field: 'consent.email', reason: 'invalid_value' },
      ]],
      ['too many answers', (valid) => ({ ...valid, answers: Array.from({ length: 101 }, (_, i) => ({ question: `Q${i}`, answer: 'x' })) }), [{ field: 'answers', reason: 'too_many' }]],
      ['oversize answers (over 64,000 characters of JSON)', (valid) => ({ ...valid, answers: Array.from({ length: 20 }, (_, i) => ({ question: `Q${i}`, answer: 'x'.repeat(4000) })) }), [{ field: 'answers', reason: 'too_large' }]],
      ['an answer too long', (valid) => ({ ...valid, answers: [{ question: 'Q', answer: 'x'.repeat(5001) }] }), [{ field: 'answers[0].answer', reason: 'too_long' }]],
      ['an answer of another type', (valid) => ({ ...valid, answers: [{ question: 'Q', answer: { nested: true } }, { question: 'R', answer: ['a', 3] }] }), [
        { field: 'answers[0].answer', reason: 'invalid_type' },
        { field: 'answers[1].answer[1]', reason: 'invalid_type' },
      ]],
      ['no answers', (valid) => ({ ...valid, answers: [] }), [{ field: 'answers', reason: 'too_few' }]],
      ['an answer without its question', (valid) => ({ ...valid, answers: [{ answer: 'x' }, { question: 'Q', answer: 'y' }] }), [{ field: 'answers[0].question', reason: 'required' }]],
      ['an answer with a blank question', (valid) => ({ ...valid, answers: [{ question: 'Q', answer: 'x' }, { question: '  ', answer: 'y' }] }), [{ field: 'answers[1].question', reason: 'required' }]],
      ['unknown root field', (valid) => ({ ...valid, sms_consent: true }), [{ field: 'sms_consent', reason: 'unknown_field' }]],
      ['unknown nested fields', (valid) => ({ ...valid, person: { ...valid.person, nickname: 'x' }, answers: [{ question: 'Q', answer: 'a', weight: 2 }], attribution: { utm: { utm_source: 'x' } } }), [
        { field: 'answers[0].weight', reason: 'unknown_field' },
        { field: 'person.nickname', reason: 'unknown_field' },
        { field: 'attribution.utm.utm_source', reason: 'unknown_field' },
      ]],
      ['invalid email', (valid) => ({ ...valid, person: { email: 'pas-une-adresse' } }), [{ field: 'person.email', reason: 'invalid_format' }]],
      ['invalid phone', (valid) => ({ ...valid, person: { phone: '123' } }), [{ field: 'person.phone', reason: 'invalid_phone' }]],
      ['a decimal phone number', (valid) => ({ ...valid, person: { phone: 5145550142.5 } }), [{ field: 'person.phone', reason: 'invalid_phone' }]],
      ['no tool', ({ tool: _tool, ...valid }) => valid, [{ field: 'tool', reason: 'required' }]],
      ['a tool slug that is not a slug', (valid) => ({ ...valid, tool: { slug: 'quiz rénovation', name: 'Quiz' } }), [{ field: 'tool.slug', reason: 'invalid_format' }]],
      ['a reserved tool name', (valid) => ({ ...valid, tool: { slug: 'quiz', name: 'Campagne : Printemps' } }), [{ field: 'tool.name', reason: 'reserved_prefix' }]],
      ['submitted_at unreadable', (valid) => ({ ...valid, submitted_at: '10/03/2027' }), [{ field: 'submitted_at', reason: 'invalid_datetime' }]],
      ['submitted_at in the future', (valid) => ({ ...valid, submitted_at: '2027-03-10T15:10:00Z' }), [{ field: 'submitted_at', reason: 'out_of_range' }]],
      ['a page URL that is not http(s)', (valid) => ({ ...valid, attribution: { page_url: 'javascript:alert(1)' } }), [{ field: 'attribution.page_url', reason: 'invalid_format' }]],
      ['a wrong type', (valid) => ({ ...valid, score: 'élevé', tool: 'quiz' }), [
        { field: 'tool', reason: 'invalid_type' },
        { field: 'score', reason: 'invalid_type' },
      ]],
      ['a body that is not an object', () => [1, 2], [{ field: '', reason: 'invalid_type' }]],
    ];

    it.each(cases)('%s: 400 validation_error with every violation', async (_, make, expected) => {
      const before = await writeCounts();
      const response = await submit(make(body()));
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ code: 'validation_error', type: 'invalid_request_error', request_id: expect.any(String), doc_url: expect.stringContaining('validation_error') });
      const details = (response.body.details as any[]).map(({ field, reason }) => ({ field, reason }));
      expect([...details].sort((a, b) => a.field.localeCompare(b.field))).toEqual([...expected].sort((a, b) => a.field.localeCompare(b.field)));
      expect(await writeCounts()).toEqual(before);
    });

    it('a key without leads:capture gets 403 insufficient_scope; an account without the API terms 403 terms_acceptance_required; nothing written', async () => {
      const before = await writeCounts();
      const reader = account.api_keys.reader.key;
      const refused = await submit(body(), { token: reader });
      expect(refused.status).toBe(403);
      expect(refused.body).toMatchObject({ code: 'insufficient_scope', details: { required_scope: 'leads:capture' } });
      expect(await writeCounts()).toEqual(before);

      const untermed = await api.provision({ ...leadsBlueprint(), name: 'Sans conditions', api_terms_accepted: false });
      const response = await submit(body(), { token: untermed.api_keys.capture.key });
      expect(response.status).toBe(403);
      expect(response.body).toMatchObject({ code: 'terms_acceptance_required', type: 'permission_error' });
      expect(await sql().count('contacts.presuasion_submissions', 'account_id = $1', [untermed.account_id])).toBe(0);
      expect(await sql().count('contacts.contacts', 'account_id = $1', [untermed.account_id])).toBe(0);
    });
  });

  describe('per-IP limit of lead capture', () => {
    it('shares lead capture’s 100 requests per minute per IP: the 101st gets 429 rate_limited_ip (simplified body, X-RateLimit-Scope: ip), on both routes', async () => {
      const ip = '10.200.0.1';
      for (let i = 0; i < 50; i++) expect((await submit({}, { remoteAddress: ip })).status).toBe(400);
      for (let i = 0; i < 50; i++) expect((await captureLead(api, capture, {}, { remoteAddress: ip })).status).toBe(422);
      const before = await writeCounts();
      const refused = await submit(body(), { remoteAddress: ip });
      expect(refused.status).toBe(429);
      expect(refused.headers['x-ratelimit-scope']).toBe('ip');
      expect(refused.body.code).toBe('rate_limited_ip');
      expect(refused.body.type).toBeUndefined();
      expect((await captureLead(api, capture, { phone: freshPhone().raw, sms_consent: true }, { remoteAddress: ip })).status).toBe(429);
      expect(await writeCounts()).toEqual(before);
      expect((await submit(body(), { remoteAddress: '10.200.0.2' })).status).toBe(201); // per IP: another address is not limited
    });
  });

  describe('webhook catalog', () => {
    it('presuasion_submission_created is a catalog name: subscriptions accept it and the sample feed shows the submission in the delivery payload shape', async () => {
      const subscribed = await api.request({ method: 'POST', path: '/v1/webhooks', token: full, body: { url: 'https://93.184.215.14/hooks/presuasion', events: ['presuasion_submission_created'] } });
      expect(subscribed.status).toBe(201);
      clock.advance(1000); // the newest sample (the feed sorts by time)
      const data = await ok(body({ submitted_at: undefined }));
      const samples = expectStatus(await api.request({ path: '/v1/webhook-events', token: full, query: { event: 'presuasion_submission_created', limit: '1' } }), 200).body.data;
      expect(samples).toHaveLength(1);
      expect(samples[0]).toMatchObject({ event: 'presuasion_submission_created', id: data.activity_id, data: { ...data, system: null } });
    });
  });

  describe('contact deletion', () => {
    it('deleting the contact deletes its submissions (they hold the person’s answers)', async () => {
      const data = await ok(body());
      expectStatus(await api.request({ method: 'DELETE', path: `/v1/contacts/${data.contact_id}`, token: full }), 200);
      expect(await sql().count('contacts.presuasion_submissions', 'account_id = $1 AND contact_id = $2', [account.account_id, data.contact_id])).toBe(0);
      expect((await api.request({ path: `/v1/presuasion/submissions/${data.id}`, token: full })).status).toBe(404);
    });
  });
});
