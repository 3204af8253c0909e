import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { Clock, Journal, UnitOfWork } from '@leadflow/shared-kernel';
import { ContactStageChange, RemoveContactFromPipelineCommand } from '@leadflow/contacts-contracts';
import { planRemovalFromPipeline } from '../../../domain/contact-stage';
import { DealNotFoundError } from '../../../domain/contact-stage.errors';
import { writeStageChange } from '../../contact-stage/stage-change.writes';
import { ContactStageRepository } from '../../ports/contact-stage.repository.port';
import { ContactsRepository } from '../../ports/contacts.repository.port';

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
