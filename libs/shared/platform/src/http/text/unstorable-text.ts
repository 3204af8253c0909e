import type { FieldViolation } from '@leadflow/shared-kernel';

/**
 * Characters PostgreSQL cannot store: NUL (refused by `text` and `jsonb`) and unpaired UTF-16 surrogates
 * (refused by `jsonb`, and not valid Unicode).
 */
// eslint-disable-next-line no-control-regex -- NUL is exactly what this rule looks for
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** At most this many violations are reported for one request. */
const MAX_VIOLATIONS = 20;

/**
 * Walks a parsed body or query (iteratively: any depth) and reports every string value or member name
 * holding a character PostgreSQL cannot store, as `{ field, reason: 'invalid_characters' }` with the
 * dotted/bracketed path of the validation errors (`contact.tags[2]`; a member name reports its own path).
 * The one rule behind issue 12 item 3 and issue 18 item 1: such input is refused with 400
 * `validation_error` before any handler runs, on every route but those that clean text themselves.
 */
export function unstorableTextViolations(value: unknown, root = ''): FieldViolation[] {
  const violations: FieldViolation[] = [];
  const pending: { node: unknown; path: string }[] = [{ node: value, path: root }];
  while (pending.length > 0 && violations.length < MAX_VIOLATIONS) {
    const { node, path } = pending.pop() as { node: unknown; path: string };
    if (typeof node === 'string') {
      if (UNSTORABLE.test(node)) violations.push(violation(path));
      continue;
    }
    if (node === null || typeof node !== 'object') continue;
    if (Array.isArray(node)) {
      node.forEach((child, index) => pending.push({ node: child, path: `${path}[${index}]` }));
      continue;
    }
    for (const [name, child] of Object.entries(node as Record<string, unknown>)) {
      const childPath = path ? `${path}.${name}` : name;
      if (UNSTORABLE.test(name)) violations.push(violation(childPath));
      else pending.push({ node: child, path: childPath });
    }
  }
  return violations.sort((a, b) => (a.field < b.field ? -1 : a.field > b.field ? 1 : 0));
}

function violation(field: string): FieldViolation {
  return {
    field,
    reason: 'invalid_characters',
    message: 'The value contains a character that cannot be stored (NUL or an unpaired UTF-16 surrogate).',
  };
}
