import { createLeadflowClient, LeadflowApiError, LeadflowClientOptions, parseRetryAfterSeconds } from './index';

/** One request the fake fetch received. */
interface Seen {
  method: string;
  url: URL;
  headers: Headers;
  body: string;
}

type Answer = Response | Error | ((seen: Seen) => Response);

/** A fetch answering from a script (one answer per call; the last one repeats) and recording every request. */
function fakeFetch(...answers: Answer[]) {
  const seen: Seen[] = [];
  const fetch = async (request: Request): Promise<Response> => {
    const entry: Seen = { method: request.method, url: new URL(request.url), headers: new Headers(request.headers), body: await request.text() };
    seen.push(entry);
    const answer = answers[Math.min(seen.length - 1, answers.length - 1)];
    if (answer instanceof Error) throw answer;
    return typeof answer === 'function' ? answer(entry) : answer.clone();
  };
  return { fetch, seen };
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(status === 204 ? null : JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

const envelope = (code: string, status: number, extra: Record<string, unknown> = {}) => ({
  code,
  message: `${code} happened`,
  details: null,
  type: status === 429 ? 'rate_limit_error' : 'service_unavailable_error',
  doc_url: `https://api.example.com/docs/errors#${code}`,
  request_id: 'req-1',
  ...extra,
});

const ME = { data: { key_id: '5f0c6f3e-9a51-4d2b-8d0e-2f6c1f1f4b1a', key_name: 'full' } };
const CAPTURED = { data: { contact_id: 'c1', contact_was_new: true } };
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

function clientWith(fetch: (request: Request) => Promise<Response>, options: Partial<LeadflowClientOptions> = {}) {
  const sleeps: number[] = [];
  const client = createLeadflowClient({
    apiKey: 'lf_live_Ab12Cd34_secret',
    baseUrl: 'https://api.example.com/',
    fetch,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    ...options,
  });
  return { client, sleeps };
}

describe('createLeadflowClient', () => {
  it('sends the API key as Authorization: Bearer, JSON bodies, and answers the 2xx body', async () => {
    const { fetch, seen } = fakeFetch(json(200, ME), json(201, { data: { id: 'n1' } }));
    const { client } = clientWith(fetch);

    const me = await client.get('/v1/me');
    expect(me.data.key_id).toBe(ME.data.key_id);
    expect(seen[0].headers.get('authorization')).toBe('Bearer lf_live_Ab12Cd34_secret');
    expect(seen[0].url.href).toBe('https://api.example.com/v1/me');

    await client.post('/v1/contacts', { body: { email: 'nadia@example.com' } });
    expect(seen[1].method).toBe('POST');
    expect(seen[1].headers.get('content-type')).toBe('application/json');
    expect(JSON.parse(seen[1].body)).toEqual({ email: 'nadia@example.com' });
  });

  it('fills path and query parameters', async () => {
    const { fetch, seen } = fakeFetch(json(200, { data: { id: 'c1' } }));
    const { client } = clientWith(fetch);
    await client.get('/v1/contacts/{id}', { params: { path: { id: 'c1' }, query: { expand: 'tags' } } });
    expect(seen[0].url.pathname).toBe('/v1/contacts/c1');
    expect(seen[0].url.searchParams.get('expand')).toBe('tags');
  });

  it('a DELETE answered 204 resolves to undefined', async () => {
    const { fetch } = fakeFetch(json(204, null));
    const { client } = clientWith(fetch);
    await expect(client.delete('/v1/webhooks/{id}', { params: { path: { id: 'w1' } } })).resolves.toBeUndefined();
  });

  it('createLeadflowClient refuses an empty apiKey or baseUrl (TypeError)', () => {
    expect(() => createLeadflowClient({ apiKey: '', baseUrl: 'https://x' })).toThrow(TypeError);
    expect(() => createLeadflowClient({ apiKey: 'k', baseUrl: '' })).toThrow(TypeError);
  });
});

describe('LeadflowApiError', () => {
  it('a non-2xx answer throws LeadflowApiError with status, code, message, details, type, doc_url and request_id of the envelope', async () => {
    const body = {
      code: 'validation_error',
      message: 'The request is invalid.',
      details: [{ field: 'phone', reason: 'invalid_phone' }],
      type: 'invalid_request_error',
      doc_url: 'https://api.example.com/docs/errors#validation_error',
      request_id: 'req-42',
    };
    const { fetch } = fakeFetch(json(400, body, { 'x-request-id': 'req-42' }));
    const { client } = clientWith(fetch);
    const error = await client.post('/v1/contacts', { body: { phone: '12' } }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(LeadflowApiError);
    expect(error).toMatchObject({
      name: 'LeadflowApiError',
      status: 400,
      code: 'validation_error',
      message: 'The request is invalid.',
      details: [{ field: 'phone', reason: 'invalid_phone' }],
      type: 'invalid_request_error',
      doc_url: 'https://api.example.com/docs/errors#validation_error',
      request_id: 'req-42',
      retry_after_seconds: null,
      body,
    });
  });

  it('a simplified body (lead capture 422) gives type and doc_url null; request_id falls back to X-Request-ID', async () => {
    const { fetch } = fakeFetch(json(422, { code: 'missing_consent', message: 'Consent missing.', details: [{ field: 'consent', reason: 'required' }] }, { 'x-request-id': 'req-7' }));
    const { client } = clientWith(fetch);
    const error = (await client.post('/v1/leads/capture', { body: { email: 'a@example.com' } as never }).catch((caught: unknown) => caught)) as LeadflowApiError;
    expect(error).toMatchObject({ status: 422, code: 'missing_consent', type: null, doc_url: null, request_id: 'req-7', details: [{ field: 'consent', reason: 'required' }] });
  });

  it('a body that is not an envelope (proxy page) gives code http_<status> and the text as message', async () => {
    const { fetch } = fakeFetch(new Response('<html>Bad gateway</html>', { status: 502, statusText: 'Bad Gateway', headers: { 'content-type': 'text/html' } }));
    const { client } = clientWith(fetch);
    const error = (await client.get('/v1/me').catch((caught: unknown) => caught)) as LeadflowApiError;
    expect(error).toMatchObject({ status: 502, code: 'http_502', message: '<html>Bad gateway</html>', details: null, request_id: null });
  });
});

describe('retries', () => {
  it('503 with Retry-After: 2 is retried after 2000 ms, then answers the 2xx body', async () => {
    const { fetch, seen } = fakeFetch(json(503, envelope('service_unavailable', 503), { 'retry-after': '2' }), json(200, ME));
    const { client, sleeps } = clientWith(fetch);
    await expect(client.get('/v1/me')).resolves.toEqual(ME);
    expect(seen).toHaveLength(2);
    expect(sleeps).toEqual([2000]);
  });

  it('429 with Retry-After as an HTTP date waits until that date', async () => {
    const at = new Date(Date.now() + 3000).toUTCString();
    const { fetch, seen } = fakeFetch(json(429, envelope('rate_limit_exceeded', 429), { 'retry-after': at }), json(200, ME));
    const { client, sleeps } = clientWith(fetch);
    await client.get('/v1/me');
    expect(seen).toHaveLength(2);
    expect(sleeps).toHaveLength(1);
    expect(sleeps[0]).toBeGreaterThanOrEqual(2000);
    expect(sleeps[0]).toBeLessThanOrEqual(4000);
  });

  it('429 without Retry-After (a business refusal such as subscription_limit_reached) is not retried', async () => {
    const { fetch, seen } = fakeFetch(json(429, envelope('subscription_limit_reached', 429)));
    const { client, sleeps } = clientWith(fetch);
    await expect(client.get('/v1/webhooks')).rejects.toMatchObject({ status: 429, code: 'subscription_limit_reached' });
    expect(seen).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it('a Retry-After beyond maxRetryDelaySeconds is not waited for: the 429 is thrown at once with retry_after_seconds', async () => {
    const { fetch, seen } = fakeFetch(
      json(429, envelope('rate_limit_exceeded', 429, { details: { limit_type: 'per_key', retry_after_seconds: 1800 } }), { 'retry-after': '1800' }),
    );
    const { client, sleeps } = clientWith(fetch, { maxRetryDelaySeconds: 60 });
    await expect(client.get('/v1/me')).rejects.toMatchObject({ status: 429, code: 'rate_limit_exceeded', retry_after_seconds: 1800 });
    expect(seen).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it('503 without Retry-After backs off exponentially with jitter (between half and all of base × 2^retry)', async () => {
    const { fetch, seen } = fakeFetch(json(503, envelope('service_unavailable', 503)), json(503, envelope('service_unavailable', 503)), json(200, ME));
    const { client, sleeps } = clientWith(fetch, { retryBaseDelayMs: 100 });
    await client.get('/v1/me');
    expect(seen).toHaveLength(3);
    expect(sleeps[0]).toBeGreaterThanOrEqual(50);
    expect(sleeps[0]).toBeLessThanOrEqual(100);
    expect(sleeps[1]).toBeGreaterThanOrEqual(100);
    expect(sleeps[1]).toBeLessThanOrEqual(200);
  });

  it('stops after maxRetries and throws the last answer', async () => {
    const { fetch, seen } = fakeFetch(json(503, envelope('service_unavailable', 503), { 'retry-after': '1' }));
    const { client } = clientWith(fetch, { maxRetries: 2 });
    await expect(client.get('/v1/me')).rejects.toMatchObject({ status: 503, code: 'service_unavailable', retry_after_seconds: 1 });
    expect(seen).toHaveLength(3);
  });

  it('maxRetries 0 sends once', async () => {
    const { fetch, seen } = fakeFetch(json(503, envelope('service_unavailable', 503), { 'retry-after': '1' }));
    const { client } = clientWith(fetch, { maxRetries: 0 });
    await expect(client.get('/v1/me')).rejects.toBeInstanceOf(LeadflowApiError);
    expect(seen).toHaveLength(1);
  });

  it('a POST without Idempotency-Key is sent once (retrying could duplicate it)', async () => {
    const { fetch, seen } = fakeFetch(json(503, envelope('service_unavailable', 503), { 'retry-after': '1' }), json(201, { data: {} }));
    const { client } = clientWith(fetch);
    await expect(client.post('/v1/contacts', { body: { email: 'a@example.com' } })).rejects.toMatchObject({ status: 503 });
    expect(seen).toHaveLength(1);
    expect(seen[0].headers.has('idempotency-key')).toBe(false);
  });

  it('a PATCH is never retried', async () => {
    const { fetch, seen } = fakeFetch(json(503, envelope('service_unavailable', 503), { 'retry-after': '1' }), json(200, { data: {} }));
    const { client } = clientWith(fetch);
    await expect(client.patch('/v1/contacts/{id}', { params: { path: { id: 'c1' } }, body: { first_name: 'Nadia' } })).rejects.toMatchObject({ status: 503 });
    expect(seen).toHaveLength(1);
  });

  it('a POST carrying an Idempotency-Key is retried with the same key and the same body', async () => {
    const { fetch, seen } = fakeFetch(json(503, envelope('service_unavailable', 503), { 'retry-after': '1' }), json(201, { data: { id: 'c1' } }));
    const { client } = clientWith(fetch);
    await client.post('/v1/contacts', { body: { email: 'a@example.com' }, params: { header: { 'Idempotency-Key': 'import-row-17' } } });
    expect(seen).toHaveLength(2);
    expect(seen.map((request) => request.headers.get('idempotency-key'))).toEqual(['import-row-17', 'import-row-17']);
    expect(seen[1].body).toBe(seen[0].body);
  });

  it('a network failure of a GET is retried with backoff; an abort is not', async () => {
    const { fetch, seen } = fakeFetch(new TypeError('fetch failed'), json(200, ME));
    const { client, sleeps } = clientWith(fetch);
    await expect(client.get('/v1/me')).resolves.toEqual(ME);
    expect(seen).toHaveLength(2);
    expect(sleeps).toHaveLength(1);

    const abort = Object.assign(new Error('aborted'), { name: 'AbortError' });
    const aborted = fakeFetch(abort, json(200, ME));
    await expect(clientWith(aborted.fetch).client.get('/v1/me')).rejects.toThrow('aborted');
    expect(aborted.seen).toHaveLength(1);
  });

  it('parseRetryAfterSeconds reads delta-seconds and HTTP dates, and null otherwise', () => {
    const now = Date.parse('2026-11-25T01:00:00Z');
    expect(parseRetryAfterSeconds('30', now)).toBe(30);
    expect(parseRetryAfterSeconds('Wed, 25 Nov 2026 01:00:10 GMT', now)).toBe(10);
    expect(parseRetryAfterSeconds('Wed, 25 Nov 2026 00:59:00 GMT', now)).toBe(0);
    expect(parseRetryAfterSeconds('-5', now)).toBeNull();
    expect(parseRetryAfterSeconds('soon', now)).toBeNull();
    expect(parseRetryAfterSeconds(null, now)).toBeNull();
  });
});

describe('Idempotency-Key on lead capture', () => {
  it('POST /v1/leads/capture gets a UUID v4 Idempotency-Key, identical on each of its retries', async () => {
    const { fetch, seen } = fakeFetch(
      json(503, envelope('service_unavailable', 503), { 'retry-after': '1' }),
      new TypeError('socket hang up'),
      json(200, CAPTURED),
    );
    const { client } = clientWith(fetch);
    await expect(client.post('/v1/leads/capture', { body: { email: 'nadia@example.com', consent: true } as never })).resolves.toEqual(CAPTURED);
    expect(seen).toHaveLength(3);
    const keys = seen.map((request) => request.headers.get('idempotency-key'));
    expect(keys[0]).toMatch(UUID_V4);
    expect(new Set(keys).size).toBe(1);
    expect(new Set(seen.map((request) => request.body)).size).toBe(1);
  });

  it('two captures get two different keys', async () => {
    const { fetch, seen } = fakeFetch(json(200, CAPTURED));
    const { client } = clientWith(fetch);
    await client.post('/v1/leads/capture', { body: { email: 'a@example.com' } as never });
    await client.post('/v1/leads/capture', { body: { email: 'a@example.com' } as never });
    expect(seen[0].headers.get('idempotency-key')).not.toBe(seen[1].headers.get('idempotency-key'));
  });

  it('an Idempotency-Key given by the caller is kept', async () => {
    const { fetch, seen } = fakeFetch(json(200, CAPTURED));
    const { client } = clientWith(fetch);
    await client.post('/v1/leads/capture', { body: { email: 'a@example.com' } as never, params: { header: { 'Idempotency-Key': 'form-123' } } } as never);
    expect(seen[0].headers.get('idempotency-key')).toBe('form-123');
  });

  it('other POSTs get no automatic key', async () => {
    const { fetch, seen } = fakeFetch(json(201, { data: {} }));
    const { client } = clientWith(fetch);
    await client.post('/v1/contacts', { body: { email: 'a@example.com' } });
    expect(seen[0].headers.has('idempotency-key')).toBe(false);
  });
});

describe('paginate', () => {
  const page = (ids: string[], next: string | null) => json(200, { data: ids.map((id) => ({ id })), pagination: { next_cursor: next, has_more: next !== null, limit: 2, total_count: 5 } });

  it('walks the pages with next_cursor until has_more is false, keeping the query, and yields every item in order', async () => {
    const { fetch, seen } = fakeFetch(page(['a', 'b'], 'cur1'), page(['c', 'd'], 'cur2'), page(['e'], null));
    const { client } = clientWith(fetch);
    const ids: string[] = [];
    for await (const contact of client.paginate('/v1/contacts', { params: { query: { search: 'tremblay', limit: 2 } } })) ids.push(contact.id);
    expect(ids).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(seen.map((request) => request.url.searchParams.get('cursor'))).toEqual([null, 'cur1', 'cur2']);
    expect(seen.every((request) => request.url.searchParams.get('search') === 'tremblay' && request.url.searchParams.get('limit') === '2')).toBe(true);
  });

  it('stops early when the loop breaks (no further page is fetched)', async () => {
    const { fetch, seen } = fakeFetch(page(['a', 'b'], 'cur1'), page(['c'], null));
    const { client } = clientWith(fetch);
    for await (const contact of client.paginate('/v1/contacts')) {
      if (contact.id === 'a') break;
    }
    expect(seen).toHaveLength(1);
  });

  it('pages() yields whole pages (pagination, meta)', async () => {
    const { fetch } = fakeFetch(page(['a', 'b'], 'cur1'), page(['c'], null));
    const { client } = clientWith(fetch);
    const totals: number[] = [];
    for await (const current of client.pages('/v1/contacts')) totals.push(current.pagination.total_count);
    expect(totals).toEqual([5, 5]);
  });

  it('a failing page throws LeadflowApiError after the earlier items were yielded', async () => {
    const { fetch } = fakeFetch(page(['a'], 'cur1'), json(400, { ...envelope('invalid_request', 400), type: 'invalid_request_error', details: { field: 'cursor' } }));
    const { client } = clientWith(fetch);
    const ids: string[] = [];
    const walk = async () => {
      for await (const contact of client.paginate('/v1/contacts')) ids.push(contact.id);
    };
    await expect(walk()).rejects.toMatchObject({ status: 400, code: 'invalid_request', details: { field: 'cursor' } });
    expect(ids).toEqual(['a']);
  });

  it('a cursor returned twice stops the walk with an error instead of looping', async () => {
    const { fetch } = fakeFetch(page(['a'], 'same'), page(['b'], 'same'));
    const { client } = clientWith(fetch);
    const walk = async () => {
      for await (const _ of client.paginate('/v1/contacts')) void _;
    };
    await expect(walk()).rejects.toThrow('cursor same twice');
  });

  it('path parameters are kept on every page', async () => {
    const { fetch, seen } = fakeFetch(page(['m1'], 'cur1'), page(['m2'], null));
    const { client } = clientWith(fetch);
    const ids: string[] = [];
    for await (const message of client.paginate('/v1/conversations/{id}/messages', { params: { path: { id: 'conv1' } } })) ids.push(message.id);
    expect(ids).toEqual(['m1', 'm2']);
    expect(seen.map((request) => request.url.pathname)).toEqual(['/v1/conversations/conv1/messages', '/v1/conversations/conv1/messages']);
  });
});
