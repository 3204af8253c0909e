import { newId } from '@leadflow/shared-kernel';
import { contactsBlueprint, createTag, db, ensureCampaignTag, writeCounts } from './support/contacts-fixtures';
import { ProvisionedAccount, TestApi } from './support/test-api';

/** public-api-v1 › Tags and › Tag. */
describe('tags', () => {
  let api: TestApi;
  let account: ProvisionedAccount;
  let writer: string;

  beforeAll(async () => {
    api = await TestApi.start();
    account = await api.provision(contactsBlueprint());
    writer = account.api_keys.writer.key;
  });
  afterAll(() => api.close());

  const post = (body: unknown, token = writer) => api.request({ method: 'POST', path: '/v1/tags', token, body });
  const tagsNamed = (name: string) => db(api).count('contacts.tags', 'account_id = $1 AND name = $2', [account.account_id, name]);

  describe('POST /v1/tags', () => {
    it('creates a tag: 201 { data: tag } with color default #6b7280', async () => {
      const response = await post({ name: 'Chaud' });
      expect(response.status).toBe(201);
      expect(response.body).toEqual({
        data: {
          id: expect.any(String),
          name: 'Chaud',
          color: '#6b7280',
          description: null,
          category: null,
          system_key: null,
          created_at: api.clock.now().toISOString(),
        },
      });
      expect(await tagsNamed('Chaud')).toBe(1);
    });

    it('keeps color (#RRGGBB), description and category', async () => {
      const tag = await createTag(api, writer, { name: 'Rénovation', color: '#1A2B3C', description: 'Projets de rénovation', category: 'projet' });
      expect(tag).toMatchObject({ name: 'Rénovation', color: '#1a2b3c', description: 'Projets de rénovation', category: 'projet' });
    });

    it('missing name: 400 validation_error field name reason required; nothing written', async () => {
      for (const body of [{}, { name: null }, { name: '   ' }, { color: '#000000' }]) {
        const before = await writeCounts(api);
        const response = await post(body);
        expect(response.status).toBe(400);
        expect(response.body).toMatchObject({ code: 'validation_error', details: [expect.objectContaining({ field: 'name', reason: 'required' })] });
        expect(await writeCounts(api)).toEqual(before);
      }
    });

    it('duplicate name: 409 duplicate_resource; names are case-sensitive', async () => {
      await createTag(api, writer, { name: 'VIP' });
      const before = await writeCounts(api);
      const response = await post({ name: 'VIP', color: '#ff0000' });
      expect(response.status).toBe(409);
      expect(response.body).toMatchObject({ code: 'duplicate_resource', type: 'conflict_error', details: { field: 'name' } });
      expect(await writeCounts(api)).toEqual(before);
      expect(await tagsNamed('VIP')).toBe(1);
      expect((await post({ name: 'vip' })).status).toBe(201);
    });

    it('concurrent creates of one name: one 201, the others 409 duplicate_resource', async () => {
      const responses = await Promise.all(Array.from({ length: 5 }, () => post({ name: 'Course' })));
      expect(responses.map((response) => response.status).sort()).toEqual([201, 409, 409, 409, 409]);
      expect(await tagsNamed('Course')).toBe(1);
    });

    it.each(['Campagne : Printemps', 'campagne:', 'CAMPAGNE  :  x', '  Campagne:Été', 'campagne\u00a0: nbsp'])(
      'a name starting with "Campagne :" in any casing and spacing (%p): 400 validation_error field name reason reserved_prefix; nothing written',
      async (name) => {
        const before = await writeCounts(api);
        const response = await post({ name });
        expect(response.status).toBe(400);
        expect(response.body).toMatchObject({ code: 'validation_error', details: [expect.objectContaining({ field: 'name', reason: 'reserved_prefix' })] });
        expect(await writeCounts(api)).toEqual(before);
      },
    );

    it('"Campagne" without the colon, or later in the name, is allowed', async () => {
      expect((await post({ name: 'Campagne' })).status).toBe(201);
      expect((await post({ name: 'Ma Campagne : automne' })).status).toBe(201);
    });

    it.each([
      [{ name: 'Couleur', color: 'red' }, 'color', 'invalid_format'],
      [{ name: 'Couleur', color: '#fff' }, 'color', 'invalid_format'],
      [{ name: 'x'.repeat(101) }, 'name', 'too_long'],
      [{ name: 42 }, 'name', 'invalid_type'],
      [{ name: 'Desc', description: 'x'.repeat(1001) }, 'description', 'too_long'],
      [{ name: 'Cat', category: ['a'] }, 'category', 'invalid_type'],
      [{ name: 'Sys', system_key: 'campaign:x' }, 'system_key', 'unknown_field'],
    ])('body %j gives 400 validation_error field %s reason %s', async (body, field, reason) => {
      const before = await writeCounts(api);
      const response = await post(body);
      expect(response.status).toBe(400);
      expect(response.body.details).toEqual([expect.objectContaining({ field, reason })]);
      expect(await writeCounts(api)).toEqual(before);
    });

    it('needs tags:write (403 insufficient_scope with details.required_scope)', async () => {
      const response = await post({ name: 'Interdit' }, account.api_keys.reader.key);
      expect(response.status).toBe(403);
      expect(response.body).toMatchObject({ code: 'insufficient_scope', details: { required_scope: 'tags:write' } });
      expect(await tagsNamed('Interdit')).toBe(0);
    });
  });

  describe('campaign tags (published EnsureCampaignTagCommand)', () => {
    it('creates "Campagne : <name>" with system_key campaign:<slug> once, and finds it afterwards', async () => {
      const first = await ensureCampaignTag(api, account, 'salon-2027', 'Salon Habitat 2027');
      expect(first).toMatchObject({ name: 'Campagne : Salon Habitat 2027', system_key: 'campaign:salon-2027', color: '#6b7280' });
      const again = await ensureCampaignTag(api, account, 'salon-2027', 'Autre nom');
      expect(again).toEqual(first);
      expect(await db(api).count('contacts.tags', `system_key = 'campaign:salon-2027'`)).toBe(1);
    });

    it('two campaigns with the same name get distinct tag names', async () => {
      const a = await ensureCampaignTag(api, account, 'noel-a', 'Noël');
      const b = await ensureCampaignTag(api, account, 'noel-b', 'Noël');
      expect(a.name).toBe('Campagne : Noël');
      expect(b.name).toBe('Campagne : Noël (noel-b)');
    });

    it('refuses an invalid slug or a blank name with validation_error', async () => {
      await expect(ensureCampaignTag(api, account, 'Pas Un Slug', 'x')).rejects.toMatchObject({ code: 'validation_error' });
      await expect(ensureCampaignTag(api, account, 'ok', ' ')).rejects.toMatchObject({ code: 'validation_error' });
    });
  });

  describe('GET /v1/tags', () => {
    let other: TestApi;

    beforeAll(async () => {
      other = await TestApi.start();
      const fresh = await other.provision(contactsBlueprint());
      const token = fresh.api_keys.writer.key;
      for (const name of ['delta', 'Alpha', 'charlie', 'Bravo', 'echo', 'alpha']) await createTag(other, token, { name });
      (other as unknown as { token: string }).token = token;
    });
    afterAll(() => other.close());

    const list = (query = '') => other.request({ path: `/v1/tags${query}`, token: (other as unknown as { token: string }).token });

    it('sorts name ASC, id ASC and answers the pagination object', async () => {
      const response = await list();
      expect(response.status).toBe(200);
      const names: string[] = response.body.data.map((tag: { name: string }) => tag.name);
      const rows = await db(other).query<{ name: string }>(`SELECT name FROM contacts.tags ORDER BY name ASC, id ASC`);
      expect(names).toEqual(rows.map((row) => row.name));
      expect(names).toHaveLength(6);
      expect(response.body.pagination).toEqual({ next_cursor: null, has_more: false, limit: 20, total_count: 6 });
    });

    it('walks every page with next_cursor until has_more is false', async () => {
      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const response = await list(`?limit=4${cursor ? `&cursor=${cursor}` : ''}`);
        expect(response.status).toBe(200);
        expect(response.body.pagination.total_count).toBe(6);
        seen.push(...response.body.data.map((tag: { id: string }) => tag.id));
        cursor = response.body.pagination.next_cursor;
        pages++;
        if (!response.body.pagination.has_more) expect(cursor).toBeNull();
      } while (cursor);
      expect(pages).toBe(2);
      expect(seen).toEqual((await list('?limit=100')).body.data.map((tag: { id: string }) => tag.id));
    });

    it.each([
      ['limit=0', 'limit'],
      ['limit=101', 'limit'],
      ['limit=abc', 'limit'],
      ['cursor=@@', 'cursor'],
      ['cursor=2026-01-01T00:00:00.000Z', 'cursor'],
    ])('%s gives 400 invalid_request with details.field %s', async (query, field) => {
      const response = await list(`?${query}`);
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ code: 'invalid_request', details: { field } });
    });

    it("lists only the calling account's tags", async () => {
      const mine = await list('?limit=100');
      const theirs = await db(other).query<{ id: string }>(`SELECT id FROM contacts.tags`);
      expect(mine.body.data.map((tag: { id: string }) => tag.id).sort()).toEqual(theirs.map((row) => row.id).sort());
      const second = await other.provision(contactsBlueprint());
      await createTag(other, second.api_keys.writer.key, { name: 'Alpha' });
      expect((await list('?limit=100')).body.pagination.total_count).toBe(6);
      const secondList = await other.request({ path: '/v1/tags', token: second.api_keys.reader.key });
      expect(secondList.body.data.map((tag: { name: string }) => tag.name)).toEqual(['Alpha']);
    });

    it('needs tags:read (403 insufficient_scope with details.required_scope)', async () => {
      const response = await api.request({ path: '/v1/tags', token: account.api_keys.capture.key });
      expect(response.status).toBe(403);
      expect(response.body).toMatchObject({ code: 'insufficient_scope', details: { required_scope: 'tags:read' } });
    });
  });

  it('an unknown tag id on a contact is answered like a missing one (see contacts-children)', async () => {
    expect(newId()).not.toBe(newId());
  });
});
