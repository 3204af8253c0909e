import { FixedClock } from '@leadflow/shared-kernel';
import { captureLead, captureWriteCounts, freshPhone, leadsBlueprint } from './support/lead-capture-fixtures';
import { ProvisionedAccount, TestApi, TestResponse } from './support/test-api';

/**
 * public-api-v1 › Endpoints › Leads rule 9 and Errors: the simplified 422 body of lead capture, the
 * standard envelope of its 400, 403, 409, 415 and 422 `system_not_found`, and bad input never 500.
 * Every refusal leaves the account's tables as they were.
 */
describe('lead capture refusals', () => {
  let api: TestApi;
  let account: ProvisionedAccount;
  let key: string;

  beforeAll(async () => {
    api = await TestApi.start({}, new FixedClock(new Date('2026-05-14T13:00:00.000Z')));
    account = await api.provision(leadsBlueprint());
    key = account.api_keys.capture.key;
  });
  afterAll(() => api.close());

  const capture = (body: unknown) => captureLead(api, key, body);

  /** The simplified 422 body: exactly code, message, details (array of { field, reason }), request_id. */
  function expectSimplified(response: TestResponse, code: string, details: { field: string; reason: string }[]): void {
    expect(response.status).toBe(422);
    expect(response.body).toEqual({ code, message: expect.any(String), details, request_id: response.headers['x-request-id'] });
    expect(response.body).not.toHaveProperty('type');
    expect(response.body).not.toHaveProperty('doc_url');
  }

  async function refusedWithoutWrites(body: unknown): Promise<TestResponse> {
    const before = await captureWriteCounts(api, account);
    const response = await capture(body);
    expect(await captureWriteCounts(api, account)).toEqual(before);
    return response;
  }

  describe('422 in the simplified body (no type, no doc_url, details [{ field, reason }])', () => {
    it.each([
      ['an array', [{ phone: '5145550152', sms_consent: true }]],
      ['a JSON string (double-encoded body)', '{"phone":"(514) 555-0153","sms_consent":true}'],
      ['a number', 42],
      ['null', null],
    ])('invalid_payload when the body is %s: field ""', async (_, body) => {
      expectSimplified(await refusedWithoutWrites(body), 'invalid_payload', [{ field: '', reason: 'invalid_payload' }]);
    });

    it('invalid_payload for an empty application/json body', async () => {
      const response = await captureLead(api, key, undefined, { rawBody: '' });
      expectSimplified(response, 'invalid_payload', [{ field: '', reason: 'invalid_payload' }]);
    });

    it('invalid_phone with field phone when the phone is missing', async () => {
      expectSimplified(await refusedWithoutWrites({ first_name: 'Patrice', email: 'patrice@gmail.com', sms_consent: true }), 'invalid_phone', [
        { field: 'phone', reason: 'required' },
      ]);
    });

    it.each(['abc', '5145550149 / 4505550149', '514-555-015', 12.5, -187, 9007199254740992, true, { n: 1 }])(
      'invalid_phone for %p',
      async (phone) => {
        expectSimplified(await refusedWithoutWrites({ phone, sms_consent: true }), 'invalid_phone', [{ field: 'phone', reason: 'invalid_phone' }]);
      },
    );

    it('the message echoes the invalid scalar value, capped at 120 characters', async () => {
      const phone = `abc-${'x'.repeat(200)}`;
      const response = await capture({ phone, sms_consent: true });
      expect(response.status).toBe(422);
      expect(response.body.message).toContain(phone.slice(0, 120));
      expect(response.body.message).not.toContain(phone.slice(0, 121));
      const abc = await capture({ phone: 'abc', sms_consent: true });
      expect(abc.body.message).toContain('"abc"');
    });

    it('invalid_email with field email; nothing created even though the phone is valid', async () => {
      const response = await refusedWithoutWrites({ email: 'marc.tremblay@videotron', phone: freshPhone().raw, sms_consent: true });
      expectSimplified(response, 'invalid_email', [{ field: 'email', reason: 'invalid_email' }]);
      expect(response.body.message).toContain('marc.tremblay@videotron');
    });

    it.each([false, 'no', 'non', 0, 1, 'maybe', '', 'false'])('missing_consent for sms_consent %p', async (sms_consent) => {
      const response = await refusedWithoutWrites({ phone: freshPhone().raw, sms_consent });
      expect(response.status).toBe(422);
      expect(response.body.code).toBe('missing_consent');
      expect(response.body.details).toEqual([{ field: 'sms_consent', reason: 'missing_consent' }]);
      expect(response.body).not.toHaveProperty('type');
    });

    it('missing_consent (field sms_consent) when no consent is sent at the root nor in customData', async () => {
      expectSimplified(await refusedWithoutWrites({ phone: freshPhone().raw, customData: { campaign_name: 'x' } }), 'missing_consent', [
        { field: 'sms_consent', reason: 'required' },
      ]);
    });

    it.each(['true', 'YES', 'Oui', 'on', '1', 'y', 'O', true])('consent %p is accepted (whitelist, any casing)', async (sms_consent) => {
      expect((await capture({ phone: freshPhone().raw, sms_consent })).status).toBe(200);
    });

    it('consent inside customData is accepted', async () => {
      expect((await capture({ phone: freshPhone().raw, customData: { sms_consent: 'OUI' } })).status).toBe(200);
    });
  });

  describe('standard envelope', () => {
    it('400 invalid_request for a body that is not JSON', async () => {
      const before = await captureWriteCounts(api, account);
      const response = await captureLead(api, key, undefined, { rawBody: '{"phone": "514 555 0154", "sms_consent": true,}' });
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ code: 'invalid_request', details: { field: '', reason: 'invalid_json' }, type: 'invalid_request_error', doc_url: expect.any(String) });
      expect(await captureWriteCounts(api, account)).toEqual(before);
    });

    it('415 for a text/plain body (sendBeacon)', async () => {
      const response = await api.request({
        method: 'POST',
        path: '/v1/leads/capture',
        token: key,
        rawBody: JSON.stringify({ phone: '4505550155', sms_consent: true }),
        headers: { 'content-type': 'text/plain;charset=UTF-8' },
        remoteAddress: '10.99.0.1',
      });
      expect(response.status).toBe(415);
      expect(response.body).toMatchObject({ code: 'unsupported_media_type', type: 'invalid_request_error', doc_url: expect.any(String) });
    });

    it('401 invalid_api_key without a key', async () => {
      const response = await api.request({ method: 'POST', path: '/v1/leads/capture', body: { phone: '5145550123', sms_consent: true }, remoteAddress: '10.99.0.2' });
      expect(response.status).toBe(401);
      expect(response.body.code).toBe('invalid_api_key');
    });

    it('403 insufficient_scope without leads:capture (standard envelope, details.required_scope)', async () => {
      const response = await captureLead(api, account.api_keys.reader.key, { phone: freshPhone().raw, sms_consent: true });
      expect(response.status).toBe(403);
      expect(response.body).toEqual({
        code: 'insufficient_scope',
        message: expect.any(String),
        details: { required_scope: 'leads:capture' },
        type: 'permission_error',
        doc_url: 'http://127.0.0.1:3000/docs/errors#insufficient_scope',
        request_id: response.headers['x-request-id'],
      });
    });

    it('403 terms_acceptance_required (standard envelope) until the account accepts the API terms; nothing written', async () => {
      const pending = await api.provision(leadsBlueprint({ name: 'Sans conditions', api_terms_accepted: false }));
      const body = { phone: freshPhone().raw, sms_consent: true };
      const before = await captureWriteCounts(api, pending);
      const refused = await captureLead(api, pending.api_keys.capture.key, body);
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual({
        code: 'terms_acceptance_required',
        message: expect.any(String),
        details: null,
        type: 'permission_error',
        doc_url: 'http://127.0.0.1:3000/docs/errors#terms_acceptance_required',
        request_id: refused.headers['x-request-id'],
      });
      expect(await captureWriteCounts(api, pending)).toEqual(before);
      const patched = await api.admin('PATCH', `/accounts/${pending.account_id}`, { api_terms_accepted: true });
      expect(patched.status).toBe(200);
      expect((await captureLead(api, pending.api_keys.capture.key, body)).status).toBe(200);
    });

    it('terms are checked before the body: an invalid body of an account without terms is still 403', async () => {
      const pending = await api.provision(leadsBlueprint({ name: 'Sans conditions 2', api_terms_accepted: false }));
      expect((await captureLead(api, pending.api_keys.capture.key, [])).status).toBe(403);
    });
  });

  describe('bad input never gives a 500', () => {
    const deep = (depth: number): unknown => (depth === 0 ? 'x' : { nested: deep(depth - 1) });
    const odd: [string, unknown][] = [
      ['deeply nested blocks', { phone: freshPhone().raw, sms_consent: true, pipeline: deep(200), utm: deep(50), customData: deep(50) }],
      ['arrays where objects are expected', { phone: freshPhone().raw, sms_consent: true, pipeline: [1], utm: [], meta: [], customData: [], custom_fields: [] }],
      ['objects where strings are expected', { phone: freshPhone().raw, sms_consent: true, first_name: {}, email: null, notes: [], tags: [{}, null, 3], source_label: 1 }],
      ['huge strings', { phone: freshPhone().raw, sms_consent: true, notes: 'n'.repeat(50_000), first_name: 'f'.repeat(10_000), tags: ['t'.repeat(5000)] }],
      ['many tags', { phone: freshPhone().raw, sms_consent: true, tags: Array.from({ length: 300 }, (_, index) => `tag ${index}`) }],
      ['non-string custom field values', { phone: freshPhone().raw, sms_consent: true, custom_fields: { budget: { a: 1 }, type_projet: ['cuisine'], superficie: 'beaucoup', site_web: 'javascript:alert(1)' } }],
      ['invalid pipeline members', { phone: freshPhone().raw, sms_consent: true, pipeline: { pipeline_slug: {}, stage_slug: [], deal_value: 'cher', expected_close_date: 'demain', assigned_sales_rep_email: 5 } }],
      ['a pipeline slug of 10 000 characters', { phone: freshPhone().raw, sms_consent: true, pipeline: { pipeline_slug: 'p'.repeat(10_000) } }],
      ['control and unicode characters', { phone: freshPhone().raw, sms_consent: true, first_name: '\u0000\u202e👩‍🔧', last_name: '\ud800', email: 'é@é.é' }],
      [
        'NUL and unpaired surrogates in every stored text',
        {
          phone: freshPhone().raw,
          sms_consent: true,
          notes: 'a\u0000b\ud800',
          source_label: '\udc00x',
          tags: ['t\u0000ag'],
          utm: { source: 's\u0000' },
          city: 'Mont\u0000réal',
          custom_fields: { budget: '1\u0000000 $' },
          pipeline: { pipeline_slug: 'ven\u0000tes' },
          qualification_answers: [{ 'q\u0000': 'a\ud800' }],
        },
      ],
      ['an email with a NUL character', { phone: freshPhone().raw, sms_consent: true, email: 'a\u0000@b.co' }],
      ['qualification answers nested too deep', { phone: freshPhone().raw, sms_consent: true, qualification_answers: [deep(100)] }],
      ['a system_id object', { phone: freshPhone().raw, sms_consent: true, system_id: { id: 1 } }],
      ['a phone of many characters', { phone: '5'.repeat(10_000), sms_consent: true }],
      ['a number phone in exponent form', { phone: 1.5145550123e10, sms_consent: true }],
      ['prototype-like members', { phone: freshPhone().raw, sms_consent: true, toString: 1, valueOf: 'x', hasOwnProperty: [] }],
      ['an empty object', {}],
      ['50 000 unknown members (answered quickly, 50 of them named)', { phone: freshPhone().raw, sms_consent: true, ...Object.fromEntries(Array.from({ length: 50_000 }, (_, index) => [`k${index}`, 0])) }],
    ];

    it.each(odd)('%s', async (_, body) => {
      const response = await capture(body);
      expect(response.status).not.toBeGreaterThanOrEqual(500);
      expect([200, 400, 413, 422]).toContain(response.status);
      if (response.status === 200) expect(response.body.status).toBe('created');
    });

    it('a body nested deeper than 32 levels (here 100 000): 400 invalid_request too_deep from the body parser, with or without a key (never a 500)', async () => {
      const before = await captureWriteCounts(api, account);
      const deepJson = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
      const plain = await captureLead(api, key, undefined, { rawBody: `{"phone":"${freshPhone().raw}","sms_consent":true,"x":${deepJson}}` });
      expect(plain.status).toBe(400);
      expect(plain.body).toMatchObject({ code: 'invalid_request', details: { field: '', reason: 'too_deep' } });
      const keyed = await captureLead(api, key, undefined, {
        rawBody: `{"phone":"${freshPhone().raw}","sms_consent":true,"x":${deepJson}}`,
        headers: { 'Idempotency-Key': 'deep-body' },
      });
      expect(keyed.status).toBe(400);
      expect(keyed.body).toMatchObject({ code: 'invalid_request', details: { field: '', reason: 'too_deep' } });
      const answers = await captureLead(api, key, undefined, { rawBody: `{"phone":"${freshPhone().raw}","sms_consent":true,"qualification_answers":${deepJson}}` });
      expect(answers.status).toBe(400);
      expect(await captureWriteCounts(api, account)).toEqual(before);
    });

    it('a __proto__ member is refused as invalid JSON (400), never reaching the handler', async () => {
      const response = await captureLead(api, key, undefined, { rawBody: `{"phone":"5145550123","sms_consent":true,"__proto__":{"x":1}}` });
      expect(response.status).toBe(400);
      expect(response.body.code).toBe('invalid_request');
    });
  });
});
