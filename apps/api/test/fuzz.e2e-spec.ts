import fc from 'fast-check';
import { TEST_ADMIN_TOKEN } from '@leadflow/shared-testing';
import { automationsList } from './support/automations-fixtures';
import { bookingsBlueprint } from './support/bookings-fixtures';
import { createContact, createTag } from './support/contacts-fixtures';
import { EXAMPLE_EVENTS } from './support/events-fixtures';
import { createQuote, QUOTE_DEFAULTS, SENDABLE } from './support/quotes-fixtures';
import { encodeAny, envelopeProblems, fillPath, OpenApiOperation, openApiOperations } from './support/openapi-routes';
import { ProvisionedAccount, TestApi } from './support/test-api';

/**
 * Property-based fuzzing of every `/v1` and `/admin/v1` operation of the OpenAPI description
 * (public-api-v1 › Errors): whatever a client sends (wrong types, nulls, control characters, lone
 * surrogates, nested arrays, 100 KB strings, unknown fields, bad path ids, wrong content types, bad query
 * values), the API never answers 5xx and every 4xx is the error envelope.
 *
 * Seeded: `FUZZ_SEED` (default below) and `FUZZ_RUNS` runs per operation. A failure prints the seed,
 * the counterexample and the replay path (fast-check's report, carried by the thrown error).
 */
const SEED = process.env.FUZZ_SEED !== undefined ? Number(process.env.FUZZ_SEED) : 20261124;
const RUNS = process.env.FUZZ_RUNS !== undefined ? Number(process.env.FUZZ_RUNS) : 300;

const HUGE = 'x'.repeat(100 * 1024);
const CONTROL = fc.constantFrom('\u0000', 'a\u0000b', '\u0001\u0002\u001f', '\u007f', '\u0085', '\u2028', '\u202e', '\ufeff', '\r\n', '\t');
const SURROGATE = fc.constantFrom('\ud800', '\udfff', 'a\ud83db', '\udc00\ud800', `x${'\ud800'.repeat(3)}`);
const WEIRD_STRING = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  CONTROL,
  SURROGATE,
  fc.constantFrom('', ' ', 'null', 'true', '-1', '1e999', 'NaN', '0x10', '2026-13-45T99:99:99Z', '../../etc/passwd', "' OR 1=1 --", '<script>', '%00', '{}', '[]', 'not-a-uuid', '00000000-0000-0000-0000-000000000000'),
  fc.constant(HUGE),
  fc.constant(`\u0000${HUGE}`),
);
const WEIRD_VALUE: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: WEIRD_STRING, weight: 4 },
  { arbitrary: fc.constantFrom(null, true, false, 0, -1, 1.5, -0, 1e308, Number.MAX_SAFE_INTEGER + 2, -1e21), weight: 2 },
  { arbitrary: fc.constantFrom([[]], [[[]]], [], [null], [{}], {}, { '': null }, { __proto__: { x: 1 } }, { constructor: { prototype: {} } }), weight: 2 },
  { arbitrary: fc.uuid().map((uuid) => uuid), weight: 1 },
  { arbitrary: fc.array(WEIRD_STRING, { maxLength: 4 }), weight: 1 },
  { arbitrary: fc.jsonValue({ maxDepth: 3 }), weight: 1 },
);
const BAD_ID = fc.oneof(
  fc.uuid(),
  fc.constantFrom('', 'x', '1', '-1', 'null', 'undefined', '00000000-0000-0000-0000-00000000000g', '00000000000000000000000000000000', '{id}', '..', '%2e%2e', 'a'.repeat(300)),
  WEIRD_STRING.filter((value) => value.length < 2000),
);

interface Attempt {
  method: OpenApiOperation['method'];
  path: string;
  token: string | undefined;
  rawBody: string | undefined;
  headers: Record<string, string>;
  remoteAddress: string;
}

type Json = Record<string, unknown>;

/** Every member path of a JSON value (`['line_items', 0, 'quantity']`), the value itself included (`[]`). */
function memberPaths(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  const paths: (string | number)[][] = [prefix];
  if (Array.isArray(value)) value.forEach((item, index) => paths.push(...memberPaths(item, [...prefix, index])));
  else if (value !== null && typeof value === 'object') for (const [key, item] of Object.entries(value)) paths.push(...memberPaths(item, [...prefix, key]));
  return paths;
}

/** A copy of `base` whose member at `path` is replaced (or removed when `value` is `undefined`). */
function mutate(base: unknown, path: (string | number)[], value: unknown): unknown {
  if (path.length === 0) return value;
  const copy: any = Array.isArray(base) ? [...base] : { ...(base as Json) }; // eslint-disable-line @typescript-eslint/no-explicit-any
  const [head, ...rest] = path;
  if (rest.length === 0 && value === undefined) {
    if (Array.isArray(copy)) copy.splice(head as number, 1);
    else delete copy[head];
  } else {
    copy[head] = mutate(copy[head], rest, value);
  }
  return copy;
}

/** A valid body with one member replaced by a malformed value, removed, or joined by an unknown sibling: reaches past the first validation error. */
function nearValid(base: Json): fc.Arbitrary<{ rawBody?: string; contentType?: string }> {
  const paths = memberPaths(base);
  return fc
    .tuple(fc.constantFrom(...paths), fc.oneof({ arbitrary: WEIRD_VALUE, weight: 5 }, { arbitrary: fc.constant(undefined), weight: 1 }), fc.option(fc.tuple(fc.string({ maxLength: 12 }), WEIRD_VALUE), { freq: 5 }))
    .map(([path, value, extra]) => {
      let body = mutate(base, path, value);
      if (extra && body !== null && typeof body === 'object' && !Array.isArray(body)) body = { ...(body as Json), [extra[0]]: extra[1] };
      return { rawBody: JSON.stringify(body) ?? 'null', contentType: 'application/json' };
    });
}

function bodyArbitrary(operation: OpenApiOperation, valid?: Json): fc.Arbitrary<{ rawBody?: string; contentType?: string }> {
  const fieldNames = operation.bodyFields.length > 0 ? operation.bodyFields : ['name'];
  const knownFields = fc.dictionary(fc.constantFrom(...fieldNames), WEIRD_VALUE, { maxKeys: Math.min(4, fieldNames.length) + 1 });
  const withUnknown = fc.tuple(knownFields, fc.oneof(fc.string({ maxLength: 20 }), SURROGATE, CONTROL), WEIRD_VALUE).map(([known, key, value]) => ({ ...known, [key]: value }));
  const jsonBody = fc.oneof(knownFields, withUnknown, WEIRD_VALUE).map((value) => ({ rawBody: JSON.stringify(value) ?? 'null', contentType: 'application/json' }));
  const rawJson = fc.constantFrom('{', '{"a":', 'nul', '[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]', '{"a":1,"a":2}', '\u0000', '"\\ud800"', '{"x":"\\u0000"}', '')
    .map((rawBody) => ({ rawBody, contentType: 'application/json' }));
  const wrongType = fc.tuple(
    fc.constantFrom('text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/xml', 'application/json; charset=latin1', 'application/json\u0000', '*/*', 'application/jsonx'),
    fc.oneof(fc.constant('{"name":"x"}'), fc.constant('a=1&b=2'), WEIRD_STRING),
  ).map(([contentType, rawBody]) => ({ rawBody, contentType }));
  const noContentType = fc.constant({ rawBody: '{"name":"x"}' });
  const none = fc.constant({});
  return fc.oneof({ arbitrary: valid ? nearValid(valid) : jsonBody, weight: valid ? 6 : 1 }, { arbitrary: jsonBody, weight: 6 }, { arbitrary: rawJson, weight: 2 }, { arbitrary: wrongType, weight: 2 }, { arbitrary: noContentType, weight: 1 }, { arbitrary: none, weight: 1 });
}

function queryArbitrary(operation: OpenApiOperation): fc.Arbitrary<string> {
  const names = [...operation.queryParams, 'cursor', 'limit', 'unknown_param', 'expand', 'include'];
  const pair = fc.tuple(fc.oneof({ arbitrary: fc.constantFrom(...names), weight: 5 }, { arbitrary: WEIRD_STRING.filter((value) => value.length < 200), weight: 1 }), fc.oneof(WEIRD_STRING.filter((value) => value.length < 9000), fc.constantFrom('-5', '0', '101', '1.5', 'abc', 'eyJ4IjoxfQ', '!!!', 'true')));
  return fc.array(pair, { maxLength: 4 }).map((pairs) => pairs.map(([name, value]) => `${encodeAny(name)}=${encodeAny(value)}`).join('&'));
}

describe('fuzz: every documented operation survives malformed input (public-api-v1 › Errors)', () => {
  let api: TestApi;
  let account: ProvisionedAccount;
  let token: string;
  let existing: string[] = [];
  /** A valid body of the operations the fixtures can feed (the base of the near-valid mutations). */
  let validBodies: Record<string, Json> = {};
  const operations = openApiOperations();
  const covered = new Set<string>();
  let requests = 0;
  const statuses = new Map<number, number>();
  const started = Date.now();

  beforeAll(async () => {
    api = await TestApi.start();
    account = await api.provision(
      bookingsBlueprint({ quote_defaults: QUOTE_DEFAULTS, automations: automationsList(), events: EXAMPLE_EVENTS, api_keys: [{ name: 'full', preset: 'full_integration', per_hour: 1000000 }] }),
    );
    token = account.api_keys.full.key;
    // Real ids too, so malformed bodies and queries also reach existing resources (not only the not-found path).
    const contact = await createContact(api, token, { first_name: 'Nadia', email: 'nadia.fuzz@example.com' });
    const tag = await createTag(api, token, { name: 'Fuzz' });
    const quote = await createQuote(api, token, SENDABLE);
    const calendars = account.calendars as Record<string, string>;
    const stage = Object.values(account.pipelines!)[0].stages;
    validBodies = {
      'POST /v1/contacts': { first_name: 'Nadia', last_name: 'Bélanger', email: 'nadia.b@example.com', phone: '514 555-0142', company: 'X', custom_fields: {} },
      'PATCH /v1/contacts/{id}': { company: 'Matrice', is_priority: true, deal_value: 1200 },
      'POST /v1/contacts/{id}/tags': { tag_ids: [tag.id] },
      'POST /v1/contacts/{id}/notes': { body: 'Note' },
      'POST /v1/tags': { name: 'VIP', color: '#1A2B3C', description: 'x', category: 'projet' },
      'POST /v1/quotes': SENDABLE,
      'PATCH /v1/quotes/{id}': { internal_notes: 'x', prospect_name: 'Nadia' },
      'POST /v1/bookings': { event_type_id: calendars.Consultation, start_datetime: '2027-03-02T15:00:00Z', contact_id: contact.id, form_responses: { adresse: { value: '12 rue Principale' } } },
      'POST /v1/pipeline/deals': { contact_id: contact.id, stage_id: Object.values(stage)[0] },
      'PATCH /v1/pipeline/deals/{id}': { stage_id: Object.values(stage)[1] },
      'POST /v1/automations/{id}/trigger': { contact_id: contact.id, event_data: { message: 'x' } },
      'POST /v1/webhooks': { url: 'https://93.184.215.14/hooks/leadflow', events: '*' },
      'POST /v1/event-registrations': { contact_id: contact.id, event_slug: 'salon-2027' },
      'POST /v1/leads/capture': { first_name: 'Nadia', email: 'nadia.c@example.com', phone: '514 555-0142' },
      'POST /v1/presuasion/submissions': {
        tool: { slug: 'quiz', name: 'Quiz' },
        form_id: 'v2',
        answers: [{ question_id: 'q1', question: 'Projet ?', answer: ['cuisine'], score: 2 }],
        score: 2,
        outcome: 'Prêt',
        person: { email: 'nadia.p@example.com', phone: '514 555-0143', first_name: 'Nadia', language: 'fr' },
        consent: { sms: true, ads: 'non' },
        attribution: { utm: { source: 'facebook' }, gclid: 'G-1', page_url: 'https://example.com/quiz' },
        submitted_at: '2026-01-01T00:00:00Z',
      },
      'POST /v1/emails/send': { contact_id: contact.id, subject: 'Bonjour', html: '<p>x</p>' },
      'POST /admin/v1/accounts': { name: 'Fuzz', api_terms_accepted: true, api_keys: [{ name: 'k', preset: 'full_integration' }] },
      'PATCH /admin/v1/accounts/{account_id}': { timezone: 'America/Montreal', quote_defaults: QUOTE_DEFAULTS },
      'POST /admin/v1/accounts/{account_id}/api-keys': { name: 'k', preset: 'full_integration', per_hour: 10 },
      'POST /admin/v1/accounts/{account_id}/contacts/{contact_id}/merge': { into_contact_id: contact.id },
      'POST /admin/v1/accounts/{account_id}/quotes/{quote_id}/lead-actions': { action: 'view' },
      'POST /admin/v1/accounts/{account_id}/bookings/{booking_id}/outcome': { status: 'completed' },
      'POST /admin/v1/accounts/{account_id}/calendars/{calendar_id}/busy-times': { host_id: Object.values(account.team_members)[0], kind: 'blocked_time', start_datetime: '2027-04-05T14:00:00Z', end_datetime: '2027-04-05T15:00:00Z' },
      'PATCH /admin/v1/accounts/{account_id}/event-registrations/{registration_id}': { status: 'declined', opted_out: true },
    };
    existing = [contact.id, tag.id, quote.id, account.api_keys.full.id, ...Object.values(account.calendars as Record<string, string>), ...Object.values(account.automations as Record<string, string>), ...Object.values(account.team_members)];
  });
  afterAll(async () => {
    console.log(
      `fuzz: ${requests} requests over ${covered.size}/${operations.length} operations, seed ${SEED}, ${RUNS} runs each, ` +
        `${((Date.now() - started) / 1000).toFixed(1)} s; statuses ${JSON.stringify(Object.fromEntries([...statuses].sort((a, b) => a[0] - b[0])))}`,
    );
    await api?.close();
  });

  it('derives the operations from the OpenAPI description', () => {
    expect(operations.length).toBeGreaterThan(40);
    expect(operations.some((operation) => operation.path === '/v1/contacts/{id}' && operation.method === 'GET')).toBe(true);
  });

  it.each(operations.map((operation) => [`${operation.method} ${operation.path}`, operation] as const))('%s never answers 5xx and every 4xx is the envelope', async (_, operation) => {
    const attempt = fc.record({
      ids: fc.record(
        Object.fromEntries(
          operation.pathParams.map((name) => [
            name,
            name === 'account_id' ? fc.oneof({ arbitrary: fc.constant('$account'), weight: 3 }, { arbitrary: BAD_ID, weight: 1 }) : fc.oneof({ arbitrary: fc.constantFrom(...existing), weight: 1 }, { arbitrary: BAD_ID, weight: 1 }),
          ]),
        ),
      ),
      query: queryArbitrary(operation),
      body: operation.hasBody || operation.method !== 'GET' ? bodyArbitrary(operation, validBodies[`${operation.method} ${operation.path}`]) : fc.oneof({ arbitrary: fc.constant<{ rawBody?: string; contentType?: string }>({}), weight: 4 }, { arbitrary: bodyArbitrary(operation), weight: 1 }),
      auth: fc.oneof({ arbitrary: fc.constant('good'), weight: 8 }, { arbitrary: fc.constantFrom('none', 'bad', 'other'), weight: 1 }),
      idempotencyKey: fc.option(fc.oneof(WEIRD_STRING.filter((value) => value.length < 300 && !/[^\u0020-\u007e]/.test(value)), fc.uuid()), { freq: 3 }),
      ip: fc.ipV4(),
    });
    await fc.assert(
      fc.asyncProperty(attempt, async (input) => {
        const path = fillPath(operation.path, Object.fromEntries(Object.entries(input.ids).map(([name, value]) => [name, value === '$account' ? account.account_id : encodeAny(value as string)])));
        const goodToken = operation.admin ? TEST_ADMIN_TOKEN : token;
        const request: Attempt = {
          method: operation.method,
          path: input.query.length > 0 ? `${path}?${input.query}` : path,
          token: input.auth === 'good' ? goodToken : input.auth === 'bad' ? 'lf_live_nope' : input.auth === 'other' ? (operation.admin ? token : TEST_ADMIN_TOKEN) : undefined,
          rawBody: input.body.rawBody,
          headers: {
            ...(input.body.contentType !== undefined ? { 'content-type': input.body.contentType } : {}),
            ...(input.idempotencyKey !== null ? { 'idempotency-key': input.idempotencyKey } : {}),
          },
          remoteAddress: input.ip,
        };
        const response = await api.request(request);
        requests += 1;
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        const problems = envelopeProblems(response.status, response.body, request.path);
        if (problems.length > 0) {
          throw new Error(`${request.method} ${request.path.slice(0, 300)} → ${response.status} ${JSON.stringify(response.body)?.slice(0, 500)}: ${problems.join(', ')}`);
        }
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
    covered.add(`${operation.method} ${operation.path}`);
  });

  it('fuzzed every operation', () => {
    expect(covered.size).toBe(operations.length);
    expect(requests).toBeGreaterThanOrEqual(operations.length * RUNS);
  });
});
