import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parse } from 'yaml';
import { TestApi } from './support/test-api';

/**
 * The served OpenAPI 3.1 descriptions (public-api-v1 › Versioning): `/openapi.yaml` and `/openapi.json`
 * in French, `/openapi.en.yaml` and `/openapi.en.json` in English, without authentication.
 */
const DIR = resolve(__dirname, '..', 'openapi');
const files = {
  fr: readFileSync(resolve(DIR, 'openapi.fr.yaml'), 'utf8'),
  en: readFileSync(resolve(DIR, 'openapi.en.yaml'), 'utf8'),
};

describe('OpenAPI descriptions', () => {
  let api: TestApi;

  beforeAll(async () => {
    api = await TestApi.start();
  });
  afterAll(() => api.close());

  it.each([
    ['/openapi.yaml', 'fr'],
    ['/openapi.en.yaml', 'en'],
  ] as const)('%s serves the %s YAML file as application/yaml', async (path, language) => {
    const response = await api.request({ path });
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/yaml/);
    expect(response.raw.body).toBe(files[language]);
    expect(response.headers['service-version']).toBe('v1');
  });

  it.each([
    ['/openapi.json', 'fr'],
    ['/openapi.en.json', 'en'],
  ] as const)('%s serves the %s description parsed from the YAML as application/json', async (path, language) => {
    const response = await api.request({ path });
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.body).toEqual(parse(files[language]));
    expect(response.body.openapi).toMatch(/^3\.1\./);
  });

  it('the French and English descriptions share one contract (same paths and methods)', async () => {
    const fr = (await api.request({ path: '/openapi.json' })).body;
    const en = (await api.request({ path: '/openapi.en.json' })).body;
    const operations = (doc: { paths: Record<string, Record<string, unknown>> }) =>
      Object.entries(doc.paths).flatMap(([path, item]) => Object.keys(item).map((method) => `${method} ${path}`)).sort();
    expect(operations(fr)).toEqual(operations(en));
    expect(fr.info.description).not.toBe(en.info.description);
  });

  it('needs no API key: a wrong Authorization header is ignored', async () => {
    const response = await api.request({ path: '/openapi.json', headers: { authorization: 'Bearer nope' } });
    expect(response.status).toBe(200);
  });

  it.each([
    ['/postman.json', 'fr'],
    ['/postman.en.json', 'en'],
  ] as const)('%s serves a Postman collection v2.1 of the %s description: every operation, baseUrl = PUBLIC_BASE_URL, bearer {{apiKey}}', async (path, language) => {
    const response = await api.request({ path, headers: { authorization: 'Bearer nope' } });
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    const collection = response.body;
    expect(collection.info.schema).toMatch(/collection\/v2\.1\.0/);
    expect(collection.variable).toEqual(
      expect.arrayContaining([
        { key: 'baseUrl', value: 'http://127.0.0.1:3000', type: 'string' },
        { key: 'apiKey', value: '', type: 'string' },
      ]),
    );
    expect(collection.auth).toEqual({ type: 'bearer', bearer: [{ key: 'token', value: '{{apiKey}}', type: 'string' }] });
    const requests: { method: string }[] = [];
    const walk = (items: { item?: unknown[]; request?: { method: string } }[]) =>
      items.forEach((entry) => (entry.request ? requests.push(entry.request) : walk((entry.item ?? []) as never)));
    walk(collection.item);
    const doc = parse(files[language]) as { paths: Record<string, Record<string, unknown>> };
    const operations = Object.values(doc.paths).flatMap((item) => Object.keys(item).filter((key) => ['get', 'post', 'patch', 'delete', 'put'].includes(key)));
    expect(requests).toHaveLength(operations.length);
  });
});

