import { db, expectStatus } from './contacts-fixtures';
import type { ProvisionedAccount, TestApi, TestResponse } from './test-api';

/** operator-api's example pipeline, then a second one listed after it in the dashboard. */
export const VENTES = {
  name: 'Ventes',
  slug: 'ventes',
  is_default: true,
  stages: [
    { name: 'Nouveau', slug: 'nouveau', is_default: true },
    { name: 'Soumission envoyée', slug: 'soumission' },
    { name: 'Caché', slug: 'cache', is_hidden: true },
    { name: 'Gagné', slug: 'gagne', is_won: true },
    { name: 'Perdu', slug: 'perdu', is_lost: true },
    { name: 'Disqualifié', slug: 'disqualifie', is_disqualification: true },
  ],
};

export const LOCATION = {
  name: 'Location',
  slug: 'location',
  stages: [
    { name: 'Demande', slug: 'demande' },
    { name: 'Signé', slug: 'signe', is_won: true },
  ],
};

/** Two pipelines and keys of several scope sets (all with a high hourly quota). */
export function pipelineBlueprint(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    pipelines: [VENTES, LOCATION],
    api_keys: [
      { name: 'full', preset: 'full_integration', per_hour: 100000 },
      { name: 'pipeline_reader', scopes: ['pipeline:read'], per_hour: 100000 },
      { name: 'pipeline_writer', scopes: ['pipeline:write'], per_hour: 100000 },
      { name: 'contacts', scopes: ['contacts:read', 'contacts:write'], per_hour: 100000 },
    ],
    ...extra,
  };
}

/** Stage ids of a provisioned account: `stages(account).ventes.nouveau`. */
export function stages(account: ProvisionedAccount): Record<'ventes' | 'location', Record<string, string>> {
  const pipelines = account.pipelines!;
  return { ventes: pipelines.ventes.stages, location: pipelines.location.stages };
}

/**
 * What the deal routes may write for an account: each contact's pipeline membership and AI follow-up
 * marker, and the account's activity-log and outbox rows (compare before and after a refused request).
 */
export async function dealState(api: TestApi, accountId: string): Promise<Record<string, unknown>> {
  const sql = db(api);
  return {
    contacts: await sql.query(
      `SELECT id, pipeline_id, stage_id, updated_at, ai_follow_up_stopped_at, archived_at FROM contacts.contacts WHERE account_id = $1 ORDER BY id`,
      [accountId],
    ),
    activity: await sql.count('platform.activity_log', 'account_id = $1', [accountId]),
    outbox: await sql.count('platform.outbox', 'account_id = $1', [accountId]),
  };
}

/** The stored pipeline membership of a contact. */
export async function storedStage(api: TestApi, contactId: string): Promise<{ pipeline_id: string | null; stage_id: string | null; ai_follow_up_stopped_at: Date | null }> {
  const [row] = await db(api).query(`SELECT pipeline_id, stage_id, ai_follow_up_stopped_at FROM contacts.contacts WHERE id = $1`, [contactId]);
  return row as { pipeline_id: string | null; stage_id: string | null; ai_follow_up_stopped_at: Date | null };
}

/** POST /v1/pipeline/deals that must succeed; returns the deal. */
export async function placeDeal(api: TestApi, token: string, contactId: string, stageId: string): Promise<Record<string, any>> { // eslint-disable-line @typescript-eslint/no-explicit-any
  return expectStatus(await api.request({ method: 'POST', path: '/v1/pipeline/deals', token, body: { contact_id: contactId, stage_id: stageId } }), 201).body.data;
}

/** Operator lifecycle action on a contact (archive, unarchive, merge, unmerge, disqualify) that must succeed. */
export async function lifecycle(api: TestApi, accountId: string, contactId: string, action: string, body?: unknown): Promise<TestResponse> {
  return expectStatus(await api.admin('POST', `/accounts/${accountId}/contacts/${contactId}/${action}`, body), 200);
}
