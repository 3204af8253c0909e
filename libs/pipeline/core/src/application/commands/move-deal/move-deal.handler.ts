import { CommandBus, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { MoveContactToStageCommand } from '@leadflow/contacts-contracts';
import type { DealView } from '@leadflow/pipeline-contracts';
import { dealViewOf, stageTarget } from '../../../domain/deal';
import { DealNotFoundError, StageNotFoundError } from '../../../domain/deal.errors';
import { DealsReadModel } from '../../ports/deals.read-model.port';
import { PipelineRepository } from '../../ports/pipeline.repository.port';
import { MoveDealCommand } from './move-deal.command';

/**
 * `PATCH /v1/pipeline/deals/{id}`. 404 `not_found` when the deal is not a contact of the account with a
 * stage set (`details.resource` `deal`; also merged), checked first, then for a stage not in the
 * account; then the rules of PlaceDealHandler.
 */
@CommandHandler(MoveDealCommand)
export class MoveDealHandler implements ICommandHandler<MoveDealCommand> {
  constructor(
    private readonly pipelines: PipelineRepository,
    private readonly deals: DealsReadModel,
    private readonly commands: CommandBus,
  ) {}

  async execute({ accountId, dealId, stageId, actor }: MoveDealCommand): Promise<DealView> {
    const stage = await this.pipelines.findStage(accountId, stageId);
    if (!stage) {
      if (!(await this.deals.isDeal(accountId, dealId))) throw new DealNotFoundError();
      throw new StageNotFoundError();
    }
    const change = await this.commands.execute(new MoveContactToStageCommand(accountId, dealId, stageTarget(stage), actor, { requireDeal: true }));
    return dealViewOf(change);
  }
}
