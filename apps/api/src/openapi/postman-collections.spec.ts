import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parse } from 'yaml';
import { OPENAPI_DIR } from './openapi.controller';
// The converter is generation-time code (a devDependency), outside the api's sources on purpose.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { generatePostmanCollections } from '../../../../tools/scripts/postman-converter';
import { DESCRIPTION_BASE_URL, POSTMAN_COLLECTIONS, POSTMAN_TOKEN_VARIABLE } from './postman-collection';

/**
 * The Postman collections are generated at build time (issue 16, item 6) and checked in beside the
 * descriptions (`apps/api/openapi/postman*.json`): this spec fails when one is stale (a description
 * changed and `node -r @swc-node/register tools/scripts/generate-postman.ts` was not run), and checks
 * what the issue asks of them: the bearer variable declared, real example bodies.
 */

jest.setTimeout(60_000);

interface Item {
  name: string;
  item?: Item[];
  request?: { method: string; auth?: { type: string }; body?: { raw?: string }; url: { path: string[] } };
  response?: { code: number; body?: string }[];
}
const requestsOf = (items: Item[]): Item[] => items.flatMap((item) => (item.item ? requestsOf(item.item) : [item]));
const read = (file: string) => readFileSync(resolve(OPENAPI_DIR, file), 'utf8');
const entries = (['public', 'operator'] as const).flatMap((audience) => (['fr', 'en'] as const).map((language) => [audience, language, POSTMAN_COLLECTIONS[audience][language]] as const));

describe('Postman collections generated at build time (issue 16, item 6)', () => {
  let fresh: Map<string, string>;

  beforeAll(async () => {
    fresh = await generatePostmanCollections(OPENAPI_DIR, (path) => readFileSync(path, 'utf8'));
  });

  it.each(entries)('the checked-in %s collection (%s, %s) is what the description converts to today (else: run tools/scripts/generate-postman.ts)', (_audience, _language, files) => {
    const checkedIn = read(files.collection);
    if (checkedIn !== fresh.get(files.collection)) {
      throw new Error(`apps/api/openapi/${files.collection} is stale: run node -r @swc-node/register tools/scripts/generate-postman.ts`);
    }
  });

  it('two conversions of one description are byte-identical (ids and faked values are seeded)', async () => {
    const again = await generatePostmanCollections(OPENAPI_DIR, (path) => readFileSync(path, 'utf8'));
    expect([...again.entries()]).toEqual([...fresh.entries()]);
  });

  it.each(entries)('the %s collection (%s) declares baseUrl and its bearer variable, every request of the description, real example bodies', (audience, _language, files) => {
    const collection = JSON.parse(read(files.collection));
    const variable = POSTMAN_TOKEN_VARIABLE[audience];
    expect(collection.variable).toEqual([
      { key: 'baseUrl', value: DESCRIPTION_BASE_URL, type: 'string' },
      { key: variable, value: '', type: 'string' },
    ]);
    expect(collection.auth).toEqual({ type: 'bearer', bearer: [{ key: 'token', value: `{{${variable}}}`, type: 'string' }] });
    const text = read(files.collection);
    expect(text).not.toContain('{{bearerToken}}');

    const description = parse(read(files.description)) as { paths: Record<string, Record<string, { security?: unknown[] }>> };
    const operations = Object.values(description.paths).flatMap((item) => Object.entries(item).filter(([method]) => ['get', 'post', 'patch', 'put', 'delete'].includes(method)));
    const requests = requestsOf(collection.item);
    expect(requests).toHaveLength(operations.length);
    // Operations with `security: []` are sent without a token (`noauth`); the others inherit the collection's bearer.
    const open = operations.filter(([, op]) => Array.isArray(op.security) && op.security.length === 0).length;
    expect(requests.filter((item) => item.request?.auth?.type === 'noauth').length).toBeGreaterThanOrEqual(open);
    expect(requests.filter((item) => item.request?.auth && item.request.auth.type !== 'noauth')).toEqual([]);

    for (const item of requests) {
      const raw = item.request?.body?.raw;
      if (raw && item.request?.method !== 'GET') {
        expect(raw).not.toMatch(/: "string"/);
        expect(raw).not.toMatch(/<string>|<uuid>/);
      }
      for (const response of item.response ?? []) {
        expect(response.code).toBeGreaterThanOrEqual(200);
        expect(response.code).toBeLessThan(300);
      }
    }
  });

  it('the public collection sends the OpenAPI examples: POST /v1/contacts creates Julie Tremblay, the quote is the fr-CA example with GST and QST', () => {
    const requests = requestsOf(JSON.parse(read('postman.en.json')).item);
    const create = requests.find((item) => item.request?.method === 'POST' && item.request.url.path.join('/') === 'v1/contacts');
    expect(JSON.parse(create?.request?.body?.raw ?? '{}')).toMatchObject({ email: 'julie.tremblay@videotron.ca', first_name: 'Julie', last_name: 'Tremblay' });
    const quote = requests.find((item) => item.request?.method === 'POST' && item.request.url.path.join('/') === 'v1/quotes');
    expect(JSON.parse(quote?.request?.body?.raw ?? '{}')).toMatchObject({ language: 'fr' });
    const saved = JSON.parse(quote?.response?.[0]?.body ?? '{}');
    expect(saved.data).toMatchObject({ subtotal: 18520, tps_amount: 926, tvq_amount: 1847.37, total: 21293.37 });
  });
});
