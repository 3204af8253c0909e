import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { AccountId, Actor, Clock, Journal, UnitOfWork } from '@leadflow/shared-kernel';
import {
  ContactStageChange,
  MoveContactToStageCommand,
  RemoveContactFromPipelineCommand,
  STAGE_CHANGED_EVENT,
  StageChangedPayload,
} from '@leadflow/contacts-contracts';
import type { ContactState } from '../../domain/contact.aggregate';
import { planRemovalFromPipeline, planStageMove, StagePosition } from '../../domain/contact-stage';
import { DealNotFoundError } from '../../domain/contact-stage.errors';
import { ContactNotFoundError } from '../../domain/contacts.errors';
import { ContactStageRepository } from '../ports/contact-stage.repository.port';
import { ContactsRepository } from '../ports/contacts.repository.port';
import { integrationEvent, toContactView } from '../views';

/** The activity-log / timeline type of a stage move, and the name of its outbox event. */
export const STAGE_CHANGED_ACTIVITY = 'stage_changed';

/**
 * Writes a stage change in the current unit of work: the contact's stage (and, for a human decision,
 * the end of the AI follow-up), a `stage_changed` activity entry and a `stage_changed` outbox event.
 * Any failure rolls all of it back with the caller's transaction.
 */
async function writeStageChange(
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

function changeOf(before: ContactState, after: ContactState, changed: boolean): ContactStageChange {
  return {
    contact: toContactView(after),
    pipelineId: after.pipelineId,
    stageId: after.stageId,
    previousPipelineId: before.pipelineId,
    previousStageId: before.stageId,
    changed,
  };
}

/**
 * Puts a contact in a stage of the account (POST and PATCH /v1/pipeline/deals; see
 * MoveContactToStageCommand for the rules). The contact row is locked while the rules are checked,
 * so two concurrent moves are applied one after the other.
 */
@CommandHandler(MoveContactToStageCommand)
export class MoveContactToStageHandler implements ICommandHandler<MoveContactToStageCommand> {
  constructor(
    private readonly contacts: ContactsRepository,
    private readonly stages: ContactStageRepository,
    private readonly unitOfWork: UnitOfWork,
    private readonly journal: Journal,
    private readonly clock: Clock,
  ) {}

  execute({ accountId, contactId, target, actor, options }: MoveContactToStageCommand): Promise<ContactStageChange> {
    return this.unitOfWork.run(async () => {
      const state = await this.contacts.findContact(accountId, contactId, { lock: true });
      if (options.requireDeal && (!state || state.mergedIntoId || state.stageId === null)) throw new DealNotFoundError();
      if (!state || state.mergedIntoId) throw new ContactNotFoundError(options.contactField);
      const position = planStageMove(state, target);
      if (position === null) return changeOf(state, state, false);
      return writeStageChange(this.stages, this.journal, accountId, actor, state, position, this.clock.now(), options.stopsAiFollowUp ?? true);
    });
  }
}

/** DELETE /v1/pipeline/deals/{id}: the deal leaves its pipeline, the contact stays (see RemoveContactFromPipelineCommand). */
@CommandHandler(RemoveContactFromPipelineCommand)
export class RemoveContactFromPipelineHandler implements ICommandHandler<RemoveContactFromPipelineCommand> {
  constructor(
    private readonly contacts: ContactsRepository,
    private readonly stages: ContactStageRepository,
    private readonly unitOfWork: UnitOfWork,
    private readonly journal: Journal,
    private readonly clock: Clock,
  ) {}

  execute({ accountId, contactId, actor }: RemoveContactFromPipelineCommand): Promise<ContactStageChange> {
    return this.unitOfWork.run(async () => {
      const state = await this.contacts.findContact(accountId, contactId, { lock: true });
      if (!state || state.mergedIntoId || state.stageId === null) throw new DealNotFoundError();
      const position = planRemovalFromPipeline(state);
      return writeStageChange(this.stages, this.journal, accountId, actor, state, position, this.clock.now(), false);
    });
  }
}
