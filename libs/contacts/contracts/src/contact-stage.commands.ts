import { Command } from '@nestjs/cqrs';
import type { AccountId, Actor } from '@leadflow/shared-kernel';
import type { ContactView } from './contact.views';

/**
 * The stage a contact is moved to: a stage of the account, found and checked by the pipeline context
 * (which owns stages) before it dispatches {@link MoveContactToStageCommand}.
 */
export interface StageTarget {
  pipelineId: string;
  stageId: string;
  /** A lost stage or the pipeline's disqualification stage: a disqualified lead may still go there. */
  acceptsDisqualifiedLeads: boolean;
}

export interface MoveContactToStageOptions {
  /**
   * The contact must already be a deal (stage set), else 404 `not_found` with
   * `details.resource` `deal` (PATCH /v1/pipeline/deals/{id}). Default false.
   */
  requireDeal?: boolean;
  /** `details.field` of the 404 for a missing contact whose id came in a body field (`contact_id`). */
  contactField?: string;
  /**
   * The move is a human decision that stops the AI assistant's follow-up (`ai_follow_up_stopped_at`).
   * Default true (public API and dashboard moves); an automation's move passes false.
   */
  stopsAiFollowUp?: boolean;
}

/** A contact's pipeline membership after a stage command, and before it. */
export interface ContactStageChange {
  contact: ContactView;
  pipelineId: string | null;
  stageId: string | null;
  previousPipelineId: string | null;
  previousStageId: string | null;
  /** False when the contact already was where it was asked to go: nothing was written. */
  changed: boolean;
}

/**
 * Puts a contact in a stage (public-api-v1 › States › Deal): from no stage into any pipeline, or
 * within the contact's own pipeline. In one transaction: the contact's stage, a `stage_changed`
 * activity entry (`data` `{ pipeline_id, from_stage_id, to_stage_id }`), a `stage_changed` outbox event
 * ({@link StageChangedPayload}: webhook and the automations' stage-change trigger) and, when
 * `stopsAiFollowUp`, the human decision that stops AI follow-up. Checks, in order:
 * 404 `not_found` (contact missing, merged or another account's; with `requireDeal`, also a contact
 * without stage: `details.resource` `deal`); 422 `business_rule_violation` `contact_archived`; 422
 * `other_pipeline` (in a stage of another pipeline); 409 `lead_disqualified` unless the target
 * accepts disqualified leads. Already in the target stage: nothing is written (`changed` false).
 */
export class MoveContactToStageCommand extends Command<ContactStageChange> {
  constructor(
    readonly accountId: AccountId,
    readonly contactId: string,
    readonly target: StageTarget,
    readonly actor: Actor,
    readonly options: MoveContactToStageOptions = {},
  ) {
    super();
  }
}

/**
 * Takes a deal out of its pipeline (DELETE /v1/pipeline/deals/{id}): stage and pipeline set to none,
 * the contact kept; a `stage_changed` activity entry and outbox event with `to_stage_id` null, in one
 * transaction. 404 `not_found` (`details.resource` `deal`) when the contact is missing, merged, another
 * account's or has no stage; 422 `business_rule_violation` `contact_archived`.
 */
export class RemoveContactFromPipelineCommand extends Command<ContactStageChange> {
  constructor(
    readonly accountId: AccountId,
    readonly contactId: string,
    readonly actor: Actor,
  ) {
    super();
  }
}
