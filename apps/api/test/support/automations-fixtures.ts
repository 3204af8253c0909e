import { db, expectStatus } from './contacts-fixtures';
import type { TestApi, TestResponse } from './test-api';

/* eslint-disable @typescript-eslint/no-explicit-any -- test bodies are asserted field by field */

/** The automations of the test accounts: every precondition of the manual trigger has one. */
export function automationsList(): Record<string, unknown>[] {
  return [
    { name: 'Bienvenue', trigger: { type: 'custom_event', event: 'inscription' }, steps: [{ type: 'add_tag', tag: 'bienvenue' }, { type: 'send_email', subject: 'Bonjour {{contact.first_name}}', body: '<p>{{event.message}}</p>' }] },
    { name: 'Manuelle', trigger: { type: 'manual' }, steps: [{ type: 'add_tag', tag: 'manuelle' }] },
    { name: 'Concurrente', allow_concurrent_runs: true, trigger: { type: 'manual' }, steps: [{ type: 'wait', seconds: 3600 }] },
    { name: 'Inactive', is_active: false, trigger: { type: 'manual' }, steps: [] },
    { name: 'Brouillon', is_published: false, trigger: { type: 'manual' }, steps: [] },
    { name: 'Sans déclencheur', trigger: null, steps: [{ type: 'add_tag', tag: 'x' }] },
    { name: 'Archivée', trigger: { type: 'manual' }, steps: [] },
    { name: 'Étape', trigger: { type: 'stage_changed', pipeline_slug: 'ventes', stage_slug: 'gagne' }, steps: [{ type: 'move_to_stage', pipeline_slug: 'ventes', stage_slug: 'nouveau' }, { type: 'webhook', event: 'lead_updated' }] },
  ];
}

/** An account with the automations module, a pipeline, a default sender and keys of several scope sets. */
export function automationsBlueprint(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    timezone: 'America/Montreal',
    senders: [{ email: 'bonjour@tremblay.test', name: 'Rénovations Tremblay', is_default: true }],
    pipelines: [
      { name: 'Ventes', slug: 'ventes', is_default: true, stages: [{ name: 'Nouveau', slug: 'nouveau', is_default: true }, { name: 'Gagné', slug: 'gagne', is_won: true }] },
    ],
    api_keys: [
      { name: 'full', preset: 'full_integration', per_hour: 100000 },
      { name: 'reader', scopes: ['automations:read'], per_hour: 100000 },
      { name: 'trigger', scopes: ['automations:trigger'], per_hour: 100000 },
      { name: 'contacts', scopes: ['contacts:read', 'contacts:write'], per_hour: 100000 },
    ],
    automations: automationsList(),
    ...extra,
  };
}

/** The dashboard's archive (no public route archives an automation). */
export async function archiveAutomation(api: TestApi, automationId: string): Promise<void> {
  await db(api).query(`UPDATE automations.automations SET archived_at = now() WHERE id = $1`, [automationId]);
}

export function trigger(api: TestApi, token: string, automationId: string, body: unknown): Promise<TestResponse> {
  return api.request({ method: 'POST', path: `/v1/automations/${automationId}/trigger`, token, body });
}

export async function triggered(api: TestApi, token: string, automationId: string, body: unknown): Promise<Record<string, any>> {
  return expectStatus(await trigger(api, token, automationId, body), 201).body.data;
}

/** Executions rows of an automation (oldest first). */
export function executionRows(api: TestApi, automationId: string): Promise<Record<string, any>[]> {
  return db(api).query(`SELECT * FROM automations.executions WHERE automation_id = $1 ORDER BY created_at, id`, [automationId]);
}

/** Outbox rows handing executions to the engine. */
export function handOffs(api: TestApi, executionId: string): Promise<Record<string, any>[]> {
  return db(api).query(`SELECT type, payload FROM platform.outbox WHERE type = 'automation_execution_requested' AND payload->>'execution_id' = $1`, [executionId]);
}
