import { BLUEPRINT_TABLES, sqlOf } from './support/sql';
import { messagingBlueprint, SAMPLE_CONVERSATIONS } from './support/messaging-fixtures';
import { ProvisionedAccount, TestApi } from './support/test-api';

/* eslint-disable @typescript-eslint/no-explicit-any -- bodies are asserted field by field */

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UNKNOWN_ID = '6f1c8a52-3a0e-4c55-9a51-4f1b7c1d2e3f';

/** `GET /v1/conversations…` (public-api-v1 › Endpoints › Conversations) and the blueprint member `conversations`. */
describe('Conversations API (read-only)', () => {
  let api: TestApi;
  let sql: ReturnType<typeof sqlOf>;
  let mine: ProvisionedAccount;
  let other: ProvisionedAccount;
  let ids: string[];

  const token = (account: ProvisionedAccount = mine, name = 'reader') => account.api_keys[name].key;
  const get = (path: string, query: Record<string, string> = {}, key = token()) => api.request({ path, token: key, query });

  beforeAll(async () => {
    api = await TestApi.start();
    sql = sqlOf(api);
    mine = await api.provision(messagingBlueprint({ conversations: SAMPLE_CONVERSATIONS }));
    other = await api.provision(messagingBlueprint({ name: 'Toitures Bergeron', conversations: [SAMPLE_CONVERSATIONS[0]] }));
    ids = mine.conversations as string[];
  });
  afterAll(() => api.close());

  describe('blueprint member conversations', () => {
    it('seeds one thread per item and answers conversations: [ids] in blueprint order', async () => {
      expect(ids).toHaveLength(3);
      const rows = await sql.query<any>(`SELECT id, message_count FROM messaging.conversations WHERE account_id = $1`, [mine.account_id]);
      expect(new Map(rows.map((row) => [row.id, row.message_count]))).toEqual(new Map([[ids[0], 4], [ids[1], 1], [ids[2], 0]]));
    });

    it('answers conversations: [] when the blueprint has none', async () => {
      const account = await api.provision(messagingBlueprint({ name: 'Sans conversations' }));
      expect(account.conversations).toEqual([]);
    });

    it('refuses a bad message (role, author_kind, missing content) with 400 validation_error naming the path, and creates nothing of the account', async () => {
      const before = await Promise.all(BLUEPRINT_TABLES.map((table) => sql.count(table)));
      const conversationsBefore = await sql.count('messaging.conversations');

      const response = await api.admin('POST', '/accounts', {
        name: 'Refusé',
        conversations: [
          { agent_slug: 'sofia', messages: [{ role: 'user', author_kind: 'visitor', content: 'ok' }] },
          { messages: [{ role: 'robot', author_kind: 'alien' }] },
        ],
      });

      expect(response.status).toBe(400);
      expect(response.body.code).toBe('validation_error');
      expect(response.body.details).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ field: 'conversations[1].messages[0].role', reason: 'invalid_value' }),
          expect.objectContaining({ field: 'conversations[1].messages[0].author_kind', reason: 'invalid_value' }),
          expect.objectContaining({ field: 'conversations[1].messages[0].content', reason: 'required' }),
        ]),
      );
      expect(await Promise.all(BLUEPRINT_TABLES.map((table) => sql.count(table)))).toEqual(before);
      expect(await sql.count('messaging.conversations')).toBe(conversationsBefore);
    });

    it('refuses a conversation without messages and unknown members with 400 validation_error', async () => {
      const response = await api.admin('POST', '/accounts', { name: 'Refusé', conversations: [{ agent_slug: 'sofia', mood: 'happy' }] });

      expect(response.status).toBe(400);
      expect(response.body.details).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ field: 'conversations[0].messages', reason: 'required' }),
          expect.objectContaining({ field: 'conversations[0].mood', reason: 'unknown_field' }),
        ]),
      );
    });
  });

  describe('GET /v1/conversations', () => {
    it('lists the threads newest first (created_at DESC, id DESC) with id, agent_slug, agent_identity_id, source, contact_email, message_count, last_message_at, created_at', async () => {
      const response = await get('/v1/conversations');

      expect(response.status).toBe(200);
      expect(response.body.data.map((c: any) => c.id)).toEqual([ids[2], ids[1], ids[0]]);
      expect(response.body.data[2]).toEqual({
        id: ids[0],
        agent_slug: 'sofia',
        agent_identity_id: null,
        source: 'website',
        contact_email: 'nadia@example.com',
        message_count: 4,
        last_message_at: expect.stringMatching(ISO),
        created_at: expect.stringMatching(ISO),
      });
      expect(response.body.data[0].last_message_at).toBe(response.body.data[0].created_at); // no message: its creation time
      expect(response.body.pagination).toEqual({ next_cursor: null, has_more: false, limit: 20, total_count: 3 });
    });

    it.each([
      [{ agent_slug: 'sofia' }, [1, 0]],
      [{ agent_slug: 'leo' }, [2]],
      [{ agent_identity_id: 'identity-fr' }, [2, 1]],
      [{ source: 'website' }, [2, 0]],
      [{ source: 'facebook', agent_slug: 'sofia' }, [1]],
      [{ agent_slug: 'Sofia' }, []],
      [{ source: 'web' }, []],
    ])('filters by exact match: %j', async (query, expected) => {
      const response = await get('/v1/conversations', query as Record<string, string>);

      expect(response.status).toBe(200);
      expect(response.body.data.map((c: any) => c.id)).toEqual(expected.map((index) => ids[index]));
      expect(response.body.pagination.total_count).toBe(expected.length);
    });

    it('walks pages with next_cursor, each thread once', async () => {
      const first = await get('/v1/conversations', { limit: '2' });
      const second = await get('/v1/conversations', { limit: '2', cursor: first.body.pagination.next_cursor });

      expect(first.body.data.map((c: any) => c.id)).toEqual([ids[2], ids[1]]);
      expect(first.body.pagination).toMatchObject({ has_more: true, limit: 2, total_count: 3 });
      expect(second.body.data.map((c: any) => c.id)).toEqual([ids[0]]);
      expect(second.body.pagination).toMatchObject({ has_more: false, next_cursor: null });
    });

    it("never lists another account's threads", async () => {
      const response = await get('/v1/conversations', { agent_slug: 'sofia' }, token(other));

      expect(response.body.data).toHaveLength(1);
      expect(response.body.data[0].id).not.toBe(ids[0]);
      expect(response.body.data[0].id).toBe((other.conversations as string[])[0]);
    });

    it.each([
      [{ limit: '0' }, 'limit'],
      [{ limit: '101' }, 'limit'],
      [{ limit: 'dix' }, 'limit'],
      [{ cursor: 'not a cursor' }, 'cursor'],
      [{ agent_slug: '' }, 'agent_slug'],
      [{ source: 'x'.repeat(201) }, 'source'],
    ])('answers 400 invalid_request with details.field to a bad parameter %j', async (query, field) => {
      const response = await get('/v1/conversations', query as Record<string, string>);

      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ code: 'invalid_request', details: { field } });
    });

    it('answers 400 invalid_request when a filter is given twice', async () => {
      const response = await api.request({ path: '/v1/conversations?agent_slug=sofia&agent_slug=leo', token: token() });

      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ code: 'invalid_request', details: { field: 'agent_slug' } });
    });

    it('needs scope conversations:read (403 insufficient_scope) and the conversations module (403 feature_not_available)', async () => {
      const withoutModule = await api.provision(messagingBlueprint({ name: 'Sans module', features: ['public_api', 'emails'] }));

      const scope = await get('/v1/conversations', {}, token(mine, 'sender'));
      const feature = await get('/v1/conversations', {}, token(withoutModule));

      expect(scope.status).toBe(403);
      expect(scope.body).toMatchObject({ code: 'insufficient_scope', details: { required_scope: 'conversations:read' } });
      expect(feature.status).toBe(403);
      expect(feature.body).toMatchObject({ code: 'feature_not_available', details: { feature: 'conversations' } });
    });
  });

  describe('GET /v1/conversations/{id}', () => {
    it('answers the thread metadata', async () => {
      const response = await get(`/v1/conversations/${ids[1]}`);

      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        data: expect.objectContaining({ id: ids[1], agent_slug: 'sofia', agent_identity_id: 'identity-fr', source: 'facebook', contact_email: null, message_count: 1 }),
      });
    });

    it('accepts the id in upper case', async () => {
      expect((await get(`/v1/conversations/${ids[1].toUpperCase()}`)).status).toBe(200);
    });

    it.each([
      ['missing', UNKNOWN_ID],
      ['not a UUID', 'abc'],
    ])('answers 404 resource_not_found for an id %s', async (_, id) => {
      const response = await get(`/v1/conversations/${id}`);

      expect(response.status).toBe(404);
      expect(response.body).toMatchObject({ code: 'resource_not_found', type: 'not_found_error', details: { resource: 'conversation' } });
    });

    it("answers another account's conversation exactly like a missing one", async () => {
      const foreign = await get(`/v1/conversations/${(other.conversations as string[])[0]}`);
      const missing = await get(`/v1/conversations/${UNKNOWN_ID}`);

      expect(foreign.status).toBe(404);
      expect({ ...foreign.body, request_id: null }).toEqual({ ...missing.body, request_id: null });
    });
  });

  describe('GET /v1/conversations/{id}/messages', () => {
    it('lists the messages created_at ASC, id ASC with id, role, content, created_at, author_kind and author_name', async () => {
      const response = await get(`/v1/conversations/${ids[0]}/messages`);

      expect(response.status).toBe(200);
      expect(response.body.data).toEqual([
        { id: expect.any(String), role: 'user', content: 'Bonjour', created_at: expect.stringMatching(ISO), author_kind: 'visitor', author_name: null },
        { id: expect.any(String), role: 'assistant', content: 'Bonjour!\n\nComment puis-je vous aider?', created_at: expect.stringMatching(ISO), author_kind: 'ai_agent', author_name: null },
        { id: expect.any(String), role: 'assistant', content: '', created_at: expect.stringMatching(ISO), author_kind: 'ai_agent', author_name: null },
        { id: expect.any(String), role: 'assistant', content: 'Je prends le relais.', created_at: expect.stringMatching(ISO), author_kind: 'sales_rep', author_name: 'Julie' },
      ]);
      const times = response.body.data.map((m: any) => m.created_at);
      expect(times).toEqual([...times].sort());
      expect(new Set(times).size).toBe(4);
      expect(response.body.pagination).toEqual({ next_cursor: null, has_more: false, limit: 20, total_count: 4 });
    });

    it('removes pacing markers from content but stores them: a marker-only message reads "" and stays in the page', async () => {
      const [stored] = await sql.query<any>(
        `SELECT content FROM messaging.conversation_messages WHERE account_id = $1 AND conversation_id = $2 AND content LIKE '[[pause:800]]'`,
        [mine.account_id, ids[0]],
      );
      const response = await get(`/v1/conversations/${ids[0]}/messages`);

      expect(stored.content).toBe('[[pause:800]]');
      expect(response.body.data[2].content).toBe('');
    });

    it('walks pages oldest first with next_cursor', async () => {
      const all = (await get(`/v1/conversations/${ids[0]}/messages`)).body.data.map((m: any) => m.id);
      const first = await get(`/v1/conversations/${ids[0]}/messages`, { limit: '3' });
      const second = await get(`/v1/conversations/${ids[0]}/messages`, { limit: '3', cursor: first.body.pagination.next_cursor });

      expect(first.body.data.map((m: any) => m.id)).toEqual(all.slice(0, 3));
      expect(first.body.pagination).toMatchObject({ has_more: true, limit: 3, total_count: 4 });
      expect(second.body.data.map((m: any) => m.id)).toEqual(all.slice(3));
      expect(second.body.pagination).toMatchObject({ has_more: false, next_cursor: null });
    });

    it('answers an empty page for a thread without messages', async () => {
      const response = await get(`/v1/conversations/${ids[2]}/messages`);

      expect(response.body).toEqual({ data: [], pagination: { next_cursor: null, has_more: false, limit: 20, total_count: 0 } });
    });

    it("answers 404 resource_not_found for a missing, non-UUID or another account's conversation, alike", async () => {
      const responses = await Promise.all([UNKNOWN_ID, 'abc', (other.conversations as string[])[0]].map((id) => get(`/v1/conversations/${id}/messages`)));

      for (const response of responses) {
        expect(response.status).toBe(404);
        expect(response.body).toMatchObject({ code: 'resource_not_found', details: { resource: 'conversation' } });
      }
    });

    it('answers 400 invalid_request to a bad limit or cursor', async () => {
      for (const query of [{ limit: '0' }, { limit: '1000' }, { cursor: '%%%' }] as Record<string, string>[]) {
        const response = await get(`/v1/conversations/${ids[0]}/messages`, query);
        expect(response.status).toBe(400);
        expect(response.body.code).toBe('invalid_request');
      }
    });

    it('needs scope conversations:read', async () => {
      const response = await get(`/v1/conversations/${ids[0]}/messages`, {}, token(mine, 'contacts'));

      expect(response.status).toBe(403);
      expect(response.body).toMatchObject({ code: 'insufficient_scope', details: { required_scope: 'conversations:read' } });
    });
  });
});
