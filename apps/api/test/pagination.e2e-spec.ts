import { asAccountId, encodeCursor, FixedClock, SYSTEM_ACTOR } from '@leadflow/shared-kernel';
import { ActivityLogWriter } from '@leadflow/shared-platform';
import { PlatformProbeModule } from './support/platform-probe';
import { TestApi } from './support/test-api';

/**
 * Cursor pagination (public-api-v1 › Envelopes, lists and shared conventions; operator-api › List
 * `limit`), through readPageRequest → applyKeyset → toPage on a test-only list of 25 activity entries
 * (`created_at DESC, id DESC`, several entries sharing one millisecond).
 */
describe('cursor pagination', () => {
  let api: TestApi;
  let token: string;
  let expected: { id: string; created_at: string }[];
  const base = Date.UTC(2026, 0, 10, 12, 0, 0, 0);

  beforeAll(async () => {
    api = await TestApi.start({}, new FixedClock(new Date('2026-06-01T12:00:00.000Z')), { extraModules: [PlatformProbeModule] });
    const account = await api.provision({ api_keys: [{ name: 'full', preset: 'full_integration', per_hour: 5000 }] });
    token = account.api_keys.full.key;
    // 25 entries: 15 distinct instants (1 ms apart, then a minute apart), five of them shared by 3 entries.
    const instants = Array.from({ length: 25 }, (_, i) => new Date(base + (i < 15 ? i : 15 + Math.floor((i - 15) / 3) * 60_000) + (i >= 15 ? 1 : 0)));
    const writer = api.app.get(ActivityLogWriter);
    const ids: string[] = [];
    for (const at of instants) {
      ids.push(...(await writer.record(asAccountId(account.account_id), [{ contactId: null, type: 'probe_item', actor: SYSTEM_ACTOR, at }])));
    }
    expected = ids
      .map((id, i) => ({ id, created_at: instants[i].toISOString() }))
      .sort((a, b) => (a.created_at === b.created_at ? (a.id < b.id ? 1 : -1) : a.created_at < b.created_at ? 1 : -1));
    // Another account's entries never show.
    const other = await api.provision();
    await writer.record(asAccountId(other.account_id), [{ contactId: null, type: 'probe_item', actor: SYSTEM_ACTOR, at: new Date(base) }]);
  });
  afterAll(() => api.close());

  const list = (query = '') => api.request({ path: `/v1/test-probe/items${query}`, token });

  it('defaults to 20 items, newest first, with the pagination object', async () => {
    const response = await list();
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual(expected.slice(0, 20));
    expect(response.body.pagination).toEqual({ next_cursor: expect.any(String), has_more: true, limit: 20, total_count: 25 });
  });

  it('walks every page with next_cursor, ties on created_at broken by id, nothing repeated or skipped', async () => {
    const seen: { id: string; created_at: string }[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const response = await list(`?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(response.status).toBe(200);
      expect(response.body.pagination.limit).toBe(2);
      seen.push(...response.body.data);
      cursor = response.body.pagination.next_cursor;
      expect(response.body.pagination.has_more).toBe(cursor !== null);
      pages++;
    } while (cursor && pages < 50);
    expect(pages).toBe(13);
    expect(seen).toEqual(expected);
  });

  it('the last page has has_more false and next_cursor null', async () => {
    const response = await list('?limit=100');
    expect(response.body.data).toHaveLength(25);
    expect(response.body.pagination).toEqual({ next_cursor: null, has_more: false, limit: 100, total_count: 25 });
  });

  it.each([['1'], ['100'], ['7']])('accepts limit=%s', async (limit) => {
    const response = await list(`?limit=${limit}`);
    expect(response.status).toBe(200);
    expect(response.body.data).toHaveLength(Math.min(Number(limit), 25));
  });

  it.each([['0'], ['101'], ['abc'], ['1.5'], ['-3'], ['']])('limit=%s answers 400 invalid_request with details.field limit', async (limit) => {
    const response = await list(`?limit=${limit}`);
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ code: 'invalid_request', type: 'invalid_request_error', details: { field: 'limit' } });
  });

  it('a repeated limit answers 400', async () => {
    const response = await list('?limit=5&limit=6');
    expect(response.status).toBe(400);
    expect(response.body.details.field).toBe('limit');
  });

  it.each([
    ['garbage', 'not-a-cursor!'],
    ['base64url of something else', Buffer.from('hello').toString('base64url')],
    ['a cursor with a non-UUID id', Buffer.from(JSON.stringify({ t: '2026-01-10T12:00:00.000Z', id: '1' })).toString('base64url')],
    ['an impossible date', '2026-02-30T00:00:00Z'],
  ])('a bad cursor (%s) answers 400 invalid_request with details.field cursor', async (_label, cursor) => {
    const response = await list(`?cursor=${encodeURIComponent(cursor)}`);
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ code: 'invalid_request', details: { field: 'cursor' } });
  });

  it('accepts the legacy ISO-timestamp cursor: rows strictly older than the instant', async () => {
    const instant = expected[10].created_at;
    const response = await list(`?limit=100&cursor=${encodeURIComponent(instant)}`);
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual(expected.filter((row) => row.created_at < instant));
  });

  it('accepts a legacy cursor with an offset whose + was not percent-encoded', async () => {
    const response = await list('?limit=100&cursor=2026-01-10T17:00:00.005+05:00'); // = 12:00:00.005Z
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual(expected.filter((row) => row.created_at < '2026-01-10T12:00:00.005Z'));
  });

  it('an opaque cursor built from a row continues right after that row', async () => {
    const cursor = encodeCursor({ createdAt: new Date(expected[4].created_at), id: expected[4].id });
    const response = await list(`?limit=3&cursor=${cursor}`);
    expect(response.body.data).toEqual(expected.slice(5, 8));
  });
});
