import { AccountId, Actor, Journal } from '@leadflow/shared-kernel';
import { ContactStageChange, STAGE_CHANGED_EVENT, StageChangedPayload } from '@leadflow/contacts-contracts';
import type { ContactState } from '../../domain/contact.aggregate';
import type { StagePosition } from '../../domain/contact-stage';
import { ContactStageRepository } from '../ports/contact-stage.repository.port';
import { integrationEvent, toContactView } from '../views';

/** The activity-log / timeline type of a stage move, and the name of its outbox event. */
export const STAGE_CHANGED_ACTIVITY = 'stage_changed';

/**
 * Writes a stage change in the current unit of work: the contact's stage (and, for a human decision,
 * the end of the AI follow-up), a `stage_changed` activity entry and a `stage_changed` outbox event.
 * Any failure rolls all of it back with the caller's transaction.
 */
export async function writeStageChange(
  stages: ContactStageRepository,
  journal: Journal,
  accountId: AccountId,
  actor: Actor,
  before: ContactState,
  position: StagePosition,
  now: Date,
  stopAiFollowUp: boolean,
): Promise<ContactStageChange> {
  await stages.setStage(accountId, before.id, position, now, { stopAiFollowUp });
  const payload: StageChangedPayload = {
    contact_id: before.id,
    pipeline_id: position.pipelineId ?? before.pipelineId,
    from_stage_id: before.stageId,
    to_stage_id: position.stageId,
  };
  const { contact_id: _contactId, ...data } = payload;
  await journal.record(
    accountId,
    [{ contactId: before.id, type: STAGE_CHANGED_ACTIVITY, actor, data }],
    [integrationEvent(STAGE_CHANGED_EVENT, accountId, actor, now, payload)],
  );
  return changeOf(before, { ...before, ...position, updatedAt: now }, true);
}

/** The answer of a stage command: the contact after the change, its position before and after. */
export function changeOf(before: ContactState, after: ContactState, changed: boolean): ContactStageChange {
  return {
    contact: toContactView(after),
    pipelineId: after.pipelineId,
    stageId: after.stageId,
    previousPipelineId: before.pipelineId,
    previousStageId: before.stageId,
    changed,
  };
}
