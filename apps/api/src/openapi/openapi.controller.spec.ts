import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { loadOpenApiDocument, loadPostmanCollection, OPENAPI_DIR, OPENAPI_DOCUMENTS, OpenApiAudience, OpenApiLanguage } from './openapi.controller';
import { DESCRIPTION_BASE_URL, withBaseUrl } from './postman-collection';

describe('loadOpenApiDocument', () => {
  const dir = mkdtempSync(join(tmpdir(), 'openapi-'));

  it('reads the YAML and renders it as JSON once', () => {
    writeFileSync(join(dir, 'openapi.fr.yaml'), '# comment\nopenapi: 3.1.0\ninfo: { title: T, version: "1" }\npaths: {}\n');
    const loaded = loadOpenApiDocument('public', 'fr', dir);
    expect(loaded.yaml).toContain('# comment');
    expect(JSON.parse(loaded.json)).toEqual({ openapi: '3.1.0', info: { title: 'T', version: '1' }, paths: {} });
  });

  it('reads the operator description from its own files', () => {
    writeFileSync(join(dir, 'operator.en.yaml'), 'openapi: 3.1.0\ninfo: { title: Operator, version: "1" }\npaths: {}\n');
    expect(JSON.parse(loadOpenApiDocument('operator', 'en', dir).json).info.title).toBe('Operator');
  });

  it('refuses a missing file, invalid YAML and a document that is not a mapping', () => {
    expect(() => loadOpenApiDocument('public', 'en', join(dir, 'nowhere'))).toThrow();
    writeFileSync(join(dir, 'openapi.en.yaml'), 'openapi: [3.1\n');
    expect(() => loadOpenApiDocument('public', 'en', dir)).toThrow();
    writeFileSync(join(dir, 'openapi.en.yaml'), '- a\n- b\n');
    expect(() => loadOpenApiDocument('public', 'en', dir)).toThrow(/openapi.en.yaml is not a YAML mapping/);
    writeFileSync(join(dir, 'operator.fr.yaml'), '- a\n');
    expect(() => loadOpenApiDocument('operator', 'fr', dir)).toThrow(/operator.fr.yaml is not a YAML mapping/);
  });

  const checkedIn = (Object.keys(OPENAPI_DOCUMENTS) as OpenApiAudience[]).flatMap((audience) =>
    (Object.keys(OPENAPI_DOCUMENTS[audience]) as OpenApiLanguage[]).map((language) => [audience, language] as const),
  );

  it.each(checkedIn)('finds the checked-in %s description (%s), an OpenAPI 3.1 document', (audience, language) => {
    const loaded = loadOpenApiDocument(audience, language, OPENAPI_DIR);
    expect(parse(loaded.yaml).openapi).toBe('3.1.0');
  });

  it('every public path starts with /v1 and no operator path does', () => {
    for (const language of ['fr', 'en'] as const) {
      const publicPaths = Object.keys(JSON.parse(loadOpenApiDocument('public', language).json).paths);
      const operatorPaths = Object.keys(JSON.parse(loadOpenApiDocument('operator', language).json).paths);
      expect(publicPaths.filter((path) => !/^\/v1\//.test(path))).toEqual([]);
      expect(operatorPaths.filter((path) => /^\/v1\//.test(path))).toEqual([]);
      expect(operatorPaths).toEqual(expect.arrayContaining(['/health', '/admin/v1/accounts', '/q/{token}', '/openapi.json', '/admin/openapi.json']));
    }
  });
});

describe('the served copies name PUBLIC_BASE_URL (issue 16: the API reference prefills the base URL)', () => {
  it.each(['public', 'operator'] as const)('the %s description: servers, info.contact.url, externalDocs.url and the examples name the instance, in YAML and JSON', (audience) => {
    for (const language of ['fr', 'en'] as const) {
      const loaded = loadOpenApiDocument(audience, language, OPENAPI_DIR, 'https://crm.lavoie-renovations.test');
      for (const document of [JSON.parse(loaded.json), parse(loaded.yaml)]) {
        expect(document.servers).toEqual([expect.objectContaining({ url: 'https://crm.lavoie-renovations.test' })]);
        expect(document.info.contact.url).toBe('https://crm.lavoie-renovations.test/docs/errors');
        expect(document.externalDocs.url).toBe('https://crm.lavoie-renovations.test/docs/changelog');
      }
      expect(loaded.yaml).not.toContain(DESCRIPTION_BASE_URL);
      expect(loaded.json).not.toContain(DESCRIPTION_BASE_URL);
    }
  });

  it('the checked-in files name npm start’s default, served unchanged when PUBLIC_BASE_URL is that default', () => {
    const text = readFileSync(join(OPENAPI_DIR, 'openapi.en.yaml'), 'utf8');
    expect(parse(text).servers[0].url).toBe(DESCRIPTION_BASE_URL);
    expect(loadOpenApiDocument('public', 'en', OPENAPI_DIR, DESCRIPTION_BASE_URL).yaml).toBe(text);
  });

  it('withBaseUrl replaces the default base URL only where it is the whole authority (not :30001)', () => {
    expect(withBaseUrl('a http://127.0.0.1:3000/docs b http://127.0.0.1:30001/x', 'https://h.test')).toBe('a https://h.test/docs b http://127.0.0.1:30001/x');
    expect(withBaseUrl('http://127.0.0.1:3000/v1', DESCRIPTION_BASE_URL)).toBe('http://127.0.0.1:3000/v1');
  });

  it('a PUBLIC_BASE_URL with a quote, a backslash or a space is percent-encoded: the YAML and JSON still parse', () => {
    const loaded = loadOpenApiDocument('public', 'en', OPENAPI_DIR, 'https://h.test/a"b\\c d');
    expect(JSON.parse(loaded.json).servers[0].url).toBe('https://h.test/a%22b/c%20d');
    expect(parse(loaded.yaml).servers[0].url).toBe('https://h.test/a%22b/c%20d');
    expect(JSON.parse(loadPostmanCollection('public', 'en', OPENAPI_DIR, 'https://h.test/a"b')).variable[0].value).toBe('https://h.test/a%22b');
  });

  it('loadPostmanCollection reads the checked-in collection with baseUrl set to the instance', () => {
    const collection = JSON.parse(loadPostmanCollection('operator', 'en', OPENAPI_DIR, 'https://crm.lavoie-renovations.test'));
    expect(collection.variable).toEqual(expect.arrayContaining([{ key: 'baseUrl', value: 'https://crm.lavoie-renovations.test', type: 'string' }]));
    expect(() => loadPostmanCollection('public', 'fr', join(OPENAPI_DIR, 'nowhere'))).toThrow();
  });
});
