import { FixedClock, newId } from '@leadflow/shared-kernel';
import { TEST_ADMIN_TOKEN } from '@leadflow/shared-testing';
import { expectStatus } from './support/contacts-fixtures';
import { freshAddress, leadsBlueprint } from './support/lead-capture-fixtures';
import { ProvisionedAccount, TestApi, TestResponse } from './support/test-api';

/* eslint-disable @typescript-eslint/no-explicit-any -- response bodies are asserted field by field */

/**
 * `GET /v1/presuasion/submissions` and `GET /v1/presuasion/submissions/{id}` (scope `contacts:read`):
 * keyset pagination with the platform's cursor, filters `tool`, `contact_id`, `from`, `to`, and tenant
 * isolation (another account's id answers exactly like a missing one; a list never shows another
 * account's rows). Real PostgreSQL and Redis.
 */
describe('presuasion submissions: reading', () => {
  const clock = new FixedClock(new Date('2027-04-01T12:00:00.000Z'));
  let api: TestApi;
  let a: ProvisionedAccount;
  let b: ProvisionedAccount;
  /** A's submissions, oldest first. */
  const mine: any[] = [];
  let theirs: any;

  const submit = async (token: string, extra: Record<string, unknown>): Promise<any> => {
    const response = await api.request({
      method: 'POST',
      path: '/v1/presuasion/submissions',
      token,
      remoteAddress: freshAddress(),
      body: { tool: { slug: 'quiz', name: 'Quiz' }, answers: [{ question: 'Projet ?', answer: 'Toiture' }], person: { email: `p${newId().slice(-8)}@example.com` }, ...extra },
    });
    return expectStatus(response, 201).body.data;
  };
  const read = (token: string, path: string, query?: Record<string, string>): Promise<TestResponse> => api.request({ path, token, query });
  const list = (token: string, query: Record<string, string> = {}) => read(token, '/v1/presuasion/submissions', query);

  beforeAll(async () => {
    api = await TestApi.start({}, clock);
    a = await api.provision(leadsBlueprint({ name: 'Compte A' }));
    b = await api.provision(leadsBlueprint({ name: 'Compte B' }));
    const capture = a.api_keys.capture.key;
    // Five submissions one minute apart: quiz ×3 (two by one person), calculateur ×2; submitted_at one hour before each.
    const person = 'repete@example.com';
    const plan: Record<string, unknown>[] = [
      { person: { email: person } },
      { tool: { slug: 'calculateur', name: 'Calculateur' } },
      { person: { email: person } },
      { tool: { slug: 'calculateur', name: 'Calculateur' } },
      {},
    ];
    for (const extra of plan) {
      clock.advance(60_000);
      mine.push(await submit(capture, { ...extra, submitted_at: new Date(clock.now().getTime() - 3_600_000).toISOString() }));
    }
    theirs = await submit(b.api_keys.capture.key, { person: { email: person } });
  });
  afterAll(() => api?.close());

  it('lists newest first (created_at DESC, id DESC) and walks every page with next_cursor until has_more is false', async () => {
    const token = a.api_keys.full.key;
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 5; page++) {
      const response = await list(token, { limit: '2', ...(cursor ? { cursor } : {}) });
      expect(response.status).toBe(200);
      expect(response.body.pagination).toMatchObject({ limit: 2, total_count: 5 });
      seen.push(...response.body.data.map((item: any) => item.id));
      if (!response.body.pagination.has_more) {
        expect(response.body.pagination.next_cursor).toBeNull();
        break;
      }
      cursor = response.body.pagination.next_cursor;
    }
    expect(seen).toEqual([...mine].reverse().map((item) => item.id));
  });

  it('each item is the submission as GET /v1/presuasion/submissions/{id} answers it', async () => {
    const token = a.api_keys.full.key;
    const listed = (await list(token)).body.data;
    for (const item of listed) expect(expectStatus(await read(token, `/v1/presuasion/submissions/${item.id}`), 200).body).toEqual({ data: item });
  });

  it('filter tool (a slug, any casing)', async () => {
    const response = await list(a.api_keys.full.key, { tool: 'Calculateur' });
    expect(response.body.data.map((item: any) => item.id)).toEqual([mine[3].id, mine[1].id]);
    expect(response.body.pagination.total_count).toBe(2);
    expect((await list(a.api_keys.full.key, { tool: 'inconnu' })).body.data).toEqual([]);
  });

  it('filter contact_id, the contacts merged into it included', async () => {
    const token = a.api_keys.full.key;
    const contactId = mine[0].contact_id;
    expect(mine[2].contact_id).toBe(contactId);
    expect((await list(token, { contact_id: contactId })).body.data.map((item: any) => item.id)).toEqual([mine[2].id, mine[0].id]);
    // mine[1]'s contact is merged into contactId: its submission now counts for the survivor.
    const merged = await api.request({ method: 'POST', path: `/admin/v1/accounts/${a.account_id}/contacts/${mine[1].contact_id}/merge`, token: TEST_ADMIN_TOKEN, body: { into_contact_id: contactId } });
    expect(merged.status).toBe(200);
    expect((await list(token, { contact_id: contactId.toUpperCase() })).body.data.map((item: any) => item.id)).toEqual([mine[2].id, mine[1].id, mine[0].id]);
  });

  it('filters from and to: inclusive bounds of submitted_at', async () => {
    const token = a.api_keys.full.key;
    const response = await list(token, { from: mine[1].submitted_at, to: mine[3].submitted_at });
    expect(response.body.data.map((item: any) => item.id)).toEqual([mine[3].id, mine[2].id, mine[1].id]);
    expect(response.body.pagination.total_count).toBe(3);
    expect((await list(token, { from: '2027-04-01T11:03:00+00:00', tool: 'quiz' })).body.data.map((item: any) => item.id)).toEqual([mine[4].id, mine[2].id]);
  });

  it.each([
    [{ contact_id: 'pas-un-uuid' }, [{ field: 'contact_id', reason: 'invalid_format' }]],
    [{ tool: 'quiz rénovation' }, [{ field: 'tool', reason: 'invalid_format' }]],
    [{ from: '2027-04-01' }, [{ field: 'from', reason: 'invalid_datetime' }]],
    [{ from: '2027-04-02T00:00:00Z', to: '2027-04-01T00:00:00Z' }, [{ field: 'to', reason: 'invalid_value' }]],
    [{ from: 'hier', to: 'demain', contact_id: '1' }, [{ field: 'contact_id', reason: 'invalid_format' }, { field: 'from', reason: 'invalid_datetime' }, { field: 'to', reason: 'invalid_datetime' }]],
  ])('unreadable filters %j: 400 validation_error naming each', async (query, expected) => {
    const response = await list(a.api_keys.full.key, query as Record<string, string>);
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('validation_error');
    expect(response.body.details.map(({ field, reason }: any) => ({ field, reason }))).toEqual(expected);
  });

  it('a bad cursor or limit, or a filter given twice: 400 invalid_request', async () => {
    const token = a.api_keys.full.key;
    expect((await list(token, { limit: '0' })).body).toMatchObject({ code: 'invalid_request', details: { field: 'limit' } });
    expect((await list(token, { cursor: '!!!' })).body).toMatchObject({ code: 'invalid_request', details: { field: 'cursor' } });
    const twice = await api.request({ path: '/v1/presuasion/submissions?tool=quiz&tool=calculateur', token });
    expect(twice.status).toBe(400);
    expect(twice.body).toMatchObject({ code: 'invalid_request', details: { field: 'tool' } });
  });

  it('scope contacts:read: a capture key (leads:capture only) gets 403 insufficient_scope on both reads', async () => {
    for (const path of ['/v1/presuasion/submissions', `/v1/presuasion/submissions/${mine[0].id}`]) {
      const response = await read(a.api_keys.capture.key, path);
      expect(response.status).toBe(403);
      expect(response.body).toMatchObject({ code: 'insufficient_scope', details: { required_scope: 'contacts:read' } });
    }
  });

  describe('tenant isolation', () => {
    it('another account’s submission answers exactly like a missing one (404 not_found), a non-UUID id too', async () => {
      const token = b.api_keys.full.key;
      const answer = (response: TestResponse) => ({ status: response.status, code: response.body.code, details: response.body.details, type: response.body.type });
      const foreign = await read(token, `/v1/presuasion/submissions/${mine[0].id}`);
      const missing = await read(token, `/v1/presuasion/submissions/${newId()}`);
      expect(answer(foreign)).toEqual({ status: 404, code: 'not_found', details: { resource: 'presuasion_submission' }, type: 'not_found_error' });
      expect(answer(foreign)).toEqual(answer(missing));
      expect(answer(await read(token, '/v1/presuasion/submissions/pas-un-uuid'))).toEqual(answer(missing));
      expect(JSON.stringify(foreign.body)).not.toContain(a.account_id);
    });

    it('a list never shows another account’s rows, whatever the filter (another account’s contact_id lists nothing)', async () => {
      const token = b.api_keys.full.key;
      const all = (await list(token)).body;
      expect(all.data.map((item: any) => item.id)).toEqual([theirs.id]);
      expect(all.pagination.total_count).toBe(1);
      expect((await list(token, { contact_id: mine[0].contact_id })).body).toMatchObject({ data: [], pagination: { total_count: 0, has_more: false } });
      expect((await list(a.api_keys.full.key, { contact_id: theirs.contact_id })).body.data).toEqual([]);
      const aIds = new Set(mine.flatMap((item) => [item.id, item.contact_id, item.tag_id, item.activity_id]));
      expect(JSON.stringify(all).match(/[0-9a-f-]{36}/g)!.filter((id) => aIds.has(id))).toEqual([]);
    });

    it('the same person and tool in two accounts are two contacts and two tags', async () => {
      expect(theirs.contact_id).not.toBe(mine[0].contact_id);
      expect(theirs.tag_id).not.toBe(mine[0].tag_id);
      expect(theirs.contact_was_new).toBe(true);
    });
  });
});
