import { TestApi, ProvisionedAccount } from './support/test-api';

describe('GET /v1/me and the authentication contract', () => {
  let api: TestApi;
  let account: ProvisionedAccount;

  beforeAll(async () => {
    api = await TestApi.start();
    account = await api.provision({
      api_keys: [
        { name: 'full', preset: 'full_integration', per_hour: 5000 },
        { name: 'capture', preset: 'lead_capture' },
      ],
    });
  });
  afterAll(() => api.close());

  it('returns the calling key with scopes, preset, lifecycle and rate limits', async () => {
    const response = await api.request({ path: '/v1/me', token: account.api_keys.full.key });
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({
      key_id: account.api_keys.full.id,
      key_name: 'full',
      key_prefix: account.api_keys.full.prefix,
      key_format_version: 1,
      client_id: account.account_id,
      client_name: 'Rénovations Tremblay',
      preset: 'full_integration',
      lifecycle_state: 'active',
      expires_at: null,
      rate_limits: { per_hour: 5000 },
    });
    expect(response.body.data.scopes).toContain('contacts:delete');
    expect(response.headers['service-version']).toBe('v1');
    expect(response.headers['x-request-id']).toEqual(expect.any(String));
    expect(response.headers['ratelimit-limit']).toBe('5000');
  });

  it('answers 401 invalid_api_key with the error envelope for a missing key', async () => {
    const response = await api.request({ path: '/v1/me' });
    expect(response.status).toBe(401);
    expect(response.body).toEqual({
      code: 'invalid_api_key',
      message: expect.any(String),
      details: null,
      type: 'authentication_error',
      doc_url: 'http://127.0.0.1:3000/docs/errors#invalid_api_key',
      request_id: response.headers['x-request-id'],
    });
  });

  it('echoes a valid X-Request-ID', async () => {
    const response = await api.request({ path: '/v1/me', headers: { 'x-request-id': 'trace-123' } });
    expect(response.headers['x-request-id']).toBe('trace-123');
    expect(response.body.request_id).toBe('trace-123');
  });
});
