import { CommandBus } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { EnsureCampaignTagCommand, TagView } from '@leadflow/contacts-contracts';
import { asAccountId } from '@leadflow/shared-kernel';
import type { ProvisionedAccount, TestApi, TestResponse } from './test-api';

/** The operator example's custom fields (operator-api › POST /admin/v1/accounts). */
export const EXAMPLE_CUSTOM_FIELDS = [
  { name: 'budget', type: 'text' },
  { name: 'description', type: 'long_text' },
  { name: 'site_web', type: 'url' },
  { name: 'courriel_secondaire', type: 'email' },
  { name: 'cellulaire', type: 'phone' },
  { name: 'superficie', type: 'number' },
  { name: 'type_projet', type: 'select', options: ['cuisine', 'salle_de_bain', 'sous_sol'] },
  { name: 'date_debut', type: 'date' },
  { name: 'financement', type: 'boolean' },
];

/** A blueprint with custom fields, three Systems (one inactive) and keys of several scope sets. */
export function contactsBlueprint(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    systems: [{ name: 'Main', is_main: true }, { name: 'Laval', is_active: false }, { name: 'Québec' }],
    custom_fields: EXAMPLE_CUSTOM_FIELDS,
    api_keys: [
      { name: 'full', preset: 'full_integration', per_hour: 100000 },
      { name: 'reader', scopes: ['contacts:read', 'tags:read'], per_hour: 100000 },
      { name: 'writer', scopes: ['contacts:read', 'contacts:write', 'tags:read', 'tags:write'], per_hour: 100000 },
      { name: 'tagger', scopes: ['tags:read'], per_hour: 100000 },
      { name: 'capture', preset: 'lead_capture', per_hour: 100000 },
    ],
    ...extra,
  };
}

/** Direct SQL on the TestApi's database (to assert what was, or was not, written). */
export function db(api: TestApi) {
  const source = () => api.app.get(DataSource);
  return {
    query: <T = Record<string, any>>(text: string, parameters: unknown[] = []): Promise<T[]> => source().query(text, parameters), // eslint-disable-line @typescript-eslint/no-explicit-any
    count: async (table: string, where = 'true', parameters: unknown[] = []): Promise<number> => {
      const rows: { n: number }[] = await source().query(`SELECT count(*)::int AS n FROM ${table} WHERE ${where}`, parameters);
      return rows[0].n;
    },
  };
}

const WRITE_TABLES = [
  'contacts.contacts',
  'contacts.contact_identities',
  'contacts.tags',
  'contacts.contact_tags',
  'contacts.contact_notes',
  'contacts.custom_field_definitions',
  'platform.outbox',
  'platform.activity_log',
] as const;

/** Row counts of every table the contacts routes write (compare before and after a refused request). */
export async function writeCounts(api: TestApi): Promise<Record<string, number>> {
  const sql = db(api);
  return Object.fromEntries(await Promise.all(WRITE_TABLES.map(async (table) => [table, await sql.count(table)] as const)));
}

export function expectStatus(response: TestResponse, status: number): TestResponse {
  if (response.status !== status) throw new Error(`expected ${status}, got ${response.status}: ${JSON.stringify(response.body)}`);
  return response;
}

/** POST /v1/contacts that must succeed; returns the contact. */
export async function createContact(api: TestApi, token: string, body: Record<string, unknown>): Promise<Record<string, any>> { // eslint-disable-line @typescript-eslint/no-explicit-any
  return expectStatus(await api.request({ method: 'POST', path: '/v1/contacts', token, body }), 201).body.data;
}

/** POST /v1/tags that must succeed; returns the tag. */
export async function createTag(api: TestApi, token: string, body: Record<string, unknown>): Promise<Record<string, any>> { // eslint-disable-line @typescript-eslint/no-explicit-any
  return expectStatus(await api.request({ method: 'POST', path: '/v1/tags', token, body }), 201).body.data;
}

/** The published command lead capture will use: ensures the campaign tag of `slug`. */
export function ensureCampaignTag(api: TestApi, account: ProvisionedAccount, slug: string, name: string): Promise<TagView> {
  return api.app.get(CommandBus).execute(new EnsureCampaignTagCommand(asAccountId(account.account_id), slug, name));
}

/** The error envelope without its per-request members, to compare two refusals. */
export function envelope(response: TestResponse): Record<string, unknown> {
  const { request_id: _requestId, ...rest } = response.body as Record<string, unknown>;
  return { status: response.status, ...rest };
}
