import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadOpenApiDocument, OPENAPI_DIR } from './openapi.controller';

describe('loadOpenApiDocument', () => {
  const dir = mkdtempSync(join(tmpdir(), 'openapi-'));

  it('reads the YAML and renders it as JSON once', () => {
    writeFileSync(join(dir, 'openapi.fr.yaml'), '# comment\nopenapi: 3.1.0\ninfo: { title: T, version: "1" }\npaths: {}\n');
    const loaded = loadOpenApiDocument('fr', dir);
    expect(loaded.yaml).toContain('# comment');
    expect(JSON.parse(loaded.json)).toEqual({ openapi: '3.1.0', info: { title: 'T', version: '1' }, paths: {} });
  });

  it('refuses a missing file, invalid YAML and a document that is not a mapping', () => {
    expect(() => loadOpenApiDocument('en', join(dir, 'nowhere'))).toThrow();
    writeFileSync(join(dir, 'openapi.en.yaml'), 'openapi: [3.1\n');
    expect(() => loadOpenApiDocument('en', dir)).toThrow();
    writeFileSync(join(dir, 'openapi.en.yaml'), '- a\n- b\n');
    expect(() => loadOpenApiDocument('en', dir)).toThrow(/not a YAML mapping/);
  });

  it('finds the checked-in descriptions', () => {
    expect(() => loadOpenApiDocument('fr', OPENAPI_DIR)).not.toThrow();
    expect(() => loadOpenApiDocument('en', OPENAPI_DIR)).not.toThrow();
  });
});
