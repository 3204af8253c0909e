/**
 * Definitions of automations as the operator blueprint provisions them (operator-api › blueprint
 * member `automations`), in the automations context's own words. Stage references are resolved to
 * ids by the provisioning handler (the worker never needs the pipeline context).
 */

/** Trigger types of operator-api's value sets; `null` trigger means "no trigger node". */
export const AUTOMATION_TRIGGER_TYPES = ['custom_event', 'manual', 'contact_created', 'stage_changed'] as const;
export type AutomationTriggerType = (typeof AUTOMATION_TRIGGER_TYPES)[number];

/** Step types of operator-api's value sets. */
export const AUTOMATION_STEP_TYPES = ['add_tag', 'remove_tag', 'send_email', 'move_to_stage', 'wait', 'webhook'] as const;
export type AutomationStepType = (typeof AUTOMATION_STEP_TYPES)[number];

/**
 * A trigger as written in a blueprint. `custom_event` needs `event` (case-sensitive name of
 * POST /v1/events). `stage_changed` may narrow the moves it reacts to: `stage_id`, or `pipeline_slug`
 * (+ optional `stage_slug`); without any, every move into a stage enrols.
 */
export interface AutomationTriggerSpec {
  type: AutomationTriggerType;
  event?: string | null;
  stageId?: string | null;
  pipelineSlug?: string | null;
  stageSlug?: string | null;
}

/** One step as written in a blueprint (fields by type; checked by ProvisionAutomationsCommand). */
export interface AutomationStepSpec {
  type: AutomationStepType;
  /** add_tag / remove_tag: tag name (created on the fly by add_tag). */
  tag?: string | null;
  /** send_email: subject and HTML body, with `{{contact.<field>}}` and `{{event.<key>}}`. */
  subject?: string | null;
  body?: string | null;
  /** move_to_stage: `stageId`, or `pipelineSlug` + `stageSlug`. */
  stageId?: string | null;
  pipelineSlug?: string | null;
  stageSlug?: string | null;
  /** wait: delay in seconds (1 to 30 days). */
  seconds?: number | null;
  /** webhook: a public catalog name (WEBHOOK_EVENTS). */
  event?: string | null;
}

/** One automation of a blueprint; the response keys its id by `name` (unique per account). */
export interface AutomationSpec {
  name: string;
  isActive?: boolean | null;
  isPublished?: boolean | null;
  allowConcurrentRuns?: boolean | null;
  trigger?: AutomationTriggerSpec | null;
  steps?: AutomationStepSpec[] | null;
}
