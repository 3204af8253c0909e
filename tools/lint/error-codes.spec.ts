import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isCataloguedErrorCode } from '@leadflow/shared-platform';
import { scanErrorCodes } from './error-codes';
import { sourceFiles, WORKSPACE_ROOT } from './source-files';

/**
 * Codes forwarded from a value the scan cannot read, with where that value's codes are scanned instead.
 * A new entry needs the same justification.
 */
const FORWARDED = new Map([
  // ApiRequestGuard answers a per-IP limit's 429 with the policy's `code`: the policies are scanned ("IP limit policy").
  ['libs/shared/platform/src/http/auth/api-request.guard.ts', 'ipLimit.code'],
]);

/** Rule (issue 14, item 5): every error code raised anywhere is in the error catalog (libs/shared/platform/src/http/error-catalog.ts). */
describe('error codes: every code raised is catalogued', () => {
  it('every DomainError code of the production sources is in the error catalog, and none is unreadable', () => {
    const scan = scanErrorCodes(WORKSPACE_ROOT, sourceFiles());
    expect(new Set(scan.codes.map((raised) => raised.code)).size).toBeGreaterThan(40); // the scan sees the codes at all
    expect(scan.codes.filter((raised) => !isCataloguedErrorCode(raised.code))).toEqual([]);
    expect(scan.unresolved.filter((entry) => FORWARDED.get(entry.at.split(':')[0]) !== entry.expression)).toEqual([]);
  }, 60_000); // parses every production source file

  it('fails when broken: an uncatalogued code (subclass, new DomainError, literal-union parameter, IP limit) and an unreadable code are reported', () => {
    const root = mkdtempSync(join(tmpdir(), 'error-codes-'));
    try {
      mkdirSync(join(root, 'src'));
      writeFileSync(
        join(root, 'src', 'probe.errors.ts'),
        `import { DomainError } from '@leadflow/shared-kernel';
type ProbeCode = 'probe_union_a' | 'probe_union_b';
export class ProbeFixedError extends DomainError {
  constructor() { super('probe_fixed', 'Fixed.'); }
}
export class ProbeChosenError extends DomainError {
  constructor(code: ProbeCode, message: string) { super(code, message); }
}
export class ProbeChildError extends ProbeChosenError {}
export function fail(code: string) {
  if (code) throw new DomainError(code, 'From a variable.');
  throw new DomainError(Math.random() > 0.5 ? 'probe_then' : 'validation_error', 'Conditional.');
}
export const LIMIT = { name: 'probe', perMinute: 1, code: 'probe_ip_limit', simplified: true };
export const child = () => new ProbeChildError('probe_union_a', 'Child.');
`,
      );
      const scan = scanErrorCodes(root, ['src/probe.errors.ts']);
      const uncatalogued = [...new Set(scan.codes.filter((raised) => !isCataloguedErrorCode(raised.code)).map((raised) => raised.code))].sort();
      expect(uncatalogued).toEqual(['probe_fixed', 'probe_ip_limit', 'probe_then', 'probe_union_a', 'probe_union_b']);
      expect(scan.codes.map((raised) => raised.code)).toContain('validation_error');
      expect(scan.unresolved).toEqual([{ at: 'src/probe.errors.ts:11', expression: 'code' }]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
