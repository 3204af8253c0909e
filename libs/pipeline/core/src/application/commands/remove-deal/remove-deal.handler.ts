import { CommandBus, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { RemoveContactFromPipelineCommand } from '@leadflow/contacts-contracts';
import type { DealView } from '@leadflow/pipeline-contracts';
import { dealViewOf } from '../../../domain/deal';
import { RemoveDealCommand } from './remove-deal.command';

/** `DELETE /v1/pipeline/deals/{id}`: 404 `not_found` when not a deal; 422 `business_rule_violation` `contact_archived`. */
@CommandHandler(RemoveDealCommand)
export class RemoveDealHandler implements ICommandHandler<RemoveDealCommand> {
  constructor(private readonly commands: CommandBus) {}

  async execute({ accountId, dealId, actor }: RemoveDealCommand): Promise<DealView> {
    return dealViewOf(await this.commands.execute(new RemoveContactFromPipelineCommand(accountId, dealId, actor)));
  }
}
