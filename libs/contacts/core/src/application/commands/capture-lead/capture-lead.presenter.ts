import { centsToDollars } from '@leadflow/shared-kernel';
import type { IgnoredField, LeadCaptureResult } from '@leadflow/contacts-contracts';
import type { IgnoredFields } from '../../../domain/lead-capture/ignored-fields';
import type { ResolvedRequest } from './capture-lead.resolver';

/** What a capture did, before its wire mapping: the outcome, the contact, and what the response reports. */
export interface LeadCaptureOutcome {
  status: LeadCaptureResult['status'];
  contactId: string;
  contactWasNew: boolean;
  /** The ignored fields collected while parsing, resolving and enriching. */
  ignored: IgnoredFields;
  /** The capture's activity entry (`created`, or the original one for `idempotent_replay`), else null. */
  activityId: string | null;
  originalCreatedAt: Date;
}

/**
 * The `POST /v1/leads/capture` response (public-api-v1 › Lead capture response): status, contact,
 * the resolved pipeline block (null without a stage; `deal_value` in dollars), the assignment status,
 * the ignored fields (truncated past their limit), the activity id and `original_created_at` (ISO 8601).
 */
export function presentLeadCapture(request: ResolvedRequest, outcome: LeadCaptureOutcome): LeadCaptureResult {
  const { stage, lead } = request;
  const { ignored_fields, ignored_fields_truncated } = outcome.ignored.toResponse();
  return {
    status: outcome.status,
    contact_id: outcome.contactId,
    contact_was_new: outcome.contactWasNew,
    pipeline: stage
      ? {
          pipeline_id: stage.pipelineId,
          pipeline_slug: stage.pipeline.slug,
          pipeline_name: stage.pipeline.name,
          stage_id: stage.id,
          stage_slug: stage.slug,
          stage_name: stage.name,
          deal_value: centsToDollars(lead.pipeline.dealValueCents),
          expected_close_date: lead.pipeline.expectedCloseDate,
        }
      : null,
    assignment_status: request.assignment,
    ignored_fields: ignored_fields as IgnoredField[],
    ignored_fields_truncated,
    activity_id: outcome.activityId,
    original_created_at: outcome.originalCreatedAt.toISOString(),
  };
}
