import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parse } from 'yaml';
import { registeredRoutes } from '@leadflow/shared-platform';
import { TestApi } from './support/test-api';

/**
 * Keeps the OpenAPI descriptions in step with the code (issue 13, item 5: every public path starts
 * with `/v1`, nothing undocumented). Two descriptions, each in French and English:
 * - public (`openapi.fr.yaml`, `openapi.en.yaml`): `/v1/...` paths only;
 * - operator (`operator.fr.yaml`, `operator.en.yaml`): every other route (operator API `/admin/v1`,
 *   `/health`, the public quote page `/q/{token}`, the OpenAPI and Postman document routes).
 * Every route the app registers (method + path, `{param}` form) is documented in exactly one of the
 * two, in both languages, and every documented operation is served. The routes come from the Fastify
 * instance itself (an onRoute hook installed before Nest registers anything), so they are what the
 * server really answers.
 */
const DIR = resolve(__dirname, '..', 'openapi');
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'options', 'head', 'trace'];
const FILES = {
  public: { fr: 'openapi.fr.yaml', en: 'openapi.en.yaml' },
  operator: { fr: 'operator.fr.yaml', en: 'operator.en.yaml' },
} as const;

function documented(file: string): Set<string> {
  const doc = parse(readFileSync(resolve(DIR, file), 'utf8')) as { paths?: Record<string, Record<string, unknown>> };
  const operations = new Set<string>();
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const method of Object.keys(item)) {
      if (METHODS.includes(method)) operations.add(`${method.toUpperCase()} ${path}`);
    }
  }
  return operations;
}

const minus = (a: Set<string>, b: Set<string>) => [...a].filter((operation) => !b.has(operation)).sort();
const pathOf = (operation: string) => operation.slice(operation.indexOf(' ') + 1);

describe('OpenAPI coverage of the registered routes', () => {
  let api: TestApi;
  let served: Set<string>;
  const docs = {
    public: { fr: documented(FILES.public.fr), en: documented(FILES.public.en) },
    operator: { fr: documented(FILES.operator.fr), en: documented(FILES.operator.en) },
  };

  beforeAll(async () => {
    api = await TestApi.start();
    served = new Set(registeredRoutes(api.app).map((route) => `${route.method} ${route.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}')}`));
  });
  afterAll(() => api.close());

  it('sees the routes Nest registered, inside and outside /v1', () => {
    for (const route of ['GET /v1/me', 'POST /admin/v1/accounts', 'GET /health', 'GET /q/{token}', 'POST /q/{token}/sign', 'GET /openapi.json', 'GET /admin/openapi.json']) {
      expect(served).toContain(route);
    }
  });

  it('every public path starts with /v1: the public descriptions document /v1 operations only', () => {
    for (const language of ['fr', 'en'] as const) {
      expect([...docs.public[language]].filter((operation) => !pathOf(operation).startsWith('/v1/'))).toEqual([]);
    }
  });

  it('the operator description holds every route outside /v1, and no /v1 route', () => {
    for (const language of ['fr', 'en'] as const) {
      expect([...docs.operator[language]].filter((operation) => pathOf(operation).startsWith('/v1/'))).toEqual([]);
    }
    const outside = [...served].filter((operation) => !pathOf(operation).startsWith('/v1/'));
    expect(minus(new Set(outside), docs.operator.en)).toEqual([]);
  });

  it('nothing undocumented: every registered route is in exactly one description (both languages), and every documented one is served', () => {
    const report: Record<string, string[]> = {};
    for (const language of ['fr', 'en'] as const) {
      const pub = docs.public[language];
      const op = docs.operator[language];
      report[`served but in neither ${language} description`] = [...served].filter((operation) => !pub.has(operation) && !op.has(operation)).sort();
      report[`in both ${language} descriptions`] = [...pub].filter((operation) => op.has(operation)).sort();
      report[`documented in ${FILES.public[language]} but not served`] = minus(pub, served);
      report[`documented in ${FILES.operator[language]} but not served`] = minus(op, served);
    }
    expect(report).toEqual(Object.fromEntries(Object.keys(report).map((key) => [key, []])));
  });
});
