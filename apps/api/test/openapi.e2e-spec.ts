import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parse } from 'yaml';
import { TEST_ADMIN_TOKEN } from '@leadflow/shared-testing';
import { TestApi } from './support/test-api';

/**
 * The served OpenAPI 3.1 descriptions (public-api-v1 › Versioning; issue 13, item 5):
 * - public, `/v1` paths only, without authentication: `/openapi.yaml` and `/openapi.json` in French,
 *   `/openapi.en.yaml` and `/openapi.en.json` in English, Postman collections `/postman.json`, `/postman.en.json`;
 * - operator (operator API, `/health`, quote page, document routes), only when `ADMIN_TOKEN` is set and
 *   with that token: `/admin/openapi.yaml`, `/admin/openapi.json`, `/admin/openapi.en.yaml`,
 *   `/admin/openapi.en.json`, Postman collections `/admin/postman.json`, `/admin/postman.en.json`.
 */
const ROOT = resolve(__dirname, '..', '..', '..');
const DIR = resolve(__dirname, '..', 'openapi');
const files = {
  public: { fr: readFileSync(resolve(DIR, 'openapi.fr.yaml'), 'utf8'), en: readFileSync(resolve(DIR, 'openapi.en.yaml'), 'utf8') },
  operator: { fr: readFileSync(resolve(DIR, 'operator.fr.yaml'), 'utf8'), en: readFileSync(resolve(DIR, 'operator.en.yaml'), 'utf8') },
};
type Audience = keyof typeof files;
type Doc = { paths: Record<string, Record<string, unknown>>; info: { description: string } };

/** Every route of the description and how to read it. */
const ROUTES: { path: string; audience: Audience; language: 'fr' | 'en'; format: 'yaml' | 'json' }[] = [
  { path: '/openapi.yaml', audience: 'public', language: 'fr', format: 'yaml' },
  { path: '/openapi.json', audience: 'public', language: 'fr', format: 'json' },
  { path: '/openapi.en.yaml', audience: 'public', language: 'en', format: 'yaml' },
  { path: '/openapi.en.json', audience: 'public', language: 'en', format: 'json' },
  { path: '/admin/openapi.yaml', audience: 'operator', language: 'fr', format: 'yaml' },
  { path: '/admin/openapi.json', audience: 'operator', language: 'fr', format: 'json' },
  { path: '/admin/openapi.en.yaml', audience: 'operator', language: 'en', format: 'yaml' },
  { path: '/admin/openapi.en.json', audience: 'operator', language: 'en', format: 'json' },
];
const OPERATOR_ROUTES = [...ROUTES.filter((route) => route.audience === 'operator').map((route) => route.path), '/admin/postman.json', '/admin/postman.en.json'];
const tokenFor = (audience: Audience) => (audience === 'operator' ? TEST_ADMIN_TOKEN : undefined);
const operations = (doc: Doc) =>
  Object.entries(doc.paths).flatMap(([path, item]) => Object.keys(item).filter((key) => ['get', 'post', 'patch', 'delete', 'put'].includes(key)).map((method) => `${method} ${path}`)).sort();

describe('OpenAPI descriptions', () => {
  let api: TestApi;

  beforeAll(async () => {
    api = await TestApi.start();
  });
  afterAll(() => api.close());

  it.each(ROUTES.filter((route) => route.format === 'yaml').map((route) => [route.path, route.audience, route.language] as const))(
    '%s serves the %s description (%s) YAML file as application/yaml',
    async (path, audience, language) => {
      const response = await api.request({ path, token: tokenFor(audience) });
      expect(response.status).toBe(200);
      expect(response.headers['content-type']).toMatch(/^application\/yaml/);
      expect(response.raw.body).toBe(files[audience][language]);
      expect(response.headers['service-version']).toBe('v1');
    },
  );

  it.each(ROUTES.filter((route) => route.format === 'json').map((route) => [route.path, route.audience, route.language] as const))(
    '%s serves the %s description (%s) parsed from the YAML as application/json, OpenAPI 3.1',
    async (path, audience, language) => {
      const response = await api.request({ path, token: tokenFor(audience) });
      expect(response.status).toBe(200);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expect(response.body).toEqual(parse(files[audience][language]));
      expect(response.body.openapi).toMatch(/^3\.1\./);
    },
  );

  it.each([
    ['public', '/openapi.json', '/openapi.en.json'],
    ['operator', '/admin/openapi.json', '/admin/openapi.en.json'],
  ] as const)('the French and English %s descriptions share one contract (same paths and methods)', async (audience, frPath, enPath) => {
    const fr = (await api.request({ path: frPath, token: tokenFor(audience) })).body as Doc;
    const en = (await api.request({ path: enPath, token: tokenFor(audience) })).body as Doc;
    expect(operations(fr)).toEqual(operations(en));
    expect(fr.info.description).not.toBe(en.info.description);
  });

  it('every public path starts with /v1: the served public descriptions hold no other path', async () => {
    for (const path of ['/openapi.json', '/openapi.en.json']) {
      const doc = (await api.request({ path })).body as Doc;
      expect(Object.keys(doc.paths).filter((documented) => !documented.startsWith('/v1/'))).toEqual([]);
      expect(Object.keys(doc.paths).length).toBeGreaterThan(20);
    }
  });

  it('the operator description documents /health, the quote page, the document routes and the operator API, and no /v1 path', async () => {
    const doc = (await api.request({ path: '/admin/openapi.en.json', token: TEST_ADMIN_TOKEN })).body as Doc;
    const paths = Object.keys(doc.paths);
    expect(paths).toEqual(
      expect.arrayContaining([
        '/health',
        '/q/{token}',
        '/q/{token}/sign',
        '/q/{token}/decline',
        ...ROUTES.map((route) => route.path),
        '/postman.json',
        '/postman.en.json',
        '/admin/postman.json',
        '/admin/postman.en.json',
        '/admin/v1/accounts',
      ]),
    );
    expect(paths.filter((path) => path.startsWith('/v1/'))).toEqual([]);
  });

  it('the parity checker passes on both pairs (fr/en parity, public paths /v1 only, operator paths never /v1)', () => {
    const output = execFileSync(process.execPath, [resolve(ROOT, 'tools/scripts/check-openapi-parity.mjs')], { cwd: ROOT, encoding: 'utf8' });
    expect(output).toContain('operator.fr.yaml and apps/api/openapi/operator.en.yaml share one contract');
    expect(output).toContain('OpenAPI partition OK');
  });

  it('the public descriptions need no API key: a wrong Authorization header is ignored', async () => {
    const response = await api.request({ path: '/openapi.json', headers: { authorization: 'Bearer nope' } });
    expect(response.status).toBe(200);
  });

  it.each(OPERATOR_ROUTES.map((path, index) => [path, `10.13.5.${index + 1}`]))('%s is operator-protected: 401 invalid_admin_token without the token or with a wrong one, nothing served', async (path, remoteAddress) => {
    for (const token of [undefined, 'nope']) {
      const response = await api.request({ path, token, remoteAddress });
      expect(response.status).toBe(401);
      expect(response.body).toMatchObject({ code: 'invalid_admin_token', details: null, type: 'authentication_error' });
      expect(response.raw.body).not.toContain('openapi');
    }
  });

  it('the operator description counts wrong tokens like the operator API: the 11th from one address within 10 minutes is 429 brute_force', async () => {
    const remoteAddress = '10.13.6.1';
    for (let attempt = 1; attempt <= 10; attempt += 1) {
      expect((await api.request({ path: '/admin/openapi.json', token: `wrong-${attempt}`, remoteAddress })).status).toBe(401);
    }
    const refused = await api.request({ path: '/admin/openapi.json', token: 'wrong-11', remoteAddress });
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: 'rate_limit_exceeded', details: { limit_type: 'brute_force' } });
    expect(refused.headers['retry-after']).toBeDefined();
  });

  it.each([
    ['/postman.json', 'public', 'fr'],
    ['/postman.en.json', 'public', 'en'],
    ['/admin/postman.json', 'operator', 'fr'],
    ['/admin/postman.en.json', 'operator', 'en'],
  ] as const)('%s serves a Postman collection v2.1 of the %s description (%s): every operation, baseUrl = PUBLIC_BASE_URL, bearer token variable', async (path, audience, language) => {
    const variable = audience === 'operator' ? 'adminToken' : 'apiKey';
    const response = await api.request({ path, token: audience === 'operator' ? TEST_ADMIN_TOKEN : 'nope' });
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    const collection = response.body;
    expect(collection.info.schema).toMatch(/collection\/v2\.1\.0/);
    expect(collection.variable).toEqual(
      expect.arrayContaining([
        { key: 'baseUrl', value: 'http://127.0.0.1:3000', type: 'string' },
        { key: variable, value: '', type: 'string' },
      ]),
    );
    expect(collection.auth).toEqual({ type: 'bearer', bearer: [{ key: 'token', value: `{{${variable}}}`, type: 'string' }] });
    const requests: { method: string }[] = [];
    const walk = (items: { item?: unknown[]; request?: { method: string } }[]) =>
      items.forEach((entry) => (entry.request ? requests.push(entry.request) : walk((entry.item ?? []) as never)));
    walk(collection.item);
    expect(requests).toHaveLength(operations(parse(files[audience][language]) as Doc).length);
  });
});

describe('OpenAPI descriptions without ADMIN_TOKEN', () => {
  let api: TestApi;

  beforeAll(async () => {
    api = await TestApi.start({ ADMIN_TOKEN: '' });
  });
  afterAll(() => api.close());

  it.each(OPERATOR_ROUTES)('%s answers 404 not_found, like every /admin path, whatever the token', async (path) => {
    for (const token of [undefined, TEST_ADMIN_TOKEN]) {
      const response = await api.request({ path, token });
      expect(response.status).toBe(404);
      expect(response.body).toMatchObject({ code: 'not_found', details: null, type: 'not_found_error' });
    }
  });

  it('the public descriptions are still served, without the operator paths', async () => {
    const response = await api.request({ path: '/openapi.en.json' });
    expect(response.status).toBe(200);
    expect(Object.keys(response.body.paths).filter((path: string) => !path.startsWith('/v1/'))).toEqual([]);
  });
});
