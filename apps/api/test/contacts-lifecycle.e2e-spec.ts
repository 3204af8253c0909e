import { newId } from '@leadflow/shared-kernel';
import { contactsBlueprint, createContact, db, envelope, expectStatus, writeCounts } from './support/contacts-fixtures';
import { ProvisionedAccount, TestApi } from './support/test-api';

/**
 * Contact lifecycle driven by the operator (operator-api › Further operator endpoints) and how the
 * public API treats archived and merged contacts (public-api-v1 › shared conventions › Merged contacts).
 */
describe('contact lifecycle (operator) and merged / archived contacts', () => {
  let api: TestApi;
  let account: ProvisionedAccount;
  let token: string;
  let seq = 0;

  beforeAll(async () => {
    api = await TestApi.start();
    account = await api.provision(contactsBlueprint());
    token = account.api_keys.full.key;
  });
  afterAll(() => api.close());

  const action = (contactId: string, name: string, body?: unknown, accountId = account.account_id) =>
    api.admin('POST', `/accounts/${accountId}/contacts/${contactId}/${name}`, body);
  const fresh = (body: Record<string, unknown> = {}) => createContact(api, token, { email: `life${++seq}@example.com`, ...body });
  const listIds = async (query = '') =>
    (await api.request({ path: `/v1/contacts?limit=100${query}`, token })).body.data.map((contact: { id: string }) => contact.id);

  describe('archive / unarchive', () => {
    it('archive answers 200 { data: contact } with archived_at; idempotent; unarchive restores', async () => {
      const contact = await fresh();
      const archived = await action(contact.id, 'archive');
      expect(archived.status).toBe(200);
      expect(archived.body.data).toEqual({
        ...contact,
        archived_at: api.clock.now().toISOString(),
        updated_at: api.clock.now().toISOString(),
        merged_into_contact_id: null,
      });
      api.clock.advance(1000);
      const again = await action(contact.id, 'archive');
      expect(again.body.data.archived_at).toBe(archived.body.data.archived_at);
      expect(await db(api).count('platform.activity_log', `contact_id = $1 AND type = 'contact_archived'`, [contact.id])).toBe(1);
      expect(await db(api).count('platform.outbox', `type = 'contact_archived' AND payload->>'contact_id' = $1`, [contact.id])).toBe(1);
      const restored = await action(contact.id, 'unarchive');
      expect(restored.status).toBe(200);
      expect(restored.body.data.archived_at).toBeNull();
    });

    it('archived contacts stay readable and listed (the contacts list names no exclusion)', async () => {
      const contact = await fresh();
      await action(contact.id, 'archive');
      expect((await api.request({ path: `/v1/contacts/${contact.id}`, token })).body.data.archived_at).not.toBeNull();
      expect(await listIds()).toContain(contact.id);
    });
  });

  describe('disqualify', () => {
    it('marks the lead disqualified (200, idempotent)', async () => {
      const contact = await fresh();
      const response = await action(contact.id, 'disqualify');
      expect(response.status).toBe(200);
      expect(response.body.data.disqualified_at).toBe(api.clock.now().toISOString());
      const [row] = await db(api).query(`SELECT disqualified_at FROM contacts.contacts WHERE id = $1`, [contact.id]);
      expect(row.disqualified_at).toEqual(api.clock.now());
      expect((await action(contact.id, 'disqualify')).status).toBe(200);
      expect(await db(api).count('platform.activity_log', `contact_id = $1 AND type = 'contact_disqualified'`, [contact.id])).toBe(1);
    });
  });

  describe('merge / unmerge', () => {
    it('a merged contact is omitted from lists and counts, answers 404 on reads, updates and deletes; the survivor is used', async () => {
      const survivor = await fresh({ first_name: 'Survivant' });
      const absorbed = await fresh({ first_name: 'Absorbé', phone: '5145550700' });
      const tag = expectStatus(await api.request({ method: 'POST', path: '/v1/tags', token, body: { name: 'Fusion' } }), 201).body.data;
      expectStatus(await api.request({ method: 'POST', path: `/v1/contacts/${absorbed.id}/tags`, token, body: { tag_ids: [tag.id] } }), 200);
      const totalBefore = (await api.request({ path: '/v1/contacts', token })).body.pagination.total_count;

      const merged = await action(absorbed.id, 'merge', { into_contact_id: survivor.id });
      expect(merged.status).toBe(200);
      expect(merged.body.data).toEqual({ ...absorbed, merged_into_contact_id: survivor.id, updated_at: api.clock.now().toISOString() });

      const list = await api.request({ path: '/v1/contacts?limit=100', token });
      expect(list.body.data.map((c: { id: string }) => c.id)).not.toContain(absorbed.id);
      expect(list.body.pagination.total_count).toBe(totalBefore - 1);
      expect(await listIds(`&tag=${tag.id}`)).toEqual([]);
      expect(await listIds('&search=Absorbé')).toEqual([]);

      const missing = envelope(await api.request({ path: `/v1/contacts/${newId()}`, token }));
      const routes = [
        api.request({ path: `/v1/contacts/${absorbed.id}`, token }),
        api.request({ method: 'PATCH', path: `/v1/contacts/${absorbed.id}`, token, body: { first_name: 'X' } }),
        api.request({ method: 'DELETE', path: `/v1/contacts/${absorbed.id}`, token }),
        api.request({ path: `/v1/contacts/${absorbed.id}/timeline`, token }),
        api.request({ method: 'POST', path: `/v1/contacts/${absorbed.id}/tags`, token, body: { tag_ids: [tag.id] } }),
        api.request({ method: 'DELETE', path: `/v1/contacts/${absorbed.id}/tags/${tag.id}`, token }),
        api.request({ method: 'POST', path: `/v1/contacts/${absorbed.id}/notes`, token, body: { body: 'x' } }),
      ];
      for (const response of await Promise.all(routes)) expect(envelope(response)).toEqual(missing);

      // Its phone now identifies the survivor.
      const duplicate = await api.request({ method: 'POST', path: '/v1/contacts', token, body: { phone: '514-555-0700' } });
      expect(duplicate.status).toBe(409);
      expect(duplicate.body.data.id).toBe(survivor.id);
      expect(await db(api).count('contacts.contacts', 'id = $1', [absorbed.id])).toBe(1);

      // Unmerge: the absorbed id works again.
      const restored = await action(absorbed.id, 'unmerge');
      expect(restored.status).toBe(200);
      expect(restored.body.data).toMatchObject({ id: absorbed.id, first_name: 'Absorbé', merged_into_contact_id: null });
      expect((await api.request({ path: `/v1/contacts/${absorbed.id}?expand=tags`, token })).body.data.client_contact_tags).toHaveLength(1);
      expect(await listIds()).toContain(absorbed.id);
      expect((await api.request({ method: 'POST', path: '/v1/contacts', token, body: { phone: '514-555-0700' } })).body.data.id).toBe(absorbed.id);
      expect(await db(api).count('platform.activity_log', `contact_id = $1 AND type IN ('contact_merged', 'contact_unmerged')`, [absorbed.id])).toBe(2);
    });

    it('merge chains resolve to the final survivor', async () => {
      const a = await fresh({ email: 'chain-a@example.com' });
      const b = await fresh();
      const c = await fresh();
      expectStatus(await action(a.id, 'merge', { into_contact_id: b.id }), 200);
      expectStatus(await action(b.id, 'merge', { into_contact_id: c.id }), 200);
      const response = await api.request({ method: 'POST', path: '/v1/contacts', token, body: { email: 'chain-a@example.com' } });
      expect(response.body).toMatchObject({ code: 'duplicate_contact', data: { id: c.id } });
    });

    it('deleting a survivor deletes the contacts merged into it', async () => {
      const survivor = await fresh();
      const absorbed = await fresh({ email: 'absorbed-deleted@example.com' });
      expectStatus(await action(absorbed.id, 'merge', { into_contact_id: survivor.id }), 200);
      expectStatus(await api.request({ method: 'DELETE', path: `/v1/contacts/${survivor.id}`, token }), 200);
      expect(await db(api).count('contacts.contacts', 'id = ANY($1::uuid[])', [[survivor.id, absorbed.id]])).toBe(0);
      expect((await action(absorbed.id, 'unmerge')).status).toBe(404);
      expectStatus(await api.request({ method: 'POST', path: '/v1/contacts', token, body: { email: 'absorbed-deleted@example.com' } }), 201);
    });

    it('merging into itself gives 400 validation_error; into a missing or merged contact 404 not_found (field into_contact_id)', async () => {
      const contact = await fresh();
      const before = await writeCounts(api);
      const self = await action(contact.id, 'merge', { into_contact_id: contact.id });
      expect(self.status).toBe(400);
      expect(self.body.details).toEqual([expect.objectContaining({ field: 'into_contact_id', reason: 'invalid_value' })]);
      const missing = await action(contact.id, 'merge', { into_contact_id: newId() });
      expect(missing.status).toBe(404);
      expect(missing.body).toMatchObject({ code: 'not_found', details: { resource: 'contact', field: 'into_contact_id' } });
      const invalid = await action(contact.id, 'merge', { into_contact_id: 'abc' });
      expect(invalid.status).toBe(400);
      expect(invalid.body.details).toEqual([expect.objectContaining({ field: 'into_contact_id', reason: 'invalid_format' })]);
      const absent = await action(contact.id, 'merge', {});
      expect(absent.body.details).toEqual([expect.objectContaining({ field: 'into_contact_id', reason: 'required' })]);
      expect(await writeCounts(api)).toEqual(before);
    });

    it('unmerge of a contact that is not merged answers it unchanged', async () => {
      const contact = await fresh();
      const response = await action(contact.id, 'unmerge');
      expect(response.status).toBe(200);
      expect(response.body.data).toEqual({ ...contact, merged_into_contact_id: null });
    });

    it('a merged contact cannot be archived, disqualified or merged again (404)', async () => {
      const survivor = await fresh();
      const absorbed = await fresh();
      await action(absorbed.id, 'merge', { into_contact_id: survivor.id });
      for (const name of ['archive', 'unarchive', 'disqualify']) expect((await action(absorbed.id, name)).status).toBe(404);
      expect((await action(absorbed.id, 'merge', { into_contact_id: survivor.id })).status).toBe(404);
      expect((await action(survivor.id, 'merge', { into_contact_id: absorbed.id })).status).toBe(404);
    });
  });

  it('every action answers 404 for a missing or non-UUID contact, or an unknown account', async () => {
    const contact = await fresh();
    for (const name of ['archive', 'unarchive', 'unmerge', 'disqualify']) {
      for (const [accountId, contactId] of [
        [account.account_id, newId()],
        [account.account_id, 'nope'],
        [newId(), contact.id],
        ['nope', contact.id],
      ]) {
        const response = await action(contactId, name, undefined, accountId);
        expect(response.status).toBe(404);
        expect(response.body.code).toBe('not_found');
      }
    }
  });

  it('the operator API needs the admin token', async () => {
    const contact = await fresh();
    const response = await api.request({ method: 'POST', path: `/admin/v1/accounts/${account.account_id}/contacts/${contact.id}/archive`, token });
    expect(response.status).toBe(401);
    expect((await api.request({ path: `/v1/contacts/${contact.id}`, token })).body.data.archived_at).toBeNull();
  });
});

describe('blueprint custom_fields (POST /admin/v1/accounts)', () => {
  let api: TestApi;

  beforeAll(async () => {
    api = await TestApi.start();
  });
  afterAll(() => api.close());

  it('creates the definitions and answers custom_fields { name: id }', async () => {
    const account = await api.provision(contactsBlueprint());
    expect(Object.keys(account.custom_fields!)).toEqual([
      'budget',
      'description',
      'site_web',
      'courriel_secondaire',
      'cellulaire',
      'superficie',
      'type_projet',
      'date_debut',
      'financement',
    ]);
    const rows = await db(api).query(`SELECT id, name, type, options FROM contacts.custom_field_definitions WHERE account_id = $1 ORDER BY position`, [
      account.account_id,
    ]);
    expect(rows.map((row) => [row.name, row.id])).toEqual(Object.entries(account.custom_fields!));
    expect(rows.find((row) => row.name === 'type_projet')).toMatchObject({ type: 'select', options: ['cuisine', 'salle_de_bain', 'sous_sol'] });
    expect(rows.find((row) => row.name === 'budget')).toMatchObject({ type: 'text', options: null });
  });

  it('an account without custom_fields answers an empty object', async () => {
    const account = await api.provision({});
    expect(account.custom_fields).toEqual({});
  });

  it.each([
    [[{ name: 'a', type: 'color' }], 'custom_fields[0].type', 'invalid_value'],
    [[{ type: 'text' }], 'custom_fields[0].name', 'required'],
    [[{ name: 'a', type: 'text', extra: 1 }], 'custom_fields[0].extra', 'unknown_field'],
    [[{ name: 'choix', type: 'select' }], 'custom_fields[0].options', 'too_few'],
    [[{ name: 'a', type: 'text' }, { name: 'a', type: 'number' }], 'custom_fields[1].name', 'duplicate'],
    ['budget', 'custom_fields', 'invalid_type'],
  ])('refuses %j with 400 validation_error (%s %s) and creates nothing (one transaction)', async (customFields, field, reason) => {
    const before = await writeCounts(api);
    const accounts = await db(api).count('accounts.accounts');
    const response = await api.admin('POST', '/accounts', { name: 'Refusé', custom_fields: customFields });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('validation_error');
    expect(response.body.details).toEqual(expect.arrayContaining([expect.objectContaining({ field, reason })]));
    expect(await db(api).count('accounts.accounts')).toBe(accounts);
    expect(await writeCounts(api)).toEqual(before);
  });
});
