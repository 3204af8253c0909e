import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { Clock, Journal, UnitOfWork } from '@leadflow/shared-kernel';
import { ContactStageChange, MoveContactToStageCommand } from '@leadflow/contacts-contracts';
import { planStageMove } from '../../../domain/contact-stage';
import { DealNotFoundError } from '../../../domain/contact-stage.errors';
import { ContactNotFoundError } from '../../../domain/contacts.errors';
import { changeOf, writeStageChange } from '../../contact-stage/stage-change.writes';
import { ContactStageRepository } from '../../ports/contact-stage.repository.port';
import { ContactsRepository } from '../../ports/contacts.repository.port';

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
