/**
 * Lead capture (public-api-v1 › Lead capture response, Lead capture outcome): the 200 body of
 * `POST /v1/leads/capture` and the `lead_created` integration event. JSON-safe.
 */

/** Outcome statuses (public-api-v1 › Lead capture outcome). */
export const LEAD_CAPTURE_STATUSES = ['created', 'idempotent_replay', 'existing_pipeline_contact'] as const;
export type LeadCaptureStatus = (typeof LEAD_CAPTURE_STATUSES)[number];

/**
 * Reasons of `ignored_fields` entries: the spec's list, plus `invalid_value` (an optional member
 * whose value could not be used, e.g. a `deal_value` that is not a positive amount; the lead is
 * still captured).
 */
export const IGNORED_FIELD_REASONS = [
  'unknown_field',
  'custom_field_not_defined',
  'reserved_tag',
  'system_not_active',
  'existing_contact_kept',
  'sales_rep_not_found',
  'submission_not_recorded',
  'duplicate_field',
  'invalid_value',
] as const;
export type IgnoredFieldReason = (typeof IGNORED_FIELD_REASONS)[number];

export interface IgnoredField {
  /** Dotted path from the body root (`pipeline.id`, `customData.form_page`, `tags[1]`); `""` for the whole submission. */
  field: string;
  reason: IgnoredFieldReason;
}

/** At most this many `ignored_fields` entries (public-api-v1 › Limits); `ignored_fields_truncated` tells. */
export const IGNORED_FIELDS_MAX = 50;

/** The pipeline placement the request resolved to (not necessarily the contact's: rule 3). */
export interface LeadCapturePipelineView {
  pipeline_id: string;
  pipeline_slug: string;
  pipeline_name: string;
  stage_id: string;
  stage_slug: string;
  stage_name: string;
  /** CAD, or null when not sent. */
  deal_value: number | null;
  /** YYYY-MM-DD, or null when not sent. */
  expected_close_date: string | null;
}

/** `assigned`: the sales rep of the request was found; `unassigned`: none sent; `sales_rep_not_found`. */
export type LeadAssignmentStatus = 'assigned' | 'unassigned' | 'sales_rep_not_found';

/** The 200 body of `POST /v1/leads/capture` (members at the top level, no `data` envelope). */
export interface LeadCaptureResult {
  status: LeadCaptureStatus;
  contact_id: string;
  contact_was_new: boolean;
  /** Null when the account has no pipeline. */
  pipeline: LeadCapturePipelineView | null;
  assignment_status: LeadAssignmentStatus;
  ignored_fields: IgnoredField[];
  ignored_fields_truncated: boolean;
  /** The activity-log entry of the recorded capture; null for `existing_pipeline_contact`. */
  activity_id: string | null;
  /** When the capture this answer describes was first recorded (kept on a replay). */
  original_created_at: string;
}

/**
 * Payload of the `lead_created` integration event (and webhook), written in the transaction of every
 * recorded capture (outcome `created`). The SMS follow-up hand-off consumes it.
 */
export interface LeadCreatedPayload extends Record<string, unknown> {
  contact_id: string;
  contact_was_new: boolean;
  capture_id: string;
  activity_id: string;
  /** E.164, the number the lead gave. */
  phone: string;
  first_name: string | null;
  last_name: string | null;
  email: string | null;
  sms_consent: boolean;
  source_label: string | null;
  system_id: string;
  pipeline_id: string | null;
  stage_id: string | null;
}
