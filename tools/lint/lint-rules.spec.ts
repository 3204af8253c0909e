import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { WORKSPACE_ROOT } from './source-files';

interface LintMessage {
  ruleId: string | null;
  message: string;
  line: number;
}

/** Runs the repository's ESLint (eslint.config.mjs) on `files` and answers each file's messages. */
function lint(files: string[]): Map<string, LintMessage[]> {
  let output: string;
  try {
    output = execFileSync(process.execPath, [join(WORKSPACE_ROOT, 'node_modules/eslint/bin/eslint.js'), '--format', 'json', '--no-warn-ignored', ...files], {
      cwd: WORKSPACE_ROOT,
      maxBuffer: 64 * 1024 * 1024,
      env: { ...process.env, NX_DAEMON: 'false' },
    }).toString();
  } catch (error) {
    output = String((error as { stdout?: Buffer }).stdout ?? ''); // exit code 1: lint errors, the JSON is on stdout
  }
  const results = JSON.parse(output) as { filePath: string; messages: LintMessage[] }[];
  return new Map(results.map((result) => [result.filePath.slice(WORKSPACE_ROOT.length + 1), result.messages]));
}

const rules = (messages: LintMessage[] | undefined) => (messages ?? []).map((message) => message.ruleId);

/**
 * Rules (issue 14, item 5) shown to fail when broken: probe files written into real projects, linted with
 * the repository's configuration, removed afterwards.
 */
describe('lint rules fail when broken', () => {
  const tag = `lint-probe-${process.pid}`;
  const dir = join('libs', 'quotes', 'core', 'src', tag);
  const domainProbe = join('libs', 'quotes', 'core', 'src', 'domain', `${tag}.ts`);
  let results: Map<string, LintMessage[]>;

  beforeAll(() => {
    mkdirSync(join(WORKSPACE_ROOT, dir), { recursive: true });
    try {
      writeFileSync(join(WORKSPACE_ROOT, dir, 'cycle-a.ts'), "import { b } from './cycle-b';\n\nexport const a = (): number => b() + 1;\n");
      writeFileSync(join(WORKSPACE_ROOT, dir, 'cycle-b.ts'), "import { a } from './cycle-a';\n\nexport const b = (): number => (a.length > 0 ? 0 : 1);\n");
      writeFileSync(join(WORKSPACE_ROOT, dir, 'deep-import.ts'), "import { QUOTE_EVENTS } from '@leadflow/quotes-contracts/src/index';\n\nexport const events = QUOTE_EVENTS;\n");
      writeFileSync(join(WORKSPACE_ROOT, dir, 'entry-point.ts'), "import { QUOTE_EVENTS } from '@leadflow/quotes-contracts';\n\nexport const events = QUOTE_EVENTS;\n");
      writeFileSync(join(WORKSPACE_ROOT, domainProbe), "import { CONTACT_EVENTS } from '@leadflow/contacts-contracts/src/index';\n\nexport const events = CONTACT_EVENTS;\n");
      results = lint([dir, domainProbe]);
    } finally {
      rmSync(join(WORKSPACE_ROOT, dir), { recursive: true, force: true });
      rmSync(join(WORKSPACE_ROOT, domainProbe), { force: true });
    }
  }, 240_000);

  it('import-x/no-cycle: two files importing each other fail', () => {
    expect(rules(results.get(join(dir, 'cycle-a.ts')))).toContain('import-x/no-cycle');
    expect(rules(results.get(join(dir, 'cycle-b.ts')))).toContain('import-x/no-cycle');
  });

  it("no deep imports: @leadflow/<project>/src/… fails (in application code and in domain code, whose own import rules stay), the package's entry point passes", () => {
    const deep = results.get(join(dir, 'deep-import.ts')) ?? [];
    expect(deep.find((message) => message.ruleId === 'no-restricted-imports')?.message).toMatch(/package entry point/);
    expect(rules(results.get(domainProbe))).toContain('no-restricted-imports');
    expect(results.get(join(dir, 'entry-point.ts'))).toEqual([]);
  });
});
