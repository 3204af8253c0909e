import { Command } from '@nestjs/cqrs';
import type { AccountId, Actor } from '@leadflow/shared-kernel';
import type { DealView } from '@leadflow/pipeline-contracts';

/** `DELETE /v1/pipeline/deals/{id}`: the stage set to none, the contact kept. See RemoveDealHandler. */
export class RemoveDealCommand extends Command<DealView> {
  constructor(
    readonly accountId: AccountId,
    readonly dealId: string,
    readonly actor: Actor,
  ) {
    super();
  }
}
