/**
 * Trigger throttle (public-api-v1 › Limits): a duplicate (same automation, contact and event_data)
 * within 5 minutes, 5 enrolments per contact per 24 hours per automation, 200 executions per hour per
 * account. Windows are rolling, measured on executions' `created_at`.
 */
export const TRIGGER_LIMITS = {
  duplicateWindowSeconds: 5 * 60,
  contactEnrolments: { max: 5, windowSeconds: 24 * 60 * 60 },
  accountExecutions: { max: 200, windowSeconds: 60 * 60 },
} as const;

/** Custom-event enrolment dedup (public-api-v1 › POST /v1/events): 5 minutes per contact per automation. */
export const CUSTOM_EVENT_DEDUP_SECONDS = 5 * 60;

/** Statuses of an execution that is still "an active run" (`already_enrolled`). */
export const ACTIVE_EXECUTION_STATUSES = ['pending', 'running', 'waiting'] as const;

export type ExecutionStatus = 'pending' | 'running' | 'waiting' | 'completed' | 'failed';

/** trigger_type of executions: `manual_api` from POST /v1/automations/{id}/trigger, else the trigger that enrolled. */
export type ExecutionTriggerType = 'manual_api' | 'custom_event' | 'contact_created' | 'stage_changed';
