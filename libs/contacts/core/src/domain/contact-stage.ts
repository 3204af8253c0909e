import type { StageTarget } from '@leadflow/contacts-contracts';
import type { ContactState } from './contact.aggregate';
import { ArchivedContactStageError, LeadDisqualifiedError, OtherPipelineError } from './contact-stage.errors';

/** Where a contact stands in the pipelines: both null when it is not a deal. */
export interface StagePosition {
  pipelineId: string | null;
  stageId: string | null;
}

/**
 * Rules of a move into `target` (public-api-v1 › States › Deal, Endpoints › Pipeline), checked in this
 * order: archived contact (422 `contact_archived`); a contact in a stage of another pipeline (422
 * `other_pipeline`; a contact without stage may enter any pipeline); a disqualified lead going
 * anywhere but a lost or disqualification stage (409 `lead_disqualified`). Returns the new position,
 * or null when the contact already is in the target stage (nothing to write).
 */
export function planStageMove(contact: Readonly<ContactState>, target: StageTarget): StagePosition | null {
  if (contact.archivedAt !== null) throw new ArchivedContactStageError();
  if (contact.stageId !== null && contact.pipelineId !== target.pipelineId) throw new OtherPipelineError();
  if (contact.disqualifiedAt !== null && !target.acceptsDisqualifiedLeads) throw new LeadDisqualifiedError();
  if (contact.stageId === target.stageId && contact.pipelineId === target.pipelineId) return null;
  return { pipelineId: target.pipelineId, stageId: target.stageId };
}

/** Rules of taking a deal out of its pipeline: an archived contact stays (422 `contact_archived`). */
export function planRemovalFromPipeline(contact: Readonly<ContactState>): StagePosition {
  if (contact.archivedAt !== null) throw new ArchivedContactStageError();
  return { pipelineId: null, stageId: null };
}
