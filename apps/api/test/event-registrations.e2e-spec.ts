import { FixedClock } from '@leadflow/shared-kernel';
import { createContact, db, expectStatus } from './support/contacts-fixtures';
import { EVENTS_NOW, eventsBlueprint, eventsOf, register, updateRegistration } from './support/events-fixtures';
import { ProvisionedAccount, TestApi } from './support/test-api';

/* eslint-disable @typescript-eslint/no-explicit-any -- test bodies are asserted field by field */

/**
 * public-api-v1 › Endpoints › Events › POST /v1/event-registrations, operator-api › blueprint member
 * `events`, on real PostgreSQL and Redis.
 */
describe('POST /v1/event-registrations', () => {
  const clock = new FixedClock(EVENTS_NOW);
  let api: TestApi;
  let account: ProvisionedAccount;
  let other: ProvisionedAccount;
  let key: string;
  let salon: { id: string; editions: string[] };

  const registrations = (contactId: string) =>
    db(api).query(`SELECT id, edition_id, language, status, opted_out_at, confirmation_email_id FROM events.registrations WHERE account_id = $1 AND contact_id = $2`, [
      account.account_id,
      contactId,
    ]);
  const confirmations = (to: string) =>
    db(api).query(`SELECT id, "to", subject, html, type, priority, status FROM messaging.outgoing_emails WHERE account_id = $1 AND "to" = $2 AND type = 'registration_confirmation'`, [
      account.account_id,
      to,
    ]);
  let sequence = 0;
  const person = async (extra: Record<string, unknown> = {}) => {
    sequence += 1;
    return createContact(api, key, { email: `personne${sequence}@exemple.test`, first_name: 'Nadia', ...extra });
  };

  beforeAll(async () => {
    api = await TestApi.start({}, clock);
    account = await api.provision(eventsBlueprint());
    other = await api.provision(eventsBlueprint({ name: 'Autre compte' }));
    key = account.api_keys.writer.key;
    salon = eventsOf(account)['salon-2027'];
  });
  afterAll(() => api.close());

  describe('blueprint member events', () => {
    it('answers { <slug>: { id, editions: [ids in order] } } and stores events and editions', async () => {
      expect(Object.keys(eventsOf(account)).sort()).toEqual(['archive', 'brouillon', 'passe', 'salon-2027']);
      expect(salon.editions).toHaveLength(5);
      const rows = await db(api).query(`SELECT name, status, position FROM events.editions WHERE account_id = $1 AND event_id = $2 ORDER BY position`, [
        account.account_id,
        salon.id,
      ]);
      expect(rows.map((row) => [row.name, row.status])).toEqual([
        ['Québec 2026', 'open'],
        ['Montréal', 'open'],
        ['Laval', 'cancelled'],
        ['Sherbrooke', 'ended'],
        ['Gatineau', 'open'],
      ]);
    });

    it('refuses a blueprint with a duplicate slug or an edition ending before it starts (400 validation_error, no account created)', async () => {
      const before = await db(api).count('accounts.accounts');
      const duplicate = await api.admin('POST', '/accounts', {
        name: 'X',
        events: [
          { slug: 'a', name: 'A', status: 'published', languages: ['fr'] },
          { slug: 'a', name: 'B', status: 'published', languages: ['fr'], editions: [{ name: 'E', starts_at: '2027-01-02T00:00:00.000Z', ends_at: '2027-01-01T00:00:00.000Z' }] },
        ],
      });
      expect(duplicate.status).toBe(400);
      expect(duplicate.body.code).toBe('validation_error');
      expect(duplicate.body.details).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ field: 'events[1].slug', reason: 'duplicate' }),
          expect.objectContaining({ field: 'events[1].editions[0].ends_at', reason: 'invalid_value' }),
        ]),
      );
      const badShape = await api.admin('POST', '/accounts', { name: 'X', events: [{ slug: 'Pas Un Slug', name: 'A', status: 'ouvert', languages: [] }] });
      expect(badShape.status).toBe(400);
      expect(badShape.body.details.map((violation: any) => violation.field).sort()).toEqual(['events[0].languages', 'events[0].slug', 'events[0].status']);
      expect(await db(api).count('accounts.accounts')).toBe(before);
    });
  });

  it('first registration → 201 { data, created: true } on the next open edition in the event\'s first language, with one confirmation email in that language', async () => {
    const contact = await person({ first_name: 'Élodie', email: 'Elodie.Premiere@exemple.test' });
    const response = await register(api, key, { contact_id: contact.id, event_slug: 'salon-2027' });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      created: true,
      data: {
        id: expect.any(String),
        contact_id: contact.id,
        event_id: salon.id,
        edition_id: salon.editions[1],
        language: 'fr',
        status: 'registered',
        opted_out: false,
        created_at: EVENTS_NOW.toISOString(),
        updated_at: EVENTS_NOW.toISOString(),
      },
    });
    const emails = await confirmations('elodie.premiere@exemple.test');
    expect(emails).toHaveLength(1);
    expect(emails[0]).toMatchObject({ type: 'registration_confirmation', priority: 1, status: 'queued' });
    expect(emails[0].subject).toBe('Inscription confirmée : Salon Habitat 2027 (Montréal)');
    expect(emails[0].html).toContain('Bonjour Élodie');
    const [row] = await registrations(contact.id);
    expect(row.confirmation_email_id).toBe(emails[0].id);
    const activity = await db(api).query(`SELECT type FROM platform.activity_log WHERE account_id = $1 AND contact_id = $2 AND type = 'event_registered'`, [
      account.account_id,
      contact.id,
    ]);
    expect(activity).toHaveLength(1);
  });

  it('a registration in English gets the English confirmation; event_id works like event_slug', async () => {
    const contact = await person({ email: 'english.speaker@exemple.test', first_name: 'John' });
    const response = expectStatus(await register(api, key, { contact_id: contact.id, event_id: salon.id, language: 'en' }), 201);
    expect(response.body.data.language).toBe('en');
    const [email] = await confirmations('english.speaker@exemple.test');
    expect(email.subject).toBe('Registration confirmed: Salon Habitat 2027 (Montréal)');
    expect(email.html).toContain('Hello John');
  });

  it('one registration per contact and edition: a repeat → 200 { data: same registration, created: false } without resending the confirmation, and updates the language', async () => {
    const contact = await person({ email: 'repeat@exemple.test' });
    const first = expectStatus(await register(api, key, { contact_id: contact.id, event_slug: 'salon-2027' }), 201);
    clock.advance(60_000);
    const repeat = await register(api, key, { contact_id: contact.id, event_slug: 'salon-2027', language: 'en' });
    clock.set(EVENTS_NOW);
    expect(repeat.status).toBe(200);
    expect(repeat.body.created).toBe(false);
    expect(repeat.body.data).toEqual({ ...first.body.data, language: 'en', updated_at: new Date(EVENTS_NOW.getTime() + 60_000).toISOString() });
    expect(await confirmations('repeat@exemple.test')).toHaveLength(1);
    expect(await registrations(contact.id)).toHaveLength(1);
    // Another edition of the same event is another registration.
    const gatineau = expectStatus(await register(api, key, { contact_id: contact.id, event_slug: 'salon-2027', edition_id: salon.editions[4] }), 201);
    expect(gatineau.body.data.edition_id).toBe(salon.editions[4]);
    expect(await registrations(contact.id)).toHaveLength(2);
  });

  it('one registration per contact and edition under concurrency: simultaneous first registrations make one row, one 201 and one confirmation', async () => {
    const contact = await person({ email: 'concurrent@exemple.test' });
    const responses = await Promise.all(Array.from({ length: 5 }, () => register(api, key, { contact_id: contact.id, event_slug: 'salon-2027' })));
    expect(responses.map((response) => response.status).sort()).toEqual([200, 200, 200, 200, 201]);
    expect(new Set(responses.map((response) => response.body.data.id)).size).toBe(1);
    expect(await registrations(contact.id)).toHaveLength(1);
    expect(await confirmations('concurrent@exemple.test')).toHaveLength(1);
  });

  it('re-registers a person who had declined (status declined → registered), 200 created false, no new confirmation', async () => {
    const contact = await person({ email: 'decliner@exemple.test' });
    const first = expectStatus(await register(api, key, { contact_id: contact.id, event_slug: 'salon-2027' }), 201);
    const declined = expectStatus(await updateRegistration(api, account, first.body.data.id, { status: 'declined' }), 200);
    expect(declined.body.data.status).toBe('declined');
    const again = await register(api, key, { contact_id: contact.id, event_slug: 'salon-2027' });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ created: false, data: { id: first.body.data.id, status: 'registered' } });
    expect((await registrations(contact.id))[0].status).toBe('registered');
    expect(await confirmations('decliner@exemple.test')).toHaveLength(1);
  });

  it('a person who opted out of messages stays opted out when registering again', async () => {
    const contact = await person({ email: 'optout@exemple.test' });
    const first = expectStatus(await register(api, key, { contact_id: contact.id, event_slug: 'salon-2027' }), 201);
    expectStatus(await updateRegistration(api, account, first.body.data.id, { opted_out: true, status: 'declined' }), 200);
    const again = expectStatus(await register(api, key, { contact_id: contact.id, event_slug: 'salon-2027', language: 'en' }), 200);
    expect(again.body.data).toMatchObject({ opted_out: true, status: 'registered', language: 'en' });
    expect((await registrations(contact.id))[0].opted_out_at).not.toBeNull();
    expect(await confirmations('optout@exemple.test')).toHaveLength(1);
  });

  it('a contact without an email is registered without a confirmation', async () => {
    const contact = await createContact(api, key, { phone: '514 555 0199', first_name: 'Sans courriel' });
    expectStatus(await register(api, key, { contact_id: contact.id, event_slug: 'salon-2027' }), 201);
    expect((await registrations(contact.id))[0].confirmation_email_id).toBeNull();
  });

  describe('rejections', () => {
    let contactId: string;
    beforeAll(async () => {
      contactId = (await person()).id;
    });
    const nothingWritten = async () => expect(await registrations(contactId)).toHaveLength(0);

    it('403 feature_not_available without the events_module in the plan', async () => {
      const noModule = await api.provision(eventsBlueprint({ name: 'Sans module', features: ['public_api'] }));
      const response = await register(api, noModule.api_keys.writer.key, { contact_id: contactId, event_slug: 'salon-2027' });
      expect(response.status).toBe(403);
      expect(response.body).toMatchObject({ code: 'feature_not_available', details: { feature: 'events_module' } });
    });

    it('403 insufficient_scope without contacts:write', async () => {
      const response = await register(api, account.api_keys.reader.key, { contact_id: contactId, event_slug: 'salon-2027' });
      expect(response.status).toBe(403);
      expect(response.body).toMatchObject({ code: 'insufficient_scope', details: { required_scope: 'contacts:write' } });
      await nothingWritten();
    });

    it('404 resource_not_found details.resource contact: missing, merged, or of another account (alike)', async () => {
      const foreign = await createContact(api, other.api_keys.writer.key, { email: 'etranger@exemple.test' });
      const absorbed = await person();
      const survivor = await person();
      expectStatus(await api.admin('POST', `/accounts/${account.account_id}/contacts/${absorbed.id}/merge`, { into_contact_id: survivor.id }), 200);
      for (const id of ['00000000-0000-4000-8000-000000000000', foreign.id, absorbed.id]) {
        const response = await register(api, key, { contact_id: id, event_slug: 'salon-2027' });
        expect(response.status).toBe(404);
        expect(response.body).toMatchObject({ code: 'resource_not_found', details: { resource: 'contact' } });
      }
      expect(await db(api).count('events.registrations', 'contact_id = ANY($1::uuid[])', [[foreign.id, absorbed.id]])).toBe(0);
    });

    it('404 resource_not_found details.resource event: unknown slug or id, or another account\'s event', async () => {
      for (const body of [
        { event_slug: 'inconnu' },
        { event_id: '00000000-0000-4000-8000-000000000000' },
        { event_id: eventsOf(other)['salon-2027'].id },
      ]) {
        const response = await register(api, key, { contact_id: contactId, ...body });
        expect(response.status).toBe(404);
        expect(response.body).toMatchObject({ code: 'resource_not_found', details: { resource: 'event' } });
      }
      await nothingWritten();
    });

    it('404 resource_not_found details.resource edition: an edition of another event or account', async () => {
      for (const editionId of [eventsOf(account).passe.editions[0], eventsOf(other)['salon-2027'].editions[1], '00000000-0000-4000-8000-000000000000']) {
        const response = await register(api, key, { contact_id: contactId, event_slug: 'salon-2027', edition_id: editionId });
        expect(response.status).toBe(404);
        expect(response.body).toMatchObject({ code: 'resource_not_found', details: { resource: 'edition' } });
      }
      await nothingWritten();
    });

    it('422 business_rule_violation rule event_not_published for a draft event', async () => {
      const response = await register(api, key, { contact_id: contactId, event_slug: 'brouillon' });
      expect(response.status).toBe(422);
      expect(response.body).toMatchObject({ code: 'business_rule_violation', details: { rule: 'event_not_published' } });
      await nothingWritten();
    });

    it('422 rule event_closed: event archived, edition cancelled, or no upcoming edition', async () => {
      for (const body of [{ event_slug: 'archive' }, { event_slug: 'salon-2027', edition_id: salon.editions[2] }, { event_slug: 'passe' }]) {
        const response = await register(api, key, { contact_id: contactId, ...body });
        expect(response.status).toBe(422);
        expect(response.body).toMatchObject({ code: 'business_rule_violation', details: { rule: 'event_closed' } });
      }
      await nothingWritten();
    });

    it('422 rule event_edition_ended: an edition whose end has passed, or with status ended', async () => {
      for (const editionId of [salon.editions[0], salon.editions[3]]) {
        const response = await register(api, key, { contact_id: contactId, event_slug: 'salon-2027', edition_id: editionId });
        expect(response.status).toBe(422);
        expect(response.body).toMatchObject({ code: 'business_rule_violation', details: { rule: 'event_edition_ended' } });
      }
      await nothingWritten();
    });

    it('400 validation_error when both or neither of event_id and event_slug are sent', async () => {
      const both = await register(api, key, { contact_id: contactId, event_id: salon.id, event_slug: 'salon-2027' });
      expect(both.status).toBe(400);
      expect(both.body).toMatchObject({ code: 'validation_error', details: [{ field: 'event_id', reason: 'exclusive_field' }, { field: 'event_slug', reason: 'exclusive_field' }] });
      const neither = await register(api, key, { contact_id: contactId });
      expect(neither.status).toBe(400);
      expect(neither.body).toMatchObject({ code: 'validation_error', details: [{ field: 'event_id', reason: 'required' }, { field: 'event_slug', reason: 'required' }] });
      await nothingWritten();
    });

    it('400 validation_error for a language that is not one of the event\'s', async () => {
      const response = await register(api, key, { contact_id: contactId, event_slug: 'salon-2027', language: 'es' });
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ code: 'validation_error', details: [{ field: 'language', reason: 'invalid_value' }] });
      await nothingWritten();
    });

    it('400 validation_error for an invalid body (missing contact_id, wrong types, non-UUID ids, unknown fields) and for invalid JSON; 415 without JSON', async () => {
      const cases: [unknown, string, string][] = [
        [{ event_slug: 'salon-2027' }, 'contact_id', 'required'],
        [{ contact_id: 42, event_slug: 'salon-2027' }, 'contact_id', 'invalid_type'],
        [{ contact_id: 'pas-un-uuid', event_slug: 'salon-2027' }, 'contact_id', 'invalid_format'],
        [{ contact_id: contactId, event_id: 'pas-un-uuid' }, 'event_id', 'invalid_format'],
        [{ contact_id: contactId, event_slug: 'salon-2027', edition_id: 7 }, 'edition_id', 'invalid_type'],
        [{ contact_id: contactId, event_slug: 'salon-2027', language: 'x'.repeat(500) }, 'language', 'too_long'],
        [{ contact_id: contactId, event_slug: 'salon-2027', extra: true }, 'extra', 'unknown_field'],
      ];
      for (const [body, field, reason] of cases) {
        const response = await register(api, key, body);
        expect({ status: response.status, code: response.body.code }).toEqual({ status: 400, code: 'validation_error' });
        expect(response.body.details).toEqual(expect.arrayContaining([expect.objectContaining({ field, reason })]));
      }
      for (const raw of ['[]', '"x"', 'null']) {
        const response = await api.request({ method: 'POST', path: '/v1/event-registrations', token: key, rawBody: raw, headers: { 'content-type': 'application/json' } });
        expect(response.status).toBe(400);
      }
      const invalidJson = await api.request({ method: 'POST', path: '/v1/event-registrations', token: key, rawBody: '{"contact_id":', headers: { 'content-type': 'application/json' } });
      expect(invalidJson.status).toBe(400);
      expect(invalidJson.body.code).toBe('invalid_request');
      const deep = await api.request({
        method: 'POST',
        path: '/v1/event-registrations',
        token: key,
        rawBody: `{"contact_id":"${contactId}","event_slug":"salon-2027","x":${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}}`,
        headers: { 'content-type': 'application/json' },
      });
      expect(deep.status).toBe(400);
      expect(deep.body).toMatchObject({ code: 'invalid_request', details: { field: '', reason: 'too_deep' } });
      const text = await api.request({ method: 'POST', path: '/v1/event-registrations', token: key, rawBody: 'contact_id=x', headers: { 'content-type': 'text/plain' } });
      expect(text.status).toBe(415);
      await nothingWritten();
    });
  });

  describe('operator action on a registration', () => {
    it('404 not_found for another account\'s registration or a non-UUID id; 400 for an empty body', async () => {
      const contact = await person();
      const registration = expectStatus(await register(api, key, { contact_id: contact.id, event_slug: 'salon-2027' }), 201).body.data;
      expect((await updateRegistration(api, other, registration.id, { status: 'declined' })).status).toBe(404);
      expect((await updateRegistration(api, account, 'nope', { status: 'declined' })).status).toBe(404);
      const empty = await updateRegistration(api, account, registration.id, {});
      expect(empty.status).toBe(400);
      expect((await registrations(contact.id))[0].status).toBe('registered');
    });

    it.each([
      [{ status: null }, 'status'],
      [{ opted_out: null }, 'opted_out'],
    ])('a null member %o answers 400 validation_error on its field, never a 500 (issue 12 item 5); nothing changes', async (body, field) => {
      const contact = await person();
      const registration = expectStatus(await register(api, key, { contact_id: contact.id, event_slug: 'salon-2027' }), 201).body.data;
      const response = await updateRegistration(api, account, registration.id, body);
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ code: 'validation_error', details: [expect.objectContaining({ field })] });
      expect((await registrations(contact.id))[0]).toMatchObject({ status: 'registered', opted_out_at: null });
    });
  });
});
