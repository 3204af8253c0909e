import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isAlias, parse, parseDocument, visit } from 'yaml';
import { loadOpenApiDocument, OPENAPI_DOCUMENTS } from './openapi.controller';

/** True when the YAML text holds an anchor (`&name`) or an alias (`*name`). */
function hasAnchors(text: string): boolean {
  let found = false;
  visit(parseDocument(text), (_key, node) => {
    if (isAlias(node) || (node !== null && typeof node === 'object' && 'anchor' in node && typeof node.anchor === 'string')) found = true;
  });
  return found;
}

describe('served OpenAPI YAML is plain (no anchors or aliases, issue 18 item 8)', () => {
  it.each(
    (Object.keys(OPENAPI_DOCUMENTS) as (keyof typeof OPENAPI_DOCUMENTS)[]).flatMap((audience) =>
      (['fr', 'en'] as const).map((language) => [audience, language] as const),
    ),
  )('the checked-in %s description (%s) is served without anchors', (audience, language) => {
    const loaded = loadOpenApiDocument(audience, language);
    expect(hasAnchors(loaded.yaml)).toBe(false);
    expect(loaded.yaml).not.toMatch(/: &\w+|: \*\w+/);
  });

  it('a description written with anchors is re-emitted with the aliases expanded, same content', () => {
    const dir = mkdtempSync(join(tmpdir(), 'openapi-'));
    try {
      const text = [
        'openapi: 3.1.0',
        'info: { title: t, version: "1" }',
        'components:',
        '  schemas:',
        '    Booking:',
        '      properties:',
        '        created_at: &id001',
        '          type: string',
        '          format: date-time',
        '        updated_at: *id001',
        '',
      ].join('\n');
      writeFileSync(join(dir, OPENAPI_DOCUMENTS.public.en), text);
      const loaded = loadOpenApiDocument('public', 'en', dir);
      expect(hasAnchors(loaded.yaml)).toBe(false);
      expect(loaded.yaml).not.toContain('&id001');
      expect(loaded.yaml).not.toContain('*id001');
      expect(parse(loaded.yaml)).toEqual(parse(text));
      expect(JSON.parse(loaded.json)).toEqual(parse(text));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
