import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const WORKSPACE_ROOT = resolve(__dirname, '..', '..', '..');
const SCRIPT = 'libs/sdk/scripts/generate-schema.mjs';
/** Same values as generate-schema.mjs (an ES module, which Jest's CommonJS runtime cannot import). */
const OPENAPI_SOURCE = 'apps/api/openapi/openapi.en.yaml';
const SCHEMA_FILE = 'libs/sdk/src/generated/schema.d.ts';
const REGENERATE_COMMAND = 'npm run sdk:generate';

/** First line where two texts differ (1-based), with both versions of it, for the failure message. */
function firstDifference(committed: string, expected: string): string {
  const a = committed.split('\n');
  const b = expected.split('\n');
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (a[i] !== b[i]) return `line ${i + 1}:\n  committed: ${JSON.stringify(a[i] ?? '<end of file>')}\n  generated: ${JSON.stringify(b[i] ?? '<end of file>')}`;
  }
  return 'no line differs (line endings?)';
}

describe('SDK generated types (libs/sdk)', () => {
  it(`the committed ${SCHEMA_FILE} is what openapi-typescript generates from ${OPENAPI_SOURCE} today (stale: run ${REGENERATE_COMMAND})`, () => {
    // The generator's --stdout mode: openapi-typescript's API in a child process, nothing written.
    const expected = execFileSync(process.execPath, [SCRIPT, '--stdout'], { cwd: WORKSPACE_ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    const committed = readFileSync(join(WORKSPACE_ROOT, SCHEMA_FILE), 'utf8');
    if (committed !== expected) {
      throw new Error(
        `${SCHEMA_FILE} is stale: ${OPENAPI_SOURCE} changed since it was generated.\n` +
          `Run \`${REGENERATE_COMMAND}\` and commit ${SCHEMA_FILE}.\n` +
          `First difference at ${firstDifference(committed, expected)}`,
      );
    }
  }, 60_000);

  it('the generator script and the spec name the same files and command', () => {
    const script = readFileSync(join(WORKSPACE_ROOT, SCRIPT), 'utf8');
    for (const value of [OPENAPI_SOURCE, SCHEMA_FILE, REGENERATE_COMMAND]) expect(script).toContain(`'${value}'`);
    const scripts = (JSON.parse(readFileSync(join(WORKSPACE_ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    expect(scripts['sdk:generate']).toBe(`node ${SCRIPT}`);
  });
});
