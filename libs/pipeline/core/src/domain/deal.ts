import type { ContactStageChange, StageTarget } from '@leadflow/contacts-contracts';
import type { DealView } from '@leadflow/pipeline-contracts';

/** What the deal rules need to know of a stage of the account. */
export interface StageRef {
  id: string;
  pipelineId: string;
  isLost: boolean;
  isDisqualification: boolean;
}

/**
 * The contacts context's target for a move into `stage`: a disqualified lead may still be moved to a
 * lost stage or to the disqualification stage (public-api-v1 › Endpoints › Pipeline).
 */
export function stageTarget(stage: StageRef): StageTarget {
  return { pipelineId: stage.pipelineId, stageId: stage.id, acceptsDisqualifiedLeads: stage.isLost || stage.isDisqualification };
}

/** The deal view of a contact after a stage command. */
export function dealViewOf({ contact, pipelineId, stageId }: ContactStageChange): DealView {
  return {
    id: contact.id,
    first_name: contact.first_name,
    last_name: contact.last_name,
    email: contact.email,
    phone: contact.phone,
    company: contact.company,
    pipeline_id: pipelineId,
    stage_id: stageId,
    deal_value: contact.deal_value,
    score: contact.score,
    created_at: contact.created_at,
    updated_at: contact.updated_at,
  };
}
