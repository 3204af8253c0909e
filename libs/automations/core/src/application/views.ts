import type { StoredTrigger } from '../domain/automation-definition';
import type { ExecutionStatus, ExecutionTriggerType } from '../domain/trigger-limits';

/**
 * An automation as `GET /v1/automations` lists it. The spec names `id`, `is_active`, `archived_at`;
 * the other members are this API's choice (documented in OpenAPI).
 */
export interface AutomationView {
  id: string;
  name: string;
  is_active: boolean;
  is_published: boolean;
  allow_concurrent_runs: boolean;
  /** `{ type, event?, stage_id?, pipeline_id? }`, or null for an automation without a trigger node. */
  trigger: StoredTrigger | null;
  steps_count: number;
  archived_at: string | null;
  created_at: string;
  updated_at: string;
}

/** An execution (history entry and the 201 body of a manual trigger). Timestamps ISO 8601 UTC. */
export interface ExecutionView {
  id: string;
  automation_id: string;
  contact_id: string;
  status: ExecutionStatus;
  trigger_type: ExecutionTriggerType;
  /** Restarts of the run by the engine after a failure or a worker crash. */
  retry_count: number;
  /** Steps finished so far (the persisted cursor). */
  steps_completed: number;
  steps_total: number;
  /** When a `wait` step resumes the run (status `waiting`), else null. */
  resume_at: string | null;
  /** Why the run failed: `{ step_index, step_type, code, message }`, else null. */
  error: Record<string, unknown> | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
}

/** The 201 body of POST /v1/automations/{id}/trigger (operator-api › Creation bodies). */
export interface TriggeredExecutionView {
  id: string;
  automation_id: string;
  contact_id: string;
  status: 'pending';
  trigger_type: 'manual_api';
  retry_count: number;
  created_at: string;
}
