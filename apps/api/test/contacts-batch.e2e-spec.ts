import { EntityManager } from 'typeorm';
import { contactsBlueprint, createContact, db, expectStatus, writeCounts } from './support/contacts-fixtures';
import { ProvisionedAccount, TestApi } from './support/test-api';

/* eslint-disable @typescript-eslint/no-explicit-any -- response bodies are asserted field by field */

/**
 * `POST /v1/contacts/batch` (issue 15, item 5): batch upsert of 1 to 100 contacts matched with the
 * lead-capture identity rules, one result per input in order, partial success, each input atomic with
 * its activity entry and outbox event, Idempotency-Key honoured (see also idempotency-key-every-post).
 * Real PostgreSQL and Redis.
 */
describe('POST /v1/contacts/batch', () => {
  let api: TestApi;
  let account: ProvisionedAccount;
  let other: ProvisionedAccount;
  let token: string;
  let seq = 0;

  beforeAll(async () => {
    api = await TestApi.start();
    account = await api.provision(contactsBlueprint());
    other = await api.provision(contactsBlueprint());
    token = account.api_keys.writer.key;
  });
  afterAll(() => api.close());

  const batch = (inputs: unknown, key = token, headers: Record<string, string> = {}) =>
    api.request({ method: 'POST', path: '/v1/contacts/batch', token: key, body: inputs === undefined ? {} : { inputs }, headers });
  const email = (name: string) => `${name}.${++seq}@example.com`;
  const phone = () => `+1514555${String(1000 + ++seq).slice(-4)}`;
  const outbox = (contactId: string) =>
    db(api).query(`SELECT type, payload FROM platform.outbox WHERE account_id = $1 AND payload->>'contact_id' = $2 ORDER BY sequence`, [account.account_id, contactId]);
  const activity = (contactId: string) =>
    db(api).query(`SELECT type, data FROM platform.activity_log WHERE account_id = $1 AND contact_id = $2 ORDER BY created_at, type`, [account.account_id, contactId]); // one clock: same instant

  it('answers 200 with one result per input in order: created, updated, unchanged, each with the contact read shape', async () => {
    const existing = await createContact(api, token, { email: email('marie.gagnon'), first_name: 'Marie' });
    const fresh = email('julie.tremblay');
    const response = await batch([
      { email: fresh.toUpperCase(), first_name: 'Julie', last_name: 'Tremblay', phone: '(418) 555-0123', company: 'Toitures Tremblay', deal_value: 4500 },
      { email: existing.email, last_name: 'Gagnon' },
      { email: existing.email.toUpperCase(), first_name: 'Marie' },
    ]);
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual([
      {
        index: 0,
        status: 'created',
        contact: expect.objectContaining({ email: fresh, first_name: 'Julie', last_name: 'Tremblay', phone: '+14185550123', company: 'Toitures Tremblay', deal_value: 4500, source: 'api' }),
      },
      { index: 1, status: 'updated', contact: { ...existing, last_name: 'Gagnon', updated_at: expect.any(String) } },
      { index: 2, status: 'unchanged', contact: expect.objectContaining({ id: existing.id, last_name: 'Gagnon' }) },
    ]);
    const created = response.body.data[0].contact;
    expect(expectStatus(await api.request({ path: `/v1/contacts/${created.id}`, token }), 200).body.data).toEqual(created);
  });

  it('each created input writes its contact with a contact_created activity entry and outbox event; each updated one lead_updated with the changes; unchanged writes nothing', async () => {
    const existing = await createContact(api, token, { email: email('luc.roy'), first_name: 'Luc' });
    const [created, updated] = expectStatus(await batch([{ email: email('ana.cote'), first_name: 'Ana' }, { email: existing.email, company: 'Roy inc.' }]), 200).body.data;
    expect((await outbox(created.contact.id)).map((row) => row.type)).toEqual(['contact_created']);
    expect((await activity(created.contact.id)).map((row) => row.type)).toEqual(['contact_created']);
    expect(await outbox(existing.id)).toEqual([
      expect.objectContaining({ type: 'contact_created' }),
      { type: 'lead_updated', payload: expect.objectContaining({ contact_id: existing.id, changes: { company: { previous: null, current: 'Roy inc.' } } }) },
    ]);
    expect((await activity(existing.id)).map((row) => [row.type, row.data.changes])).toEqual([
      ['contact_created', undefined],
      ['lead_updated', { company: { previous: null, current: 'Roy inc.' } }],
    ]);
    expect(updated.status).toBe('updated');
    const before = await writeCounts(api);
    const again = expectStatus(await batch([{ email: existing.email, company: 'Roy inc.' }]), 200).body.data;
    expect(again[0].status).toBe('unchanged');
    expect(await writeCounts(api)).toEqual(before);
  });

  it('matching: by email (case-insensitive) first, then by phone, primary or secondary; when they name two contacts the email wins and the phone stays with its holder', async () => {
    const byEmail = await createContact(api, token, { email: email('paul.lavoie'), first_name: 'Paul' });
    const withPhone = await createContact(api, token, { phone: phone(), first_name: 'Sophie' });
    const results = expectStatus(
      await batch([
        { phone: withPhone.phone, last_name: 'Bouchard' },
        { email: byEmail.email.toUpperCase(), phone: withPhone.phone, company: 'Lavoie et fils' },
      ]),
      200,
    ).body.data;
    expect(results[0]).toMatchObject({ status: 'updated', contact: { id: withPhone.id, last_name: 'Bouchard' } });
    expect(results[1]).toMatchObject({ status: 'updated', contact: { id: byEmail.id, company: 'Lavoie et fils', phone: null } });
    const [holder] = await db(api).query(`SELECT contact_id FROM contacts.contact_identities WHERE account_id = $1 AND kind = 'phone' AND value = $2`, [
      account.account_id,
      withPhone.phone,
    ]);
    expect(holder.contact_id).toBe(withPhone.id);
  });

  it('a new phone fills an empty primary phone; a different one is kept as a secondary phone that later inputs match', async () => {
    const contact = await createContact(api, token, { email: email('nadia.pelletier') });
    const first = phone();
    const second = phone();
    const results = expectStatus(await batch([{ email: contact.email, phone: first }, { email: contact.email, phone: second }, { phone: second, first_name: 'Nadia' }]), 200).body.data;
    expect(results.map((result: any) => [result.status, result.contact.id, result.contact.phone])).toEqual([
      ['updated', contact.id, first],
      ['updated', contact.id, first],
      ['updated', contact.id, first],
    ]);
    expect(results[2].contact.first_name).toBe('Nadia');
    const rows = await db(api).query(`SELECT value, is_primary FROM contacts.contact_identities WHERE contact_id = $1 AND kind = 'phone' ORDER BY is_primary DESC`, [contact.id]);
    expect(rows).toEqual([
      { value: first, is_primary: true },
      { value: second, is_primary: false },
    ]);
    const events = await outbox(contact.id);
    expect(events[2]).toMatchObject({ type: 'lead_updated', payload: { changes: {}, identities_added: [{ kind: 'phone', value: second }] } });
  });

  it('a merged contact counts for its survivor', async () => {
    const survivor = await createContact(api, token, { email: email('survivant') });
    const absorbed = await createContact(api, token, { email: email('absorbe') });
    expectStatus(await api.admin('POST', `/accounts/${account.account_id}/contacts/${absorbed.id}/merge`, { into_contact_id: survivor.id }), 200);
    const [result] = expectStatus(await batch([{ email: absorbed.email, company: 'Survivant inc.' }]), 200).body.data;
    expect(result).toMatchObject({ status: 'updated', contact: { id: survivor.id, company: 'Survivant inc.' } });
  });

  it('two inputs of one new person: created then updated (what an input writes is known to the next ones)', async () => {
    const address = email('double');
    const results = expectStatus(await batch([{ email: address, first_name: 'Éric' }, { email: address, last_name: 'Dion' }]), 200).body.data;
    expect(results.map((result: any) => result.status)).toEqual(['created', 'updated']);
    expect(results[1].contact).toMatchObject({ id: results[0].contact.id, first_name: 'Éric', last_name: 'Dion' });
    expect(await db(api).count('contacts.contacts', 'account_id = $1 AND email = $2', [account.account_id, address])).toBe(1);
  });

  it('partial success: a refused input answers its error (code, message, details as the single routes give them) and writes nothing; the others are written', async () => {
    const archived = await createContact(api, token, { email: email('archive'), deal_value: 10 });
    expectStatus(await api.admin('POST', `/accounts/${account.account_id}/contacts/${archived.id}/archive`), 200);
    const good = email('bon');
    const before = await writeCounts(api);
    const results = expectStatus(
      await batch([
        { first_name: 'Sans courriel' },
        { email: 'pas-une-adresse', phone: '123' },
        { email: email('champs'), custom_fields: { inconnu: 'x' } },
        { email: archived.email, deal_value: 99 },
        { email: email('systeme'), system_id: '00000000-0000-4000-8000-000000000000' },
        { email: email('membre'), surnom: 'Ju' },
        42,
        { email: good },
      ]),
      200,
    ).body.data;
    const errors = results.slice(0, 7).map((result: any) => ({ index: result.index, status: result.status, code: result.error.code, details: result.error.details }));
    expect(errors).toEqual([
      { index: 0, status: 'error', code: 'validation_error', details: [expect.objectContaining({ field: 'email', reason: 'identity_required' }), expect.objectContaining({ field: 'phone', reason: 'identity_required' })] },
      { index: 1, status: 'error', code: 'validation_error', details: [expect.objectContaining({ field: 'email', reason: 'invalid_format' }), expect.objectContaining({ field: 'phone', reason: 'invalid_phone' })] },
      { index: 2, status: 'error', code: 'invalid_custom_fields', details: expect.anything() },
      { index: 3, status: 'error', code: 'business_rule_violation', details: expect.objectContaining({ reason: 'contact_archived' }) },
      { index: 4, status: 'error', code: 'system_not_found', details: { field: 'system_id' } },
      { index: 5, status: 'error', code: 'validation_error', details: [expect.objectContaining({ field: 'surnom', reason: 'unknown_field' })] },
      { index: 6, status: 'error', code: 'validation_error', details: [expect.objectContaining({ field: '', reason: 'invalid_type' })] },
    ]);
    expect(results[7]).toMatchObject({ index: 7, status: 'created', contact: { email: good } });
    const after = await writeCounts(api);
    expect(after['contacts.contacts']).toBe(before['contacts.contacts'] + 1);
    expect(after['platform.outbox']).toBe(before['platform.outbox'] + 1);
    expect(after['platform.activity_log']).toBe(before['platform.activity_log'] + 1);
    expect((await api.request({ path: `/v1/contacts/${archived.id}`, token })).body.data.deal_value).toBe(10);
  });

  it('1 to 100 inputs: none, 101, or a body without inputs is 400 validation_error on inputs, nothing written', async () => {
    const before = await writeCounts(api);
    const many = Array.from({ length: 101 }, (_, index) => ({ email: `trop.${index}@example.com` }));
    for (const [inputs, reason] of [
      [[], 'too_few'],
      [many, 'too_many'],
      [undefined, 'required'],
      ['pas un tableau', 'invalid_type'],
    ] as const) {
      const response = await batch(inputs);
      expect({ status: response.status, code: response.body.code, details: response.body.details }).toEqual({
        status: 400,
        code: 'validation_error',
        details: [expect.objectContaining({ field: 'inputs', reason })],
      });
    }
    expect(await writeCounts(api)).toEqual(before);
  });

  it('100 inputs are accepted; every identity of the batch is resolved in one statement', async () => {
    // the identity lookup is the recursive statement over contacts.contact_identities (TypeOrmContactIdentityRepository.findIdentityOwners)
    const spy = jest.spyOn(EntityManager.prototype, 'query');
    try {
      const inputs = Array.from({ length: 100 }, (_, index) => ({ email: `cent.${index}@example.com`, phone: `+1438555${String(index).padStart(4, '0')}` }));
      const results = expectStatus(await batch(inputs), 200).body.data;
      expect(results).toHaveLength(100);
      expect(results.every((result: any, index: number) => result.index === index && result.status === 'created')).toBe(true);
      const lookups = spy.mock.calls.filter(([sql]) => /WITH RECURSIVE chain/.test(sql) && /contact_identities/.test(sql));
      expect(lookups).toHaveLength(1);
    } finally {
      spy.mockRestore();
    }
  });

  it('scope contacts:write: a key without it answers 403 insufficient_scope with details.required_scope, nothing written', async () => {
    const before = await writeCounts(api);
    const response = await batch([{ email: email('portee') }], account.api_keys.reader.key);
    expect({ status: response.status, code: response.body.code, details: response.body.details }).toEqual({
      status: 403,
      code: 'insufficient_scope',
      details: { required_scope: 'contacts:write' },
    });
    expect(await writeCounts(api)).toEqual(before);
  });

  it("tenant isolation: another account's contact is never matched; the input creates a contact in the caller's account", async () => {
    const theirs = await createContact(api, other.api_keys.writer.key, { email: email('autre.compte'), first_name: 'Autre' });
    const [result] = expectStatus(await batch([{ email: theirs.email, first_name: 'Mien' }]), 200).body.data;
    expect(result).toMatchObject({ status: 'created', contact: { email: theirs.email, first_name: 'Mien' } });
    expect(result.contact.id).not.toBe(theirs.id);
    expect((await api.request({ path: `/v1/contacts/${theirs.id}`, token: other.api_keys.writer.key })).body.data.first_name).toBe('Autre');
  });

  it('two concurrent batches creating the same new person make one contact (the loser re-resolves and updates it)', async () => {
    const address = email('concurrent');
    const [a, b] = await Promise.all([batch([{ email: address, first_name: 'Chloé' }]), batch([{ email: address, last_name: 'Morin' }])]);
    const statuses = [a.body.data[0].status, b.body.data[0].status].sort();
    expect(statuses).toEqual(['created', 'updated']);
    expect(await db(api).count('contacts.contacts', 'account_id = $1 AND email = $2', [account.account_id, address])).toBe(1);
  });

  it('Idempotency-Key: the same key and body replay the whole answer without writing; another body with the key is 409 idempotency_conflict', async () => {
    const inputs = [{ email: email('idem') }];
    const first = expectStatus(await batch(inputs, token, { 'idempotency-key': `batch-${seq}` }), 200);
    const before = await writeCounts(api);
    const replay = expectStatus(await batch(inputs, token, { 'idempotency-key': `batch-${seq}` }), 200);
    expect(replay.raw.body).toBe(first.raw.body);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    const conflict = await batch([{ email: email('autre') }], token, { 'idempotency-key': `batch-${seq - 1}` });
    expect({ status: conflict.status, code: conflict.body.code }).toEqual({ status: 409, code: 'idempotency_conflict' });
    expect(await writeCounts(api)).toEqual(before);
  });
});
