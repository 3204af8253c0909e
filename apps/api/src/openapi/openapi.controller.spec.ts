import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { loadOpenApiDocument, OPENAPI_DIR, OPENAPI_DOCUMENTS, OpenApiAudience, OpenApiLanguage } from './openapi.controller';

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
