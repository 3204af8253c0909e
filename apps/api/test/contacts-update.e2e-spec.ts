import { newId } from '@leadflow/shared-kernel';
import { contactsBlueprint, createContact, db, expectStatus, writeCounts } from './support/contacts-fixtures';
import { ProvisionedAccount, TestApi } from './support/test-api';

/** public-api-v1 › Contacts › PATCH /v1/contacts/{id}, rules 1 to 6. */
describe('PATCH /v1/contacts/{id}', () => {
  let api: TestApi;
  let account: ProvisionedAccount;
  let token: string;
  let ids: Record<string, string>;
  let seq = 0;

  beforeAll(async () => {
    api = await TestApi.start();
    account = await api.provision(contactsBlueprint());
    token = account.api_keys.writer.key;
    ids = account.custom_fields!;
  });
  afterAll(() => api.close());

  const patch = (id: string, body: unknown, key = token) => api.request({ method: 'PATCH', path: `/v1/contacts/${id}`, token: key, body });
  const read = async (id: string) => expectStatus(await api.request({ path: `/v1/contacts/${id}`, token }), 200).body.data;
  const fresh = (body: Record<string, unknown> = {}) => createContact(api, token, { email: `patch${++seq}@example.com`, ...body });

  it('updates the fields sent and answers the contact (is_priority, notes, names, company, deal_value)', async () => {
    const contact = await fresh({ first_name: 'Avant', deal_value: 10 });
    api.clock.advance(5000);
    const response = await patch(contact.id, {
      first_name: 'Après',
      last_name: 'Roy',
      company: 'Roy inc.',
      deal_value: 2500.75,
      is_priority: true,
      notes: 'Rappeler lundi',
    });
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({
      ...contact,
      first_name: 'Après',
      last_name: 'Roy',
      company: 'Roy inc.',
      deal_value: 2500.75,
      is_priority: true,
      notes: 'Rappeler lundi',
      updated_at: api.clock.now().toISOString(),
    });
    expect(await read(contact.id)).toEqual(response.body.data);
  });

  it('notes is replaced on every write; null clears nullable fields', async () => {
    const contact = await fresh({ first_name: 'Nul', company: 'X', deal_value: 5 });
    await patch(contact.id, { notes: 'un' });
    await patch(contact.id, { notes: 'deux' });
    expect((await read(contact.id)).notes).toBe('deux');
    const response = await patch(contact.id, { notes: null, company: null, deal_value: null });
    expect(response.body.data).toMatchObject({ notes: null, company: null, deal_value: null });
  });

  it('email is stored lowercase; phone normalised to E.164; the old identities are released', async () => {
    const contact = await fresh({ phone: '5145550300' });
    const response = await patch(contact.id, { email: 'Nouveau@Example.COM', phone: '(438) 555-0301' });
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({ email: 'nouveau@example.com', phone: '+14385550301' });
    const identities = await db(api).query(`SELECT kind, value, is_primary FROM contacts.contact_identities WHERE contact_id = $1 ORDER BY kind`, [contact.id]);
    expect(identities).toEqual([
      { kind: 'email', value: 'nouveau@example.com', is_primary: true },
      { kind: 'phone', value: '+14385550301', is_primary: true },
    ]);
    // The previous email and phone belong to nobody now; the new ones are taken.
    expectStatus(await api.request({ method: 'POST', path: '/v1/contacts', token, body: { email: contact.email, phone: '5145550300' } }), 201);
    const taken = await api.request({ method: 'POST', path: '/v1/contacts', token, body: { email: 'NOUVEAU@example.com' } });
    expect(taken.body).toMatchObject({ code: 'duplicate_contact', data: { id: contact.id } });
  });

  it('rule 1: at least one field, else 400 no_fields', async () => {
    const contact = await fresh();
    const before = await writeCounts(api);
    const response = await patch(contact.id, {});
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ code: 'no_fields', details: null, type: 'invalid_request_error' });
    expect(await writeCounts(api)).toEqual(before);
  });

  describe('rule 2: custom_fields', () => {
    it('merges with existing values (keys by name or id)', async () => {
      const contact = await fresh({ custom_fields: { budget: '5k', superficie: 80 } });
      const response = await patch(contact.id, { custom_fields: { [ids.budget]: '15k', type_projet: 'sous_sol' } });
      expect(response.status).toBe(200);
      expect(response.body.data.custom_fields).toEqual({ [ids.budget]: '15k', [ids.superficie]: 80, [ids.type_projet]: 'sous_sol' });
    });

    it('a null value removes one key; custom_fields null clears all', async () => {
      const contact = await fresh({ custom_fields: { budget: '5k', superficie: 80 } });
      expect((await patch(contact.id, { custom_fields: { budget: null } })).body.data.custom_fields).toEqual({ [ids.superficie]: 80 });
      const cleared = await patch(contact.id, { custom_fields: null });
      expect(cleared.status).toBe(200);
      expect(cleared.body.data.custom_fields).toEqual({});
      expect((await read(contact.id)).custom_fields).toEqual({});
    });

    it('an unknown key gives 400 invalid_custom_fields with violations; nothing is modified', async () => {
      const contact = await fresh({ first_name: 'Garde', custom_fields: { budget: '5k' } });
      const before = await writeCounts(api);
      const response = await patch(contact.id, { first_name: 'Changé', custom_fields: { budget: '9k', couleur: 'bleu', superficie: 'grand' } });
      expect(response.status).toBe(400);
      expect(response.body.code).toBe('invalid_custom_fields');
      expect(response.body.details).toEqual([
        expect.objectContaining({ field: 'custom_fields.couleur', reason: 'unknown_field' }),
        expect.objectContaining({ field: 'custom_fields.superficie', reason: 'invalid_type' }),
      ]);
      expect(await read(contact.id)).toEqual(contact);
      expect(await writeCounts(api)).toEqual(before);
    });
  });

  describe('rule 3: email or phone held by another contact', () => {
    it.each([
      ['email', (other: Record<string, string>) => ({ email: other.email.toUpperCase() })],
      ['phone', () => ({ phone: '514 555 0400' })],
    ])('%s: 409 duplicate_resource with details.conflicting_field; nothing is modified', async (field, body) => {
      const other = await fresh({ phone: '5145550400' });
      const contact = await fresh({ first_name: 'Intact' });
      const before = await writeCounts(api);
      const response = await patch(contact.id, { first_name: 'Modifié', ...body(other) });
      expect(response.status).toBe(409);
      expect(response.body).toMatchObject({ code: 'duplicate_resource', details: { conflicting_field: field } });
      expect(await read(contact.id)).toEqual(contact);
      expect(await writeCounts(api)).toEqual(before);
      await db(api).query(`DELETE FROM contacts.contact_identities WHERE contact_id = $1`, [other.id]);
    });

    it("another contact's secondary identity also conflicts", async () => {
      const other = await fresh();
      await db(api).query(
        `INSERT INTO contacts.contact_identities (account_id, contact_id, kind, value, is_primary, created_at) VALUES ($1, $2, 'email', 'second@example.com', false, now())`,
        [account.account_id, other.id],
      );
      const contact = await fresh();
      const response = await patch(contact.id, { email: 'second@example.com' });
      expect(response.status).toBe(409);
      expect(response.body.details).toEqual({ conflicting_field: 'email' });
      expect((await read(contact.id)).email).toBe(contact.email);
    });

    it("the contact's own secondary identity becomes its primary", async () => {
      const contact = await fresh();
      await db(api).query(
        `INSERT INTO contacts.contact_identities (account_id, contact_id, kind, value, is_primary, created_at) VALUES ($1, $2, 'phone', '+15145550444', false, now())`,
        [account.account_id, contact.id],
      );
      const response = await patch(contact.id, { phone: '5145550444' });
      expect(response.status).toBe(200);
      const rows = await db(api).query(`SELECT value, is_primary FROM contacts.contact_identities WHERE contact_id = $1 AND kind = 'phone'`, [contact.id]);
      expect(rows).toEqual([{ value: '+15145550444', is_primary: true }]);
    });

    it('sending its own email again is not a conflict', async () => {
      const contact = await fresh();
      expect((await patch(contact.id, { email: contact.email.toUpperCase(), first_name: 'Moi' })).status).toBe(200);
    });
  });

  describe('rule 4: invalid values give 400 validation_error with details[].field', () => {
    it('a phone not normalising to E.164 gives reason invalid_phone; nothing is modified', async () => {
      const contact = await fresh({ phone: '5145550500' });
      const before = await writeCounts(api);
      const response = await patch(contact.id, { phone: 'appelez-moi', first_name: 'Non' });
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ code: 'validation_error', details: [expect.objectContaining({ field: 'phone', reason: 'invalid_phone' })] });
      expect(await read(contact.id)).toEqual(contact);
      expect(await writeCounts(api)).toEqual(before);
    });

    it('clearing the last identity field gives reason identity_required', async () => {
      const contact = await fresh();
      const response = await patch(contact.id, { email: null });
      expect(response.status).toBe(400);
      expect(response.body.details).toEqual([expect.objectContaining({ field: 'email', reason: 'identity_required' })]);
      expect((await read(contact.id)).email).toBe(contact.email);
      const emptied = await patch(contact.id, { email: '', first_name: null, last_name: '  ' });
      expect(emptied.body.details.map((d: { field: string; reason: string }) => [d.field, d.reason])).toEqual([
        ['first_name', 'identity_required'],
        ['last_name', 'identity_required'],
        ['email', 'identity_required'],
      ]);
    });

    it('clearing the email keeps the contact when a name remains, and releases the email', async () => {
      const contact = await fresh({ first_name: 'Reste' });
      const response = await patch(contact.id, { email: null });
      expect(response.status).toBe(200);
      expect(response.body.data.email).toBeNull();
      expect(await db(api).count('contacts.contact_identities', 'contact_id = $1', [contact.id])).toBe(0);
    });

    it.each([
      [{ email: 'pas un courriel' }, 'email', 'invalid_format'],
      [{ deal_value: -1 }, 'deal_value', 'invalid_value'],
      [{ deal_value: 'cent' }, 'deal_value', 'invalid_type'],
      [{ is_priority: 'oui' }, 'is_priority', 'invalid_type'],
      [{ is_priority: null }, 'is_priority', 'invalid_type'],
      [{ first_name: 'x'.repeat(201) }, 'first_name', 'too_long'],
      [{ notes: 'x'.repeat(10_001) }, 'notes', 'too_long'],
      [{ custom_fields: ['budget'] }, 'custom_fields', 'invalid_type'],
      [{ id: newId() }, 'id', 'unknown_field'],
      [{ system_id: newId() }, 'system_id', 'unknown_field'],
    ])('%j gives details[].field %s reason %s', async (body, field, reason) => {
      const contact = await fresh();
      const response = await patch(contact.id, body);
      expect(response.status).toBe(400);
      expect(response.body.code).toBe('validation_error');
      expect(response.body.details).toEqual([expect.objectContaining({ field, reason })]);
      expect(await read(contact.id)).toEqual(contact);
    });
  });

  describe('rule 5: deal_value of an archived contact', () => {
    it('changing it gives 422 business_rule_violation reason contact_archived; no field is written', async () => {
      const contact = await fresh({ deal_value: 100, first_name: 'Archivé' });
      const { merged_into_contact_id: _merged, ...archived } = expectStatus(
        await api.admin('POST', `/accounts/${account.account_id}/contacts/${contact.id}/archive`),
        200,
      ).body.data;
      const before = await writeCounts(api);
      const response = await patch(contact.id, { deal_value: 200, first_name: 'Changé', is_priority: true });
      expect(response.status).toBe(422);
      expect(response.body).toMatchObject({ code: 'business_rule_violation', type: 'unprocessable_error', details: { reason: 'contact_archived' } });
      expect(await read(contact.id)).toEqual(archived);
      expect(await writeCounts(api)).toEqual(before);
    });

    it('clearing it is a change too; other fields of an archived contact stay writable', async () => {
      const contact = await fresh({ deal_value: 100 });
      await api.admin('POST', `/accounts/${account.account_id}/contacts/${contact.id}/archive`);
      expect((await patch(contact.id, { deal_value: null })).status).toBe(422);
      const response = await patch(contact.id, { notes: 'archivé mais annoté', deal_value: 100 });
      expect(response.status).toBe(200);
      expect(response.body.data).toMatchObject({ notes: 'archivé mais annoté', deal_value: 100 });
    });
  });

  describe('rule 6: emits lead_updated', () => {
    it('writes a lead_updated outbox row with the changes and an activity-log entry, in the same transaction', async () => {
      const contact = await fresh({ first_name: 'Evt', deal_value: 10 });
      const response = await patch(contact.id, { first_name: 'Événement', deal_value: 12.5, custom_fields: { budget: '1k' } });
      expect(response.status).toBe(200);
      const events = await db(api).query(`SELECT type, account_id, payload, actor, occurred_at FROM platform.outbox WHERE type = 'lead_updated' AND payload->>'contact_id' = $1`, [
        contact.id,
      ]);
      const actor = { type: 'api_key', id: account.api_keys.writer.id, name: 'writer', via: 'api_key' };
      expect(events).toEqual([
        {
          type: 'lead_updated',
          account_id: account.account_id,
          actor,
          occurred_at: api.clock.now(),
          payload: {
            contact_id: contact.id,
            contact: response.body.data,
            changes: {
              first_name: { previous: 'Evt', current: 'Événement' },
              deal_value: { previous: 10, current: 12.5 },
              custom_fields: { previous: {}, current: { [ids.budget]: '1k' } },
            },
          },
        },
      ]);
      const activity = await db(api).query(`SELECT type, actor, data FROM platform.activity_log WHERE contact_id = $1 AND type = 'lead_updated'`, [contact.id]);
      expect(activity).toEqual([{ type: 'lead_updated', actor, data: { changes: events[0].payload.changes } }]);
    });

    it('a refused update writes no lead_updated', async () => {
      const contact = await fresh();
      await patch(contact.id, { phone: 'x' });
      await patch(contact.id, {});
      expect(await db(api).count('platform.outbox', `type = 'lead_updated' AND payload->>'contact_id' = $1`, [contact.id])).toBe(0);
    });
  });

  it('an unknown or non-UUID id gives 404 not_found', async () => {
    for (const id of [newId(), 'abc']) {
      const response = await patch(id, { first_name: 'X' });
      expect(response.status).toBe(404);
      expect(response.body).toMatchObject({ code: 'not_found', details: { resource: 'contact' } });
    }
  });

  it('needs contacts:write (403 insufficient_scope with details.required_scope); nothing is modified', async () => {
    const contact = await fresh();
    const response = await patch(contact.id, { first_name: 'Lecteur' }, account.api_keys.reader.key);
    expect(response.status).toBe(403);
    expect(response.body).toMatchObject({ code: 'insufficient_scope', details: { required_scope: 'contacts:write' } });
    expect(await read(contact.id)).toEqual(contact);
  });
});
