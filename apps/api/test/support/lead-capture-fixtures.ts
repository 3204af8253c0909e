import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ProvisionedAccount, TestApi, TestResponse } from './test-api';

/** The funnel account of tools/funnels (pipelines ventes and renovation, custom fields, Systems Main and inactive Laval, one sales rep). */
export const FUNNEL_ACCOUNT: Record<string, unknown> = JSON.parse(readFileSync(join(__dirname, '../../../../tools/funnels/funnel-account.json'), 'utf8'));

/** The funnel account with the keys the lead capture tests use. */
export function leadsBlueprint(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    ...FUNNEL_ACCOUNT,
    api_keys: [
      { name: 'capture', preset: 'lead_capture', per_hour: 100000 },
      { name: 'full', preset: 'full_integration', per_hour: 100000 },
      { name: 'reader', scopes: ['contacts:read', 'tags:read'], per_hour: 100000 },
    ],
    ...extra,
  };
}

let nextAddress = 1;
let nextPhone = 1;

/** A valid Montreal number not used before in this test file, as a funnel writes it, and its E.164 form. */
export function freshPhone(): { raw: string; e164: string } {
  const n = String(nextPhone++).padStart(4, '0');
  return { raw: `(514) 301-${n}`, e164: `+1514301${n}` };
}

/** A client address of its own, so that a file's captures never reach the per-IP limit (100 per minute) by accident. */
export function freshAddress(): string {
  const n = nextAddress++;
  return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
}

export interface CaptureOptions {
  headers?: Record<string, string>;
  remoteAddress?: string;
  rawBody?: string;
}

/** POST /v1/leads/capture. */
export function captureLead(api: TestApi, token: string, body: unknown, options: CaptureOptions = {}): Promise<TestResponse> {
  return api.request({
    method: 'POST',
    path: '/v1/leads/capture',
    token,
    ...(options.rawBody !== undefined ? { rawBody: options.rawBody } : { body }),
    headers: { ...(options.rawBody !== undefined ? { 'content-type': 'application/json' } : {}), ...(options.headers ?? {}) },
    remoteAddress: options.remoteAddress ?? freshAddress(),
  });
}

/** Every member of the 200 body (public-api-v1 › Lead capture response). */
export const CAPTURE_RESPONSE_MEMBERS = [
  'status',
  'contact_id',
  'contact_was_new',
  'pipeline',
  'assignment_status',
  'ignored_fields',
  'ignored_fields_truncated',
  'activity_id',
  'original_created_at',
].sort();

/** Row counts of every table a capture writes, for one account (compare before and after a refusal). */
export async function captureWriteCounts(api: TestApi, account: ProvisionedAccount): Promise<Record<string, number>> {
  const { DataSource } = await import('typeorm');
  const db = api.app.get(DataSource);
  const tables = [
    'contacts.contacts',
    'contacts.contact_identities',
    'contacts.tags',
    'contacts.contact_tags',
    'contacts.lead_captures',
    'platform.activity_log',
    'platform.outbox',
  ];
  const counts: Record<string, number> = {};
  for (const table of tables) {
    const rows: { n: number }[] = await db.query(`SELECT count(*)::int AS n FROM ${table} WHERE account_id = $1`, [account.account_id]);
    counts[table] = rows[0].n;
  }
  return counts;
}
