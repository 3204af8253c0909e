import { parse } from 'yaml';
import { TEST_ADMIN_TOKEN } from '@leadflow/shared-testing';
import { TestApi } from './support/test-api';

/**
 * The API reference prefills the service's base URL (issue 16, item 1): the served descriptions and
 * Postman collections name the instance's `PUBLIC_BASE_URL` (servers, `info.contact.url`,
 * `externalDocs.url`, examples; the collection's `baseUrl` variable), never the checked-in files' default
 * (`http://127.0.0.1:3000`). Redoc renders `/openapi.json`, so its endpoints and code samples show it.
 */
describe('served OpenAPI descriptions and Postman collections name PUBLIC_BASE_URL', () => {
  const BASE = 'https://crm.lavoie-renovations.test';
  let api: TestApi;

  beforeAll(async () => {
    api = await TestApi.start({ PUBLIC_BASE_URL: `${BASE}/` });
  });
  afterAll(() => api.close());

  it.each([
    ['/openapi.json', undefined],
    ['/openapi.en.json', undefined],
    ['/admin/openapi.json', TEST_ADMIN_TOKEN],
    ['/admin/openapi.en.json', TEST_ADMIN_TOKEN],
  ])('%s: servers, contact and changelog links name PUBLIC_BASE_URL (trailing slash dropped)', async (path, token) => {
    const response = await api.request({ path, token });
    expect(response.status).toBe(200);
    expect(response.body.servers).toEqual([expect.objectContaining({ url: BASE })]);
    expect(response.body.info.contact.url).toBe(`${BASE}/docs/errors`);
    expect(response.body.externalDocs.url).toBe(`${BASE}/docs/changelog`);
    expect(response.raw.body).not.toContain('http://127.0.0.1:3000');
  });

  it.each([
    ['/openapi.yaml', undefined],
    ['/openapi.en.yaml', undefined],
    ['/admin/openapi.yaml', TEST_ADMIN_TOKEN],
    ['/admin/openapi.en.yaml', TEST_ADMIN_TOKEN],
  ])('%s: the YAML names PUBLIC_BASE_URL too', async (path, token) => {
    const response = await api.request({ path, token });
    expect(response.status).toBe(200);
    expect(parse(response.raw.body).servers[0].url).toBe(BASE);
    expect(response.raw.body).not.toContain('http://127.0.0.1:3000');
  });

  it.each([
    ['/postman.json', undefined],
    ['/postman.en.json', undefined],
    ['/admin/postman.json', TEST_ADMIN_TOKEN],
    ['/admin/postman.en.json', TEST_ADMIN_TOKEN],
  ])('%s: the collection variable baseUrl is PUBLIC_BASE_URL', async (path, token) => {
    const response = await api.request({ path, token });
    expect(response.status).toBe(200);
    expect(response.body.variable).toEqual(expect.arrayContaining([{ key: 'baseUrl', value: BASE, type: 'string' }]));
    expect(response.raw.body).not.toContain('http://127.0.0.1:3000');
  });
});
