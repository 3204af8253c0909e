import { newId } from '@leadflow/shared-kernel';
import { contactsBlueprint, createContact, createTag, db, ensureCampaignTag, expectStatus, writeCounts } from './support/contacts-fixtures';
import { ProvisionedAccount, TestApi } from './support/test-api';

/** DELETE /v1/contacts/{id}, GET …/timeline, POST/DELETE …/tags, POST …/notes (public-api-v1 › Contacts; operator-api › decisions). */
describe('contact sub-resources', () => {
  let api: TestApi;
  let account: ProvisionedAccount;
  let full: string;
  let writer: string;
  let seq = 0;

  beforeAll(async () => {
    api = await TestApi.start();
    account = await api.provision(contactsBlueprint());
    full = account.api_keys.full.key;
    writer = account.api_keys.writer.key;
  });
  afterAll(() => api.close());

  const fresh = (body: Record<string, unknown> = {}) => createContact(api, writer, { email: `child${++seq}@example.com`, ...body });

  describe('DELETE /v1/contacts/{id}', () => {
    it('deletes the contact and its dependent rows; answers { data: { id, deleted: true, cleanup: { failed: 0 } } }', async () => {
      const contact = await fresh({ phone: '5145550600' });
      const tag = await createTag(api, writer, { name: 'À supprimer' });
      expectStatus(await api.request({ method: 'POST', path: `/v1/contacts/${contact.id}/tags`, token: writer, body: { tag_ids: [tag.id] } }), 200);
      expectStatus(await api.request({ method: 'POST', path: `/v1/contacts/${contact.id}/notes`, token: writer, body: { body: 'note' } }), 201);

      const response = await api.request({ method: 'DELETE', path: `/v1/contacts/${contact.id}`, token: full });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ data: { id: contact.id, deleted: true, cleanup: { attempted: 0, failed: 0 } } });

      expect((await api.request({ path: `/v1/contacts/${contact.id}`, token: full })).status).toBe(404);
      for (const table of ['contacts.contacts', 'contacts.contact_identities', 'contacts.contact_tags', 'contacts.contact_notes']) {
        const column = table === 'contacts.contacts' ? 'id' : 'contact_id';
        expect(await db(api).count(table, `${column} = $1`, [contact.id])).toBe(0);
      }
      // The tag itself stays; the email and phone are free again.
      expect(await db(api).count('contacts.tags', 'id = $1', [tag.id])).toBe(1);
      expectStatus(await api.request({ method: 'POST', path: '/v1/contacts', token: writer, body: { email: contact.email, phone: '5145550600' } }), 201);
      const [event] = await db(api).query(`SELECT payload FROM platform.outbox WHERE type = 'contact_deleted' AND payload->'contact_ids' ? $1`, [contact.id]);
      expect(event.payload).toEqual({ contact_ids: [contact.id] });
    });

    it('a deleted, missing or non-UUID id gives 404 not_found', async () => {
      const contact = await fresh();
      expectStatus(await api.request({ method: 'DELETE', path: `/v1/contacts/${contact.id}`, token: full }), 200);
      for (const id of [contact.id, newId(), 'nope']) {
        const response = await api.request({ method: 'DELETE', path: `/v1/contacts/${id}`, token: full });
        expect(response.status).toBe(404);
        expect(response.body).toMatchObject({ code: 'not_found', details: { resource: 'contact' } });
      }
    });

    it('needs contacts:delete (403 insufficient_scope with details.required_scope); nothing deleted', async () => {
      const contact = await fresh();
      const before = await writeCounts(api);
      const response = await api.request({ method: 'DELETE', path: `/v1/contacts/${contact.id}`, token: writer });
      expect(response.status).toBe(403);
      expect(response.body).toMatchObject({ code: 'insufficient_scope', details: { required_scope: 'contacts:delete' } });
      expect(await writeCounts(api)).toEqual(before);
      expect((await api.request({ path: `/v1/contacts/${contact.id}`, token: writer })).status).toBe(200);
    });
  });

  describe('GET /v1/contacts/{id}/timeline (stub)', () => {
    it('always returns an empty list with valid pagination', async () => {
      const contact = await fresh();
      await api.request({ method: 'POST', path: `/v1/contacts/${contact.id}/notes`, token: writer, body: { body: 'note' } });
      const response = await api.request({ path: `/v1/contacts/${contact.id}/timeline`, token: account.api_keys.reader.key });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ data: [], pagination: { next_cursor: null, has_more: false, limit: 20, total_count: 0 } });
      const limited = await api.request({ path: `/v1/contacts/${contact.id}/timeline?limit=5&cursor=2026-01-01T00:00:00.000Z`, token: writer });
      expect(limited.body.pagination).toEqual({ next_cursor: null, has_more: false, limit: 5, total_count: 0 });
    });

    it.each([
      ['limit=0', 'limit'],
      ['limit=101', 'limit'],
      ['limit=abc', 'limit'],
      ['cursor=garbage!', 'cursor'],
    ])('pagination is validated: %s gives 400 invalid_request with details.field %s', async (query, field) => {
      const contact = await fresh();
      const response = await api.request({ path: `/v1/contacts/${contact.id}/timeline?${query}`, token: writer });
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ code: 'invalid_request', details: { field } });
    });

    it('an unknown contact gives 404 not_found', async () => {
      const response = await api.request({ path: `/v1/contacts/${newId()}/timeline`, token: writer });
      expect(response.status).toBe(404);
      expect(response.body.code).toBe('not_found');
    });

    it('needs contacts:read', async () => {
      const contact = await fresh();
      const response = await api.request({ path: `/v1/contacts/${contact.id}/timeline`, token: account.api_keys.tagger.key });
      expect(response.status).toBe(403);
      expect(response.body.details).toEqual({ required_scope: 'contacts:read' });
    });
  });

  describe('POST /v1/contacts/{id}/tags', () => {
    const attach = (id: string, tagIds: unknown[], token = writer) => api.request({ method: 'POST', path: `/v1/contacts/${id}/tags`, token, body: { tag_ids: tagIds } });
    const linkCount = (contactId: string) => db(api).count('contacts.contact_tags', 'contact_id = $1', [contactId]);

    it("attaches the tags and answers 200 with the contact's tags (id, name, color, system_key), sorted by name", async () => {
      const contact = await fresh();
      const zeta = await createTag(api, writer, { name: 'Zeta' });
      const alpha = await createTag(api, writer, { name: 'Alpha', color: '#ABCDEF' });
      const response = await attach(contact.id, [zeta.id, alpha.id.toUpperCase()]);
      expect(response.status).toBe(200);
      expect(response.body.data).toEqual([
        expect.objectContaining({ id: alpha.id, name: 'Alpha', color: '#abcdef', system_key: null }),
        expect.objectContaining({ id: zeta.id, name: 'Zeta', color: '#6b7280', system_key: null }),
      ]);
      const activity = await db(api).query(`SELECT type, data FROM platform.activity_log WHERE contact_id = $1 AND type = 'tag_added' ORDER BY data->>'tag_name'`, [
        contact.id,
      ]);
      expect(activity).toEqual([
        { type: 'tag_added', data: { tag_id: alpha.id, tag_name: 'Alpha' } },
        { type: 'tag_added', data: { tag_id: zeta.id, tag_name: 'Zeta' } },
      ]);
    });

    it('is idempotent: attaching twice creates no duplicate', async () => {
      const contact = await fresh();
      const tag = await createTag(api, writer, { name: 'Deux fois' });
      expectStatus(await attach(contact.id, [tag.id, tag.id]), 200);
      const again = await attach(contact.id, [tag.id]);
      expect(again.status).toBe(200);
      expect(again.body.data).toHaveLength(1);
      expect(await linkCount(contact.id)).toBe(1);
      expect(await db(api).count('platform.activity_log', `contact_id = $1 AND type = 'tag_added'`, [contact.id])).toBe(1);
    });

    it('tags not in the account give 400 validation_error listing them; none of the request is attached', async () => {
      const contact = await fresh();
      const good = await createTag(api, writer, { name: 'Bon' });
      const missing = newId();
      const before = await writeCounts(api);
      const response = await attach(contact.id, [good.id, missing, 'pas-un-uuid', 42]);
      expect(response.status).toBe(400);
      expect(response.body.code).toBe('validation_error');
      expect(response.body.details).toEqual([
        expect.objectContaining({ field: 'tag_ids[2]', reason: 'invalid_format' }),
        expect.objectContaining({ field: 'tag_ids[3]', reason: 'invalid_type' }),
        expect.objectContaining({ field: 'tag_ids[1]', reason: 'not_found_in_tenant', message: expect.stringContaining(missing) }),
      ]);
      expect(await writeCounts(api)).toEqual(before);
    });

    it('a campaign tag not on the contact gives 409 tag_managed_by_service and none of the request is attached', async () => {
      const contact = await fresh();
      const campaign = await ensureCampaignTag(api, account, 'printemps-2026', 'Printemps 2026');
      const normal = await createTag(api, writer, { name: 'Normal' });
      const before = await writeCounts(api);
      const response = await attach(contact.id, [normal.id, campaign.id]);
      expect(response.status).toBe(409);
      expect(response.body).toMatchObject({ code: 'tag_managed_by_service', details: { tag_ids: [campaign.id] } });
      expect(await writeCounts(api)).toEqual(before);
    });

    it('a campaign tag already on the contact is ignored; the other tags are attached', async () => {
      const contact = await fresh();
      const campaign = await ensureCampaignTag(api, account, 'ete-2026', 'Été 2026');
      // Attached by the service (lead capture).
      await db(api).query(`INSERT INTO contacts.contact_tags (account_id, contact_id, tag_id, created_at) VALUES ($1, $2, $3, now())`, [
        account.account_id,
        contact.id,
        campaign.id,
      ]);
      const normal = await createTag(api, writer, { name: 'Avec campagne' });
      const response = await attach(contact.id, [campaign.id, normal.id]);
      expect(response.status).toBe(200);
      expect(response.body.data.map((tag: { name: string }) => tag.name)).toEqual(['Avec campagne', 'Campagne : Été 2026']);
      expect(response.body.data[1]).toMatchObject({ system_key: 'campaign:ete-2026' });
    });

    it('an unknown contact gives 404 not_found', async () => {
      const tag = await createTag(api, writer, { name: 'Orphelin' });
      const response = await attach(newId(), [tag.id]);
      expect(response.status).toBe(404);
      expect(response.body.code).toBe('not_found');
    });

    it.each([
      [{}, 'tag_ids', 'required'],
      [{ tag_ids: [] }, 'tag_ids', 'too_few'],
      [{ tag_ids: 'abc' }, 'tag_ids', 'invalid_type'],
      [{ tag_ids: Array.from({ length: 101 }, () => newId()) }, 'tag_ids', 'too_many'],
      [{ tag_ids: [newId()], color: '#fff' }, 'color', 'unknown_field'],
    ])('body %j gives 400 validation_error field %s reason %s', async (body, field, reason) => {
      const contact = await fresh();
      const response = await api.request({ method: 'POST', path: `/v1/contacts/${contact.id}/tags`, token: writer, body });
      expect(response.status).toBe(400);
      expect(response.body.details).toEqual([expect.objectContaining({ field, reason })]);
      expect(await linkCount(contact.id)).toBe(0);
    });

    it('needs contacts:write', async () => {
      const contact = await fresh();
      const tag = await createTag(api, writer, { name: 'Scope' });
      const response = await attach(contact.id, [tag.id], account.api_keys.reader.key);
      expect(response.status).toBe(403);
      expect(response.body.details).toEqual({ required_scope: 'contacts:write' });
      expect(await linkCount(contact.id)).toBe(0);
    });
  });

  describe('DELETE /v1/contacts/{id}/tags/{tag_id}', () => {
    const detach = (id: string, tagId: string, token = writer) => api.request({ method: 'DELETE', path: `/v1/contacts/${id}/tags/${tagId}`, token });

    it('detaches one tag: 204 without a body; the others stay', async () => {
      const contact = await fresh();
      const keep = await createTag(api, writer, { name: 'Garder' });
      const drop = await createTag(api, writer, { name: 'Retirer' });
      expectStatus(await api.request({ method: 'POST', path: `/v1/contacts/${contact.id}/tags`, token: writer, body: { tag_ids: [keep.id, drop.id] } }), 200);
      const response = await detach(contact.id, drop.id);
      expect(response.status).toBe(204);
      expect(response.raw.body).toBe('');
      const read = await api.request({ path: `/v1/contacts/${contact.id}?expand=tags`, token: writer });
      expect(read.body.data.client_contact_tags.map((tag: { id: string }) => tag.id)).toEqual([keep.id]);
      expect(await db(api).count('platform.activity_log', `contact_id = $1 AND type = 'tag_removed'`, [contact.id])).toBe(1);
      // Detaching a tag that is not on the contact is a no-op.
      expect((await detach(contact.id, drop.id)).status).toBe(204);
    });

    it('an unknown or non-UUID tag, or an unknown contact, gives 404 not_found', async () => {
      const contact = await fresh();
      const tag = await createTag(api, writer, { name: 'Existe' });
      for (const response of [await detach(contact.id, newId()), await detach(contact.id, 'abc')]) {
        expect(response.status).toBe(404);
        expect(response.body).toMatchObject({ code: 'not_found', details: { resource: 'tag' } });
      }
      const noContact = await detach(newId(), tag.id);
      expect(noContact.status).toBe(404);
      expect(noContact.body.details).toEqual({ resource: 'contact' });
    });

    it('a campaign tag is managed by the service: 409 tag_managed_by_service, kept', async () => {
      const contact = await fresh();
      const campaign = await ensureCampaignTag(api, account, 'hiver-2026', 'Hiver 2026');
      await db(api).query(`INSERT INTO contacts.contact_tags (account_id, contact_id, tag_id, created_at) VALUES ($1, $2, $3, now())`, [
        account.account_id,
        contact.id,
        campaign.id,
      ]);
      const response = await detach(contact.id, campaign.id);
      expect(response.status).toBe(409);
      expect(response.body.code).toBe('tag_managed_by_service');
      expect(await db(api).count('contacts.contact_tags', 'contact_id = $1', [contact.id])).toBe(1);
    });

    it('needs contacts:write', async () => {
      const contact = await fresh();
      const tag = await createTag(api, writer, { name: 'Scope détache' });
      const response = await detach(contact.id, tag.id, account.api_keys.reader.key);
      expect(response.status).toBe(403);
      expect(response.body.details).toEqual({ required_scope: 'contacts:write' });
    });
  });

  describe('POST /v1/contacts/{id}/notes', () => {
    const addNote = (id: string, body: unknown, token = writer) => api.request({ method: 'POST', path: `/v1/contacts/${id}/notes`, token, body });

    it('adds a note to the timeline: 201 { data: note }, a note_added entry and a note_created event', async () => {
      const contact = await fresh();
      const response = await addNote(contact.id, { body: 'A rappelé, veut une soumission.' });
      expect(response.status).toBe(201);
      expect(response.body).toEqual({
        data: { id: expect.any(String), contact_id: contact.id, body: 'A rappelé, veut une soumission.', created_at: api.clock.now().toISOString() },
      });
      const [row] = await db(api).query(`SELECT contact_id, body, actor FROM contacts.contact_notes WHERE id = $1`, [response.body.data.id]);
      expect(row).toEqual({
        contact_id: contact.id,
        body: 'A rappelé, veut une soumission.',
        actor: { type: 'api_key', id: account.api_keys.writer.id, name: 'writer', via: 'api_key' },
      });
      expect(await db(api).count('platform.activity_log', `contact_id = $1 AND type = 'note_added'`, [contact.id])).toBe(1);
      expect(await db(api).count('platform.outbox', `type = 'note_created' AND payload->>'note_id' = $1`, [response.body.data.id])).toBe(1);
    });

    it('accepts exactly 10000 characters', async () => {
      const contact = await fresh();
      expect((await addNote(contact.id, { body: 'x'.repeat(10_000) })).status).toBe(201);
    });

    it.each([
      [{}, 'body', 'required'],
      [{ body: '' }, 'body', 'required'],
      [{ body: null }, 'body', 'required'],
      [{ body: '   ' }, 'body', 'required'],
      [{ body: 'x'.repeat(10_001) }, 'body', 'too_long'],
      [{ body: 12 }, 'body', 'invalid_type'],
      [{ body: 'ok', pinned: true }, 'pinned', 'unknown_field'],
    ])('body %j gives 400 validation_error field %s reason %s; nothing written', async (body, field, reason) => {
      const contact = await fresh();
      const before = await writeCounts(api);
      const response = await addNote(contact.id, body);
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ code: 'validation_error', details: [expect.objectContaining({ field, reason })] });
      expect(await writeCounts(api)).toEqual(before);
    });

    it('an unknown contact gives 404; needs contacts:write', async () => {
      expect((await addNote(newId(), { body: 'x' })).status).toBe(404);
      const contact = await fresh();
      const response = await addNote(contact.id, { body: 'x' }, account.api_keys.reader.key);
      expect(response.status).toBe(403);
      expect(response.body.details).toEqual({ required_scope: 'contacts:write' });
    });
  });
});
