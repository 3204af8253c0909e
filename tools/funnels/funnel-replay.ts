/**
 * Shared by the funnels end-to-end test (apps/api/test/funnels.e2e-spec.ts) and `npm run demo:capture`
 * (replay.ts): reading the payload files, substituting `{{placeholders}}` and comparing a response with
 * a file's `expect` block, exactly as README.md describes.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const FUNNELS_DIR = __dirname;
export const PAYLOADS_DIR = join(__dirname, 'payloads');

export interface ExpectedIgnored {
  field?: string;
  reason?: string;
}

export interface FunnelExpectation {
  status: number;
  outcome: string | null;
  code: string | null;
  contact_was_new: boolean | null;
  ignored_fields: ExpectedIgnored[];
  ignored_fields_exact?: boolean;
  same_contact_as?: string;
  envelope?: 'simplified' | 'standard';
  details?: { field?: string; reason?: string }[];
}

export interface FunnelFile {
  description: string;
  advance_clock_minutes?: number;
  headers: Record<string, string>;
  body?: unknown;
  raw?: string;
  expect: FunnelExpectation;
}

export interface FunnelPayload {
  /** File name without `.json`, e.g. `01-elise-cote-webflow-cuisine`. */
  stem: string;
  file: FunnelFile;
}

/** The account blueprint the expectations hold on. */
export function funnelAccount(): Record<string, unknown> {
  return JSON.parse(readFileSync(join(FUNNELS_DIR, 'funnel-account.json'), 'utf8'));
}

/** Every payload file, in replay order (file-name order). */
export function loadFunnelPayloads(dir = PAYLOADS_DIR): FunnelPayload[] {
  return readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => ({ stem: name.slice(0, -'.json'.length), file: JSON.parse(readFileSync(join(dir, name), 'utf8')) as FunnelFile }));
}

const PLACEHOLDER = /\{\{([A-Za-z0-9_.-]+)\}\}/g;

/** Replaces `{{path}}` in every string (keys excluded) by the string at `path` in `context`; an unresolved path throws. */
export function substitutePlaceholders<T>(value: T, context: unknown): T {
  if (typeof value === 'string') {
    return value.replace(PLACEHOLDER, (_, path: string) => {
      const resolved = path.split('.').reduce<unknown>((node, key) => (node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined), context);
      if (typeof resolved !== 'string') throw new Error(`placeholder {{${path}}} does not resolve to a string in the provisioning response`);
      return resolved;
    }) as T;
  }
  if (Array.isArray(value)) return value.map((item) => substitutePlaceholders(item, context)) as T;
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, substitutePlaceholders(item, context)])) as T;
  }
  return value;
}

/** The request a file describes: headers lower-cased, file headers replacing the defaults; the body text. */
export function funnelRequest(payload: FunnelPayload, token: string, context: unknown): { headers: Record<string, string>; body: string } {
  const headers: Record<string, string> = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  for (const [name, value] of Object.entries(substitutePlaceholders(payload.file.headers ?? {}, context))) headers[name.toLowerCase()] = value;
  const body = payload.file.raw !== undefined ? payload.file.raw : JSON.stringify(substitutePlaceholders(payload.file.body, context));
  return { headers, body };
}

/** What the replay remembers between files. */
export interface ReplayState {
  contactIdByStem: Map<string, string>;
  seenContactIds: Set<string>;
}

export function newReplayState(): ReplayState {
  return { contactIdByStem: new Map(), seenContactIds: new Set() };
}

const RESPONSE_MEMBERS = [
  'status',
  'contact_id',
  'contact_was_new',
  'pipeline',
  'assignment_status',
  'ignored_fields',
  'ignored_fields_truncated',
  'activity_id',
  'original_created_at',
];

function matches(actual: Record<string, unknown>, expected: Record<string, unknown>): boolean {
  return Object.entries(expected).every(([key, value]) => actual[key] === value);
}

/**
 * Compares a response with a file's expectations (README › `expect`) and records its contact.
 * Returns the failures (empty when the file passes).
 */
export function checkFunnelResponse(payload: FunnelPayload, status: number, body: unknown, state: ReplayState): string[] {
  const expect = payload.file.expect;
  const failures: string[] = [];
  const record = (body ?? {}) as Record<string, unknown>;
  if (status !== expect.status) failures.push(`status ${status}, expected ${expect.status} (${JSON.stringify(body)})`);
  if (expect.status === 200 && status === 200) {
    const missing = RESPONSE_MEMBERS.filter((member) => !(member in record));
    if (missing.length > 0) failures.push(`200 body lacks ${missing.join(', ')}`);
    if (record.status !== expect.outcome) failures.push(`outcome ${String(record.status)}, expected ${String(expect.outcome)}`);
    if (!Array.isArray(record.ignored_fields)) failures.push('ignored_fields is not an array');
    if ((record.activity_id === null) !== (record.status === 'existing_pipeline_contact')) {
      failures.push(`activity_id ${String(record.activity_id)} with outcome ${String(record.status)}`);
    }
    if (expect.contact_was_new !== null && record.contact_was_new !== expect.contact_was_new) {
      failures.push(`contact_was_new ${String(record.contact_was_new)}, expected ${String(expect.contact_was_new)}`);
    }
    const actualIgnored = (Array.isArray(record.ignored_fields) ? record.ignored_fields : []) as Record<string, unknown>[];
    for (const entry of expect.ignored_fields) {
      if (!actualIgnored.some((actual) => matches(actual, entry as Record<string, unknown>))) failures.push(`ignored_fields lacks ${JSON.stringify(entry)}`);
    }
    if (expect.ignored_fields_exact && actualIgnored.length !== expect.ignored_fields.length) {
      failures.push(`ignored_fields ${JSON.stringify(actualIgnored)}, expected exactly ${JSON.stringify(expect.ignored_fields)}`);
    }
    const contactId = typeof record.contact_id === 'string' ? record.contact_id : null;
    if (contactId === null) failures.push('no contact_id');
    else {
      if (expect.same_contact_as) {
        const earlier = state.contactIdByStem.get(expect.same_contact_as);
        if (earlier !== contactId) failures.push(`contact_id ${contactId}, expected the contact of ${expect.same_contact_as} (${String(earlier)})`);
      } else if (expect.contact_was_new === true && state.seenContactIds.has(contactId)) {
        failures.push(`contact_id ${contactId} was returned before, expected a new contact`);
      }
      state.contactIdByStem.set(payload.stem, contactId);
      state.seenContactIds.add(contactId);
    }
  }
  if (expect.status !== 200 && status === expect.status) {
    if (expect.code !== null && record.code !== expect.code) failures.push(`code ${String(record.code)}, expected ${expect.code}`);
    if (expect.envelope === 'simplified') {
      if ('type' in record || 'doc_url' in record) failures.push('simplified body carries type or doc_url');
      const details = record.details;
      const array = Array.isArray(details) && details.every((entry) => entry !== null && typeof entry === 'object' && 'field' in entry && 'reason' in entry);
      if (!array) failures.push(`details is not an array of { field, reason }: ${JSON.stringify(details)}`);
      for (const entry of expect.details ?? []) {
        if (!array || !(details as Record<string, unknown>[]).some((actual) => matches(actual, entry as Record<string, unknown>))) {
          failures.push(`details lacks ${JSON.stringify(entry)}`);
        }
      }
    }
    if (expect.envelope === 'standard') {
      const missing = ['code', 'message', 'details', 'type', 'doc_url', 'request_id'].filter((member) => !(member in record));
      if (missing.length > 0) failures.push(`standard envelope lacks ${missing.join(', ')}`);
    }
  }
  return failures;
}

/** A short text of what a file expects, for test names and the demo table. */
export function expectedSummary(expect: FunnelExpectation): string {
  return expect.status === 200 ? `200 ${expect.outcome}` : `${expect.status} ${expect.code ?? ''}`.trim();
}
