import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

/** The workspace root (this file is tools/lint/source-files.ts). */
export const WORKSPACE_ROOT = join(__dirname, '..', '..');

/** Test code: specs, test/ folders, in-memory fakes (src/testing) and shared-testing. */
const TEST_CODE = /(\.(spec|e2e-spec|integration-spec)\.ts$)|(\/(test|testing)\/)|(^libs\/shared\/testing\/)/;

/**
 * The TypeScript files git tracks (or would track) under libs, apps and tools that exist on disk, as paths
 * relative to the root; without test code unless `tests` is true.
 */
export function sourceFiles(options: { tests?: boolean } = {}): string[] {
  const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', 'libs', 'apps', 'tools'], { cwd: WORKSPACE_ROOT, maxBuffer: 64 * 1024 * 1024 })
    .toString()
    .split('\n');
  return listed.filter(
    (file) => /\.(ts|mts|cts)$/.test(file) && !file.endsWith('.d.ts') && !file.includes('node_modules/') && (options.tests || !TEST_CODE.test(file)) && existsSync(join(WORKSPACE_ROOT, file)),
  );
}
