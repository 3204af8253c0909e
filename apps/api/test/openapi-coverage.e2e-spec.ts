import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parse } from 'yaml';
import { registeredRoutes } from '@leadflow/shared-platform';
import { TestApi } from './support/test-api';

/**
 * Keeps the OpenAPI descriptions in step with the code: every `/v1` and `/admin/v1` route the app
 * registers (method + path, `{param}` form) is documented in both `openapi.fr.yaml` and
 * `openapi.en.yaml`, and every documented `/v1` and `/admin/v1` operation is served.
 * The routes come from the Fastify instance itself (an onRoute hook installed before Nest registers
 * anything), so they are what the server really answers.
 */
const DIR = resolve(__dirname, '..', 'openapi');
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'options', 'head', 'trace'];
const COVERED = /^\/(admin\/)?v1(\/|$)/;
/**
 * Served outside the API on purpose, so neither described nor covered: the lead's public quote page
 * (server-rendered HTML for a browser, no API key, form posts; operator-api › PUBLIC_BASE_URL).
 */
const NON_API_HTML_ROUTES = ['GET /q/{token}', 'POST /q/{token}/sign', 'POST /q/{token}/decline'];

function documented(file: string): Set<string> {
  const doc = parse(readFileSync(resolve(DIR, file), 'utf8')) as { paths?: Record<string, Record<string, unknown>> };
  const operations = new Set<string>();
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    if (!COVERED.test(path)) continue;
    for (const method of Object.keys(item)) {
      if (METHODS.includes(method)) operations.add(`${method.toUpperCase()} ${path}`);
    }
  }
  return operations;
}

const minus = (a: Set<string>, b: Set<string>) => [...a].filter((operation) => !b.has(operation)).sort();

describe('OpenAPI coverage of the registered routes', () => {
  let api: TestApi;
  let served: Set<string>;

  beforeAll(async () => {
    api = await TestApi.start();
    served = new Set(
      registeredRoutes(api.app)
        .filter((route) => COVERED.test(route.path))
        .map((route) => `${route.method} ${route.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}')}`),
    );
  });
  afterAll(() => api.close());

  it('sees the routes Nest registered', () => {
    expect(served).toContain('GET /v1/me');
    expect(served).toContain('POST /admin/v1/accounts');
  });

  it('serves the public quote pages as non-API HTML routes, left out of the descriptions', () => {
    const all = new Set(registeredRoutes(api.app).map((route) => `${route.method} ${route.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}')}`));
    for (const route of NON_API_HTML_ROUTES) expect(all).toContain(route);
    for (const file of ['openapi.fr.yaml', 'openapi.en.yaml']) {
      const paths = Object.keys((parse(readFileSync(resolve(DIR, file), 'utf8')) as { paths: Record<string, unknown> }).paths);
      expect(paths.filter((path) => path.startsWith('/q/'))).toEqual([]);
    }
  });

  it('every /v1 and /admin/v1 route is in both descriptions, and every documented one exists', () => {
    const fr = documented('openapi.fr.yaml');
    const en = documented('openapi.en.yaml');
    expect({
      'served but missing from openapi.fr.yaml': minus(served, fr),
      'served but missing from openapi.en.yaml': minus(served, en),
      'documented in openapi.fr.yaml but not served': minus(fr, served),
      'documented in openapi.en.yaml but not served': minus(en, served),
    }).toEqual({
      'served but missing from openapi.fr.yaml': [],
      'served but missing from openapi.en.yaml': [],
      'documented in openapi.fr.yaml but not served': [],
      'documented in openapi.en.yaml but not served': [],
    });
  });
});
