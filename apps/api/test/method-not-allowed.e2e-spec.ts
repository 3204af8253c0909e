import { TestApi } from './support/test-api';

/**
 * A wrong method on a known path (issue 18, item 8): 405 `method_not_allowed` in the error envelope with
 * an `Allow` header listing the methods the path serves (and `details.allowed_methods`), before
 * authentication like a 404; an unknown path still answers 404 `not_found`; nothing is written.
 */
describe('method_not_allowed (405 with Allow)', () => {
  let api: TestApi;
  let token: string;

  beforeAll(async () => {
    api = await TestApi.start();
    token = (await api.provision()).api_keys.full!.key;
  });
  afterAll(() => api.close());

  it.each([
    ['PUT', '/v1/contacts', 'GET, HEAD, POST'],
    ['PUT', '/v1/contacts/00000000-0000-4000-8000-000000000000', 'DELETE, GET, HEAD, PATCH'],
    ['POST', '/v1/me', 'GET, HEAD'],
    ['DELETE', '/v1/me', 'GET, HEAD'],
  ] as const)('%s %s answers 405 method_not_allowed with Allow: %s', async (method, path, allow) => {
    const response = await api.request({ method, path, token, body: {} });
    expect(response.status).toBe(405);
    expect(response.headers.allow).toBe(allow);
    expect(response.body).toMatchObject({
      code: 'method_not_allowed',
      type: 'invalid_request_error',
      details: { allowed_methods: allow.split(', ') },
      request_id: response.headers['x-request-id'],
    });
  });

  it('answers 405 without authentication too (the path is public knowledge through the OpenAPI document)', async () => {
    const response = await api.request({ method: 'PUT', path: '/v1/me' });
    expect(response.status).toBe(405);
    expect(response.headers.allow).toBe('GET, HEAD');
    expect(response.body.code).toBe('method_not_allowed');
  });

  it('the legacy prefix gets the same 405 with its deprecation headers', async () => {
    const response = await api.request({ method: 'PUT', path: '/api/v1/me', token });
    expect(response.status).toBe(405);
    expect(response.headers.allow).toBe('GET, HEAD');
    expect(response.headers.deprecation).toEqual(expect.any(String));
  });

  it('a query string does not change the answer', async () => {
    const response = await api.request({ method: 'PUT', path: '/v1/contacts?limit=5', token, body: {} });
    expect(response.status).toBe(405);
    expect(response.headers.allow).toBe('GET, HEAD, POST');
  });

  it.each([
    ['GET', '/v1/no-such-route'],
    ['PUT', '/v1/no-such-route'],
    ['GET', '/v1/contacts/x/y/z'],
    ['GET', '/no-such-route'],
  ] as const)('%s %s (unknown path) still answers 404 not_found, without Allow', async (method, path) => {
    const response = await api.request({ method, path, token, body: {} });
    expect(response.status).toBe(404);
    expect(response.headers.allow).toBeUndefined();
    expect(response.body.code).toBe('not_found');
  });

  it('a refused method writes nothing (no contact created by PUT /v1/contacts)', async () => {
    const before = await api.request({ path: '/v1/contacts', token });
    await api.request({ method: 'PUT', path: '/v1/contacts', token, body: { email: 'put@example.com' } });
    const after = await api.request({ path: '/v1/contacts', token });
    expect(after.body.data).toHaveLength(before.body.data.length);
  });

  it('the operator API stays hidden while ADMIN_TOKEN is unset: a wrong method there answers 404, not 405', async () => {
    const hidden = await TestApi.start({ ADMIN_TOKEN: '' });
    try {
      const response = await hidden.request({ method: 'PUT', path: '/admin/v1/accounts' });
      expect(response.status).toBe(404);
      expect(response.headers.allow).toBeUndefined();
      expect(response.body.code).toBe('not_found');
    } finally {
      await hidden.close();
    }
    const shown = await api.request({ method: 'PUT', path: '/admin/v1/accounts' });
    expect(shown.status).toBe(405);
    expect(shown.headers.allow).toContain('POST');
  });
});
