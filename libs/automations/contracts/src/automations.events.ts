/**
 * Integration events the automations context writes to `platform.outbox`.
 * `automation_completed` is a public webhook name (public-api-v1 › Outbound webhooks);
 * `automation_execution_requested` is internal: it hands a new execution to the worker's engine
 * (never delivered to webhook subscriptions).
 */
export const AUTOMATION_EVENTS = {
  completed: 'automation_completed',
  executionRequested: 'automation_execution_requested',
} as const;

export interface AutomationCompletedPayload extends Record<string, unknown> {
  automation_id: string;
  automation_name: string;
  execution_id: string;
  contact_id: string;
  trigger_type: string;
  retry_count: number;
  completed_at: string;
}

export interface AutomationExecutionRequestedPayload extends Record<string, unknown> {
  automation_id: string;
  execution_id: string;
  contact_id: string;
}

/** Payload of an outbox event written by a `webhook` step (type = the step's catalog name). */
export interface AutomationWebhookStepPayload extends Record<string, unknown> {
  source: 'automation_webhook_step';
  automation_id: string;
  automation_name: string;
  execution_id: string;
  contact_id: string;
  event_data: Record<string, unknown>;
}
