import { CommandBus } from '@nestjs/cqrs';
import { FixedClock, newId } from '@leadflow/shared-kernel';
import { bookingsBlueprint } from './support/bookings-fixtures';
import { createContact, createTag, db, envelope, expectStatus, writeCounts } from './support/contacts-fixtures';
import { EXAMPLE_EVENTS } from './support/events-fixtures';
import { createQuote, QUOTE_DEFAULTS, SENDABLE, sendQuote } from './support/quotes-fixtures';
import { PUBLIC_TARGET } from './support/webhooks-fixtures';
import { ProvisionedAccount, TestApi } from './support/test-api';

/* eslint-disable @typescript-eslint/no-explicit-any -- response bodies are asserted field by field */

/** Weekdays of March 2027 after the fixed clock (2027-03-01 12:00 UTC), one Consultation slot each (10:00 in Montreal). */
const SLOTS = ['02', '03', '04', '05', '08', '09', '10', '11', '12', '15', '16', '17'].map((day) => `2027-03-${day}T15:00:00Z`);

/**
 * `POST /v1/contacts/{id}/merge` (issue 15, item 6): dry run and real merge on real PostgreSQL and
 * Redis. The merged contact's bookings, quotes and event registrations are moved by their contexts'
 * published commands inside the merge's transaction.
 */
describe('POST /v1/contacts/{id}/merge', () => {
  let api: TestApi;
  let account: ProvisionedAccount;
  let other: ProvisionedAccount;
  let token: string;
  let seq = 0;
  let slot = 0;

  beforeAll(async () => {
    api = await TestApi.start({}, new FixedClock(new Date('2027-03-01T12:00:00.000Z')));
    const blueprint = () => bookingsBlueprint({ quote_defaults: QUOTE_DEFAULTS, events: EXAMPLE_EVENTS });
    account = await api.provision(blueprint());
    other = await api.provision(blueprint());
    token = account.api_keys.full.key;
  });
  afterAll(() => api.close());

  const merge = (id: string, body: unknown, key = token) => api.request({ method: 'POST', path: `/v1/contacts/${id}/merge`, token: key, body });
  const email = (name: string) => `${name}.${++seq}@example.com`;
  const read = (id: string, key = token) => api.request({ path: `/v1/contacts/${id}`, token: key });
  const calendar = () => (account.calendars as Record<string, string>).Consultation;
  const editions = () => (account.events as Record<string, { editions: string[] }>)['salon-2027'].editions;

  /** A merged contact with a phone, a company, a tag, a deal, a booking, a sent quote and two registrations; a survivor with an email, a name and one registration. */
  async function scenario() {
    const survivor = await createContact(api, token, { email: email('julie.tremblay'), first_name: 'Julie', last_name: 'Tremblay' });
    const mergedEmail = email('j.tremblay');
    const merged = await createContact(api, token, { email: mergedEmail, phone: `+1418555${String(1000 + seq).slice(-4)}`, first_name: 'Juliette', company: 'Toitures Tremblay' });
    const tag = await createTag(api, token, { name: `Salon ${seq}` });
    expectStatus(await api.request({ method: 'POST', path: `/v1/contacts/${merged.id}/tags`, token, body: { tag_ids: [tag.id] } }), 200);
    expectStatus(await api.request({ method: 'POST', path: '/v1/pipeline/deals', token, body: { contact_id: merged.id, stage_id: account.pipelines!.ventes.stages.nouveau } }), 201);
    const booking = expectStatus(
      await api.request({
        method: 'POST',
        path: '/v1/bookings',
        token,
        body: { event_type_id: calendar(), start_datetime: SLOTS[slot++], contact_id: merged.id, form_responses: { adresse: { value: '12 rue Principale, Québec' } } },
      }),
      201,
    ).body.data;
    const quote = await createQuote(api, token, { ...SENDABLE, prospect_email: mergedEmail, prospect_name: 'Juliette Tremblay' });
    expectStatus(await sendQuote(api, token, quote.id), 200);
    const register = async (contactId: string, editionId: string) =>
      expectStatus(await api.request({ method: 'POST', path: '/v1/event-registrations', token, body: { contact_id: contactId, event_slug: 'salon-2027', edition_id: editionId } }), 201).body.data;
    const [, montreal, , , gatineau] = editions();
    const skipped = await register(merged.id, montreal);
    const moved = await register(merged.id, gatineau);
    await register(survivor.id, montreal);
    return { survivor, merged, tag, booking, quote, registrations: { skipped, moved } };
  }

  it('dry run answers what the survivor would become (fields kept and filled, identities, tags, deals, bookings, quotes, registrations) and writes nothing', async () => {
    const { survivor, merged, tag, booking, quote, registrations } = await scenario();
    const before = await writeCounts(api);
    const outboxBefore = await db(api).count('platform.outbox');
    const response = await merge(merged.id, { into: survivor.id, dry_run: true });
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({
      dry_run: true,
      merged_contact_id: merged.id,
      survivor: { ...survivor, phone: merged.phone, company: 'Toitures Tremblay', updated_at: api.clock.now().toISOString() },
      fields: { kept: ['first_name', 'email'], filled: ['company', 'phone', 'stage_id'] },
      identities: {
        count: 2,
        items: [
          { kind: 'email', value: merged.email, primary: false },
          { kind: 'phone', value: merged.phone, primary: true },
        ],
      },
      tags: { count: 1, ids: [tag.id] },
      deals: { count: 1, ids: [merged.id] },
      bookings: { count: 1, ids: [booking.id] },
      quotes: { count: 1, ids: [quote.id] },
      registrations: { count: 1, ids: [registrations.moved.id], skipped_ids: [registrations.skipped.id] },
    });
    expect(await writeCounts(api)).toEqual(before);
    expect(await db(api).count('platform.outbox')).toBe(outboxBefore);
    expectStatus(await read(merged.id), 200);
  });

  it('the real merge answers the dry run report and does it all in one transaction: the merged id answers 404, the survivor holds its fields, identities, tags, deal, booking, quote and registrations', async () => {
    const { survivor, merged, tag, booking, quote, registrations } = await scenario();
    const dry = expectStatus(await merge(merged.id, { into: survivor.id, dry_run: true }), 200).body.data;
    const real = expectStatus(await merge(merged.id, { into: survivor.id, dry_run: false }), 200).body.data;
    expect(real).toEqual({ ...dry, dry_run: false });

    expect(envelope(await read(merged.id))).toMatchObject({ status: 404, code: 'not_found' });
    expect(expectStatus(await read(survivor.id), 200).body.data).toEqual(real.survivor);
    expect(expectStatus(await api.request({ path: `/v1/contacts/${survivor.id}?expand=tags`, token }), 200).body.data.client_contact_tags.map((t: any) => t.id)).toEqual([tag.id]);
    const identities = await db(api).query(`SELECT kind, value, is_primary, contact_id FROM contacts.contact_identities WHERE account_id = $1 AND value IN ($2, $3) ORDER BY kind`, [
      account.account_id,
      merged.email,
      merged.phone,
    ]);
    expect(identities).toEqual([
      { kind: 'email', value: merged.email, is_primary: false, contact_id: survivor.id },
      { kind: 'phone', value: merged.phone, is_primary: true, contact_id: survivor.id },
    ]);
    const deals = expectStatus(await api.request({ path: '/v1/pipeline/deals', token }), 200).body.data.map((deal: any) => deal.id);
    expect(deals).toContain(survivor.id);
    expect(deals).not.toContain(merged.id);
    const bookings = expectStatus(await api.request({ path: `/v1/bookings?contact_id=${survivor.id}`, token }), 200).body.data.map((item: any) => item.id);
    expect(bookings).toEqual([booking.id]);
    expect(expectStatus(await api.request({ path: `/v1/quotes/${quote.id}`, token }), 200).body.data.contact_id).toBe(survivor.id);
    const rows = await db(api).query(`SELECT id, contact_id FROM events.registrations WHERE id = ANY($1::uuid[]) ORDER BY created_at, id`, [[registrations.moved.id, registrations.skipped.id]]);
    expect(Object.fromEntries(rows.map((row) => [row.id, row.contact_id]))).toEqual({ [registrations.moved.id]: survivor.id, [registrations.skipped.id]: merged.id });
  });

  it('the merged contact resolves to its survivor: its email and phone find the survivor (batch upsert, new contacts refused as duplicates)', async () => {
    const { survivor, merged } = await scenario();
    expectStatus(await merge(merged.id, { into: survivor.id }), 200);
    const [result] = expectStatus(await api.request({ method: 'POST', path: '/v1/contacts/batch', token, body: { inputs: [{ email: merged.email }] } }), 200).body.data;
    expect(result.contact.id).toBe(survivor.id);
    const duplicate = await api.request({ method: 'POST', path: '/v1/contacts', token, body: { phone: merged.phone } });
    expect({ status: duplicate.status, code: duplicate.body.code, id: duplicate.body.data?.id }).toEqual({ status: 409, code: 'duplicate_contact', id: survivor.id });
  });

  it('emits contact_merged (a webhook catalog event) with the report, lead_updated for the survivor and stage_changed for the deal that moved; activity contact_merged and contact_absorbed', async () => {
    expectStatus(await api.request({ method: 'POST', path: '/v1/webhooks', token, body: { url: PUBLIC_TARGET, events: ['contact_merged'] } }), 201);
    const { survivor, merged } = await scenario();
    const [{ last }] = await db(api).query(`SELECT max(sequence)::bigint AS last FROM platform.outbox`);
    const report = expectStatus(await merge(merged.id, { into: survivor.id }), 200).body.data;
    const events = await db(api).query(`SELECT type, payload FROM platform.outbox WHERE account_id = $1 AND sequence > $2 ORDER BY sequence`, [account.account_id, last]);
    expect(events.map((event) => event.type)).toEqual(['contact_merged', 'lead_updated', 'stage_changed']);
    const { dry_run: _dryRun, merged_contact_id: _merged, ...rest } = report;
    expect(events[0].payload).toEqual({ contact_id: merged.id, into_contact_id: survivor.id, ...rest });
    expect(events[1].payload.changes).toEqual({ company: { previous: null, current: 'Toitures Tremblay' }, phone: { previous: null, current: merged.phone } });
    expect(events[2].payload).toMatchObject({ contact_id: survivor.id, from_stage_id: null, to_stage_id: account.pipelines!.ventes.stages.nouveau });
    const activity = await db(api).query(`SELECT type, contact_id FROM platform.activity_log WHERE type IN ('contact_merged', 'contact_absorbed') AND contact_id IN ($1, $2) ORDER BY type`, [merged.id, survivor.id]);
    expect(activity).toEqual([
      { type: 'contact_absorbed', contact_id: survivor.id },
      { type: 'contact_merged', contact_id: merged.id },
    ]);
  });

  it('all or nothing: a failure in another context during the merge rolls everything back', async () => {
    const { survivor, merged, booking, quote } = await scenario();
    const bus = api.app.get(CommandBus);
    const original = bus.execute.bind(bus);
    const spy = jest.spyOn(bus, 'execute').mockImplementation((async (command: any) => {
      if (command.constructor.name === 'ReassignContactRegistrationsCommand' && !command.dryRun) throw new Error('registrations unavailable');
      return original(command);
    }) as any);
    const before = await writeCounts(api);
    try {
      const response = await merge(merged.id, { into: survivor.id });
      expect({ status: response.status, code: response.body.code }).toEqual({ status: 500, code: 'internal_error' });
    } finally {
      spy.mockRestore();
    }
    expect(await writeCounts(api)).toEqual(before);
    expect(expectStatus(await read(merged.id), 200).body.data).toEqual(expect.objectContaining({ id: merged.id, phone: merged.phone }));
    expect(expectStatus(await api.request({ path: `/v1/bookings?contact_id=${merged.id}`, token }), 200).body.data.map((item: any) => item.id)).toEqual([booking.id]);
    expect(expectStatus(await api.request({ path: `/v1/quotes/${quote.id}`, token }), 200).body.data.contact_id).toBe(merged.id);
  });

  describe('refusals (nothing written)', () => {
    let a: any;
    let b: any;
    beforeAll(async () => {
      a = await createContact(api, token, { email: email('refus.a') });
      b = await createContact(api, token, { email: email('refus.b') });
    });

    const refused = async (id: string, body: unknown, key = token) => {
      const before = await writeCounts(api);
      const response = await merge(id, body, key);
      expect(await writeCounts(api)).toEqual(before);
      return response;
    };

    it('merging a contact into itself is 400 validation_error on into (invalid_value)', async () => {
      for (const dryRun of [true, false]) {
        const response = await refused(a.id, { into: a.id.toUpperCase(), dry_run: dryRun });
        expect({ status: response.status, code: response.body.code, details: response.body.details }).toEqual({
          status: 400,
          code: 'validation_error',
          details: [expect.objectContaining({ field: 'into', reason: 'invalid_value' })],
        });
      }
    });

    it("into a missing contact or another account's is 404 not_found with details.field into, both answering alike", async () => {
      const theirs = await createContact(api, other.api_keys.full.key, { email: email('autre') });
      const missing = await refused(a.id, { into: newId() });
      const foreign = await refused(a.id, { into: theirs.id });
      expect(envelope(missing)).toEqual({ ...envelope(foreign), doc_url: expect.any(String) });
      expect({ status: missing.status, code: missing.body.code, details: missing.body.details }).toEqual({ status: 404, code: 'not_found', details: { resource: 'contact', field: 'into' } });
      expect(expectStatus(await read(theirs.id, other.api_keys.full.key), 200).body.data.id).toBe(theirs.id);
    });

    it("a missing, non-UUID or another account's path id is 404 not_found, alike", async () => {
      const theirs = await createContact(api, other.api_keys.full.key, { email: email('autre.chemin') });
      const answers = [await refused(newId(), { into: b.id }), await refused('pas-un-id', { into: b.id }), await refused(theirs.id, { into: b.id })];
      for (const answer of answers) expect({ status: answer.status, code: answer.body.code, details: answer.body.details }).toEqual({ status: 404, code: 'not_found', details: { resource: 'contact' } });
    });

    it('a contact already merged is 404 not_found; merging into a merged contact is 404 not_found on into', async () => {
      const absorbed = await createContact(api, token, { email: email('deja') });
      expectStatus(await merge(absorbed.id, { into: b.id }), 200);
      const again = await refused(absorbed.id, { into: a.id });
      expect({ status: again.status, code: again.body.code, details: again.body.details }).toEqual({ status: 404, code: 'not_found', details: { resource: 'contact' } });
      const into = await refused(a.id, { into: absorbed.id, dry_run: true });
      expect({ status: into.status, code: into.body.code, details: into.body.details }).toEqual({ status: 404, code: 'not_found', details: { resource: 'contact', field: 'into' } });
    });

    it('into missing or not a UUID, or dry_run not a boolean, is 400 validation_error', async () => {
      const cases: [unknown, string, string][] = [
        [{}, 'into', 'required'],
        [{ into: 'abc' }, 'into', 'invalid_format'],
        [{ into: 42 }, 'into', 'invalid_type'],
        [{ into: b.id, dry_run: 'oui' }, 'dry_run', 'invalid_type'],
        [{ into: b.id, force: true }, 'force', 'unknown_field'],
      ];
      for (const [body, field, reason] of cases) {
        const response = await refused(a.id, body);
        expect({ status: response.status, code: response.body.code, details: response.body.details }).toEqual({
          status: 400,
          code: 'validation_error',
          details: [expect.objectContaining({ field, reason })],
        });
      }
    });

    it('scope contacts:delete: a key with contacts:write only answers 403 insufficient_scope, dry run included', async () => {
      for (const dryRun of [true, false]) {
        const response = await refused(a.id, { into: b.id, dry_run: dryRun }, account.api_keys.contacts.key);
        expect({ status: response.status, code: response.body.code, details: response.body.details }).toEqual({
          status: 403,
          code: 'insufficient_scope',
          details: { required_scope: 'contacts:delete' },
        });
      }
    });
  });
});
