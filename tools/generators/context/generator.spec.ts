import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Tree } from '@nx/devkit';
import { createTreeWithEmptyWorkspace } from '@nx/devkit/testing';
import { contextGenerator } from './generator';

const WORKSPACE_ROOT = join(__dirname, '..', '..', '..');

interface LintResult {
  path: string;
  messages: { ruleId: string | null; severity: number; message: string; line: number }[];
}

/**
 * Lints virtual files with ESLint's API and the repository's eslint.config.mjs (in a child process: the
 * config is an ES module with top-level await, which Jest's CommonJS runtime does not load). Each file
 * keeps its path in the workspace, so every override (domain rules, test files, import cycles) applies.
 */
function lintVirtualFiles(files: Record<string, string>): LintResult[] {
  const script = `
    import { readFileSync } from 'node:fs';
    import { ESLint } from 'eslint';
    const files = JSON.parse(readFileSync(0, 'utf8'));
    const eslint = new ESLint({ cwd: process.cwd() });
    const out = [];
    for (const [path, text] of Object.entries(files)) {
      const [result] = await eslint.lintText(text, { filePath: path, warnIgnored: true });
      out.push({ path, messages: result.messages.map(({ ruleId, severity, message, line }) => ({ ruleId, severity, message, line })) });
    }
    process.stdout.write(JSON.stringify(out));
  `;
  const output = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
    cwd: WORKSPACE_ROOT,
    input: JSON.stringify(files),
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, NX_DAEMON: 'false' },
  }).toString();
  return JSON.parse(output) as LintResult[];
}

/** Every file the generator wrote under `root`, path → content. */
function filesUnder(tree: Tree, root: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const change of tree.listChanges()) {
    if (change.type !== 'DELETE' && change.path.startsWith(`${root}/`)) files[change.path] = change.content?.toString('utf-8') ?? '';
  }
  return files;
}

describe('context generator (issue 14, items 2 and 4): the one shape, lint-clean', () => {
  const name = 'lead-scoring';
  const root = `libs/${name}`;
  let tree: Tree;
  let files: Record<string, string>;

  beforeAll(async () => {
    tree = createTreeWithEmptyWorkspace();
    tree.write('eslint.config.mjs', readFileSync(join(WORKSPACE_ROOT, 'eslint.config.mjs'), 'utf-8'));
    await contextGenerator(tree, { name, migrationTimestamp: 1800000000000, skipInstall: true });
    files = filesUnder(tree, root);
  });

  it('writes exactly the expected files: one folder per use case (command or query, handler, spec), the port and its in-memory fake, one handler list, one core module imported by the HTTP and jobs modules', () => {
    expect(Object.keys(files).sort()).toEqual(
      [
        'adapters/package.json',
        'adapters/project.json',
        'adapters/src/index.ts',
        'adapters/src/infrastructure/persistence/migrations/1800000000000-lead-scoring-init.ts',
        'adapters/src/infrastructure/persistence/postgres-lead-scoring-item.repository.ts',
        'adapters/src/lead-scoring-core.module.ts',
        'adapters/src/lead-scoring-http.module.ts',
        'adapters/src/lead-scoring-jobs.module.ts',
        'adapters/test/.gitkeep',
        'contracts/package.json',
        'contracts/project.json',
        'contracts/src/index.ts',
        'core/package.json',
        'core/project.json',
        'core/src/application/commands/create-lead-scoring-item/create-lead-scoring-item.command.ts',
        'core/src/application/commands/create-lead-scoring-item/create-lead-scoring-item.handler.spec.ts',
        'core/src/application/commands/create-lead-scoring-item/create-lead-scoring-item.handler.ts',
        'core/src/application/lead-scoring-core.providers.ts',
        'core/src/application/ports/lead-scoring-item.repository.port.ts',
        'core/src/application/queries/get-lead-scoring-item/get-lead-scoring-item.handler.spec.ts',
        'core/src/application/queries/get-lead-scoring-item/get-lead-scoring-item.handler.ts',
        'core/src/application/queries/get-lead-scoring-item/get-lead-scoring-item.query.ts',
        'core/src/domain/lead-scoring-item.ts',
        'core/src/domain/lead-scoring.errors.ts',
        'core/src/index.ts',
        'core/src/testing/in-memory-lead-scoring-item.repository.ts',
      ].map((path) => `${root}/${path}`),
    );
  });

  it('declares the handlers once (LEAD_SCORING_HANDLERS) in the one core module, which both the HTTP and the jobs module import', () => {
    expect(files[`${root}/core/src/application/lead-scoring-core.providers.ts`]).toContain(
      'export const LEAD_SCORING_HANDLERS = [CreateLeadScoringItemHandler, GetLeadScoringItemHandler];',
    );
    const coreModule = files[`${root}/adapters/src/lead-scoring-core.module.ts`];
    expect(coreModule).toContain('providers: [...LEAD_SCORING_HANDLERS, { provide: LeadScoringItemRepository, useClass: PostgresLeadScoringItemRepository }]');
    for (const kind of ['http', 'jobs']) {
      const module = files[`${root}/adapters/src/lead-scoring-${kind}.module.ts`];
      expect(module).toContain('imports: [LeadScoringCoreModule]');
      expect(module).not.toContain('HANDLERS');
    }
  });

  it('tags the three projects and adds the context to CONTEXTS in eslint.config.mjs', () => {
    for (const kind of ['contracts', 'core', 'adapters']) {
      expect(JSON.parse(files[`${root}/${kind}/project.json`]).tags).toEqual([`scope:${name}`, `type:${kind}`]);
    }
    expect(tree.read('eslint.config.mjs', 'utf-8')).toMatch(/export const CONTEXTS = \[[^\]]*'lead-scoring'\];/);
  });

  it('lints clean with the repository ESLint configuration: zero errors, zero warnings', () => {
    const sources = Object.fromEntries(Object.entries(files).filter(([path]) => path.endsWith('.ts')));
    const results = lintVirtualFiles(sources);
    expect(results.map((result) => result.path).sort()).toEqual(Object.keys(sources).sort());
    expect(results.filter((result) => result.messages.length > 0)).toEqual([]);
  }, 240_000);

  it('the lint check is real: a broken generated file fails it', () => {
    const handler = `${root}/core/src/application/queries/get-lead-scoring-item/get-lead-scoring-item.handler.ts`;
    const [result] = lintVirtualFiles({ [handler]: `${files[handler]}\nconst unused = 1;\n` });
    expect(result.messages.map((message) => message.ruleId)).toContain('@typescript-eslint/no-unused-vars');
  }, 240_000);
});
