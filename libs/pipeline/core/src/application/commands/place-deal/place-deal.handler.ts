import { CommandBus, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { MoveContactToStageCommand } from '@leadflow/contacts-contracts';
import type { DealView } from '@leadflow/pipeline-contracts';
import { dealViewOf, stageTarget } from '../../../domain/deal';
import { StageNotFoundError } from '../../../domain/deal.errors';
import { PipelineRepository } from '../../ports/pipeline.repository.port';
import { PlaceDealCommand } from './place-deal.command';

/*
 * The pipeline context owns stages and the deal routes; the contact's row belongs to the contacts
 * context. So these handlers check the stage here, then hand the move to the contacts context's
 * published commands, which lock the contact, apply the contact-side rules and write the stage,
 * timeline entry, outbox event and AI follow-up stop in one transaction.
 */

/**
 * `POST /v1/pipeline/deals`. 404 `not_found` for a stage (`details.field` `stage_id`) or contact
 * (`details.field` `contact_id`; also merged) not in the account; then the contact rules: 422
 * `business_rule_violation` `contact_archived`, 422 `other_pipeline` (the contact is in a stage of
 * another pipeline), 409 `lead_disqualified` unless the stage is lost or the disqualification stage.
 */
@CommandHandler(PlaceDealCommand)
export class PlaceDealHandler implements ICommandHandler<PlaceDealCommand> {
  constructor(
    private readonly pipelines: PipelineRepository,
    private readonly commands: CommandBus,
  ) {}

  async execute({ accountId, contactId, stageId, actor }: PlaceDealCommand): Promise<DealView> {
    const stage = await this.pipelines.findStage(accountId, stageId);
    if (!stage) throw new StageNotFoundError();
    const change = await this.commands.execute(new MoveContactToStageCommand(accountId, contactId, stageTarget(stage), actor, { contactField: 'contact_id' }));
    return dealViewOf(change);
  }
}
