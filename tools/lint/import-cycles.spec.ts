import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importCycles } from './import-cycles';
import { sourceFiles, WORKSPACE_ROOT } from './source-files';

/** Rule (issue 14, item 5): no import cycle between files, type-only imports included (import-x/no-cycle skips those). */
describe('import cycles', () => {
  it('no file of libs, apps or tools (tests included) reaches itself through relative imports', () => {
    expect(importCycles(WORKSPACE_ROOT, sourceFiles({ tests: true }))).toEqual([]);
  }, 60_000); // reads every source file

  it('fails when broken: a cycle closed by a type-only import is reported, a chain is not', () => {
    const root = mkdtempSync(join(tmpdir(), 'import-cycles-'));
    try {
      mkdirSync(join(root, 'domain', 'lead'), { recursive: true });
      writeFileSync(join(root, 'domain', 'contact.ts'), "import { enrich } from './lead/enrichment';\nexport interface State { id: string }\nexport const use = enrich;\n");
      writeFileSync(join(root, 'domain', 'lead', 'enrichment.ts'), "import type { State } from '../contact';\nexport const enrich = (state: State) => state;\n");
      writeFileSync(join(root, 'domain', 'leaf.ts'), "export * from './contact';\n");
      expect(importCycles(root, ['domain/contact.ts', 'domain/lead/enrichment.ts', 'domain/leaf.ts'])).toEqual([['domain/contact.ts', 'domain/lead/enrichment.ts']]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
