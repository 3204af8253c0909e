import { createHash } from 'node:crypto';
import type { FieldViolation } from '@leadflow/shared-kernel';
import { AUTOMATION_STEP_TYPES, AUTOMATION_TRIGGER_TYPES, AutomationSpec, AutomationStepSpec, AutomationTriggerSpec } from '@leadflow/automations-contracts';
import { isWebhookEventName } from '@leadflow/webhooks-contracts';

/** Stored trigger filter (`automations.trigger`): resolved ids, never slugs. */
export interface StoredTrigger {
  type: AutomationTriggerSpec['type'];
  /** custom_event: the case-sensitive event name. */
  event?: string;
  /** stage_changed: enrol only on moves into this stage… */
  stage_id?: string | null;
  /** …or into any stage of this pipeline (null: any pipeline). */
  pipeline_id?: string | null;
}

/** A step as the engine runs it (`automations.executions.steps`, snapshotted at enrolment). */
export type StoredStep =
  | { type: 'add_tag'; tag: string }
  | { type: 'remove_tag'; tag: string }
  | { type: 'send_email'; subject: string; body: string }
  | { type: 'move_to_stage'; stage_id: string; pipeline_id: string; accepts_disqualified_leads: boolean }
  | { type: 'wait'; seconds: number }
  | { type: 'webhook'; event: string };

/** A stage reference to resolve: `stageId`, or `pipelineSlug` + `stageSlug`. */
export interface StageReference {
  stageId?: string | null;
  pipelineSlug?: string | null;
  stageSlug?: string | null;
}

export const MAX_STEPS = 50;
export const MAX_NAME_LENGTH = 200;
export const MAX_TAG_LENGTH = 100;
export const MAX_SUBJECT_LENGTH = 998;
export const MAX_BODY_LENGTH = 100_000;
export const MAX_EVENT_NAME_LENGTH = 200;
/** `wait.seconds`: 1 second to 30 days. */
export const MAX_WAIT_SECONDS = 30 * 24 * 60 * 60;

const present = (value: unknown): boolean => value !== undefined && value !== null;
const blank = (value: unknown): boolean => typeof value !== 'string' || value.trim().length === 0;

/**
 * Checks a blueprint's automations before anything is written; returns every violation with paths like
 * `automations[0].steps[1].subject`. Stage references are checked later, against the account.
 */
export function checkAutomationSpecs(specs: readonly AutomationSpec[], prefix = 'automations'): FieldViolation[] {
  const violations: FieldViolation[] = [];
  const names = new Set<string>();
  specs.forEach((spec, index) => {
    const at = `${prefix}[${index}]`;
    if (blank(spec.name)) violations.push({ field: `${at}.name`, reason: 'required', message: 'An automation needs a name.' });
    else if (spec.name.length > MAX_NAME_LENGTH) violations.push({ field: `${at}.name`, reason: 'too_long', message: `At most ${MAX_NAME_LENGTH} characters.` });
    else if (names.has(spec.name)) violations.push({ field: `${at}.name`, reason: 'duplicate', message: 'Automation names are unique per account.' });
    else names.add(spec.name);
    if (present(spec.trigger)) violations.push(...checkTrigger(spec.trigger as AutomationTriggerSpec, `${at}.trigger`));
    const steps = spec.steps ?? [];
    if (steps.length > MAX_STEPS) violations.push({ field: `${at}.steps`, reason: 'too_many', message: `At most ${MAX_STEPS} steps.` });
    steps.forEach((step, stepIndex) => violations.push(...checkStep(step, `${at}.steps[${stepIndex}]`)));
  });
  return violations;
}

function checkTrigger(trigger: AutomationTriggerSpec, at: string): FieldViolation[] {
  if (!(AUTOMATION_TRIGGER_TYPES as readonly string[]).includes(trigger.type)) {
    return [{ field: `${at}.type`, reason: 'invalid_value', message: `type is one of ${AUTOMATION_TRIGGER_TYPES.join(', ')}.` }];
  }
  const violations: FieldViolation[] = [];
  const stray = (field: keyof AutomationTriggerSpec) => {
    if (present(trigger[field])) violations.push({ field: `${at}.${snake(field)}`, reason: 'invalid_value', message: `${snake(field)} does not apply to a ${trigger.type} trigger.` });
  };
  if (trigger.type === 'custom_event') {
    if (blank(trigger.event)) violations.push({ field: `${at}.event`, reason: 'required', message: 'A custom_event trigger names its event.' });
    else if ((trigger.event as string).length > MAX_EVENT_NAME_LENGTH) violations.push({ field: `${at}.event`, reason: 'too_long', message: `At most ${MAX_EVENT_NAME_LENGTH} characters.` });
  } else stray('event');
  if (trigger.type === 'stage_changed') violations.push(...checkStageReference(trigger, at, false));
  else (['stageId', 'pipelineSlug', 'stageSlug'] as const).forEach(stray);
  return violations;
}

function checkStageReference(reference: StageReference, at: string, required: boolean): FieldViolation[] {
  const { stageId, pipelineSlug, stageSlug } = reference;
  if (present(stageId) && (present(pipelineSlug) || present(stageSlug))) {
    return [{ field: `${at}.stage_id`, reason: 'exclusive_field', message: 'Give stage_id, or pipeline_slug and stage_slug, not both.' }];
  }
  if (present(stageId)) return [];
  if (required && (!present(pipelineSlug) || !present(stageSlug))) {
    const field = present(pipelineSlug) ? 'stage_slug' : present(stageSlug) ? 'pipeline_slug' : 'stage_id';
    return [{ field: `${at}.${field}`, reason: 'required', message: 'A move_to_stage step needs stage_id, or pipeline_slug and stage_slug.' }];
  }
  if (!required && present(stageSlug) && !present(pipelineSlug)) {
    return [{ field: `${at}.pipeline_slug`, reason: 'required', message: 'stage_slug needs pipeline_slug.' }];
  }
  return [];
}

const FIELDS_BY_STEP: Record<AutomationStepSpec['type'], (keyof AutomationStepSpec)[]> = {
  add_tag: ['tag'],
  remove_tag: ['tag'],
  send_email: ['subject', 'body'],
  move_to_stage: ['stageId', 'pipelineSlug', 'stageSlug'],
  wait: ['seconds'],
  webhook: ['event'],
};

function snake(field: string): string {
  return field.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

function checkStep(step: AutomationStepSpec, at: string): FieldViolation[] {
  if (!(AUTOMATION_STEP_TYPES as readonly string[]).includes(step.type)) {
    return [{ field: `${at}.type`, reason: present(step.type) ? 'invalid_value' : 'required', message: `type is one of ${AUTOMATION_STEP_TYPES.join(', ')}.` }];
  }
  const violations: FieldViolation[] = [];
  const allowed = FIELDS_BY_STEP[step.type];
  for (const field of ['tag', 'subject', 'body', 'stageId', 'pipelineSlug', 'stageSlug', 'seconds', 'event'] as const) {
    if (!allowed.includes(field) && present(step[field])) {
      violations.push({ field: `${at}.${snake(field)}`, reason: 'invalid_value', message: `${snake(field)} does not apply to a ${step.type} step.` });
    }
  }
  const text = (field: 'tag' | 'subject' | 'body' | 'event', max: number) => {
    const value = step[field];
    if (blank(value)) violations.push({ field: `${at}.${field}`, reason: 'required', message: `A ${step.type} step needs ${field}.` });
    else if ((value as string).length > max) violations.push({ field: `${at}.${field}`, reason: 'too_long', message: `At most ${max} characters.` });
  };
  switch (step.type) {
    case 'add_tag':
    case 'remove_tag':
      text('tag', MAX_TAG_LENGTH);
      break;
    case 'send_email':
      text('subject', MAX_SUBJECT_LENGTH);
      text('body', MAX_BODY_LENGTH);
      break;
    case 'move_to_stage':
      violations.push(...checkStageReference(step, at, true));
      break;
    case 'wait': {
      const seconds = step.seconds;
      if (!present(seconds)) violations.push({ field: `${at}.seconds`, reason: 'required', message: 'A wait step needs seconds.' });
      else if (!Number.isInteger(seconds) || (seconds as number) < 1 || (seconds as number) > MAX_WAIT_SECONDS) {
        violations.push({ field: `${at}.seconds`, reason: 'invalid_value', message: `seconds is an integer from 1 to ${MAX_WAIT_SECONDS}.` });
      }
      break;
    }
    case 'webhook':
      if (blank(step.event)) violations.push({ field: `${at}.event`, reason: 'required', message: 'A webhook step names a catalog event.' });
      else if (!isWebhookEventName(step.event)) violations.push({ field: `${at}.event`, reason: 'unknown_event_type', message: 'event must be a webhook catalog name.' });
      break;
  }
  return violations;
}

/** SHA-256 (hex) of the event data serialised with sorted keys: the duplicate-trigger comparison key. */
export function fingerprintOf(value: unknown): string {
  const canonical = (input: unknown): unknown => {
    if (Array.isArray(input)) return input.map(canonical);
    if (input && typeof input === 'object') {
      return Object.fromEntries(Object.keys(input as object).sort().map((key) => [key, canonical((input as Record<string, unknown>)[key])]));
    }
    return input;
  };
  return createHash('sha256').update(JSON.stringify(canonical(value ?? {}))).digest('hex');
}
