import { Command } from '@nestjs/cqrs';
import type { AccountId, Actor } from '@leadflow/shared-kernel';
import type { DealView } from '@leadflow/pipeline-contracts';

/** `PATCH /v1/pipeline/deals/{id}`: moves a deal to another stage of its pipeline. See MoveDealHandler. */
export class MoveDealCommand extends Command<DealView> {
  constructor(
    readonly accountId: AccountId,
    readonly dealId: string,
    readonly stageId: string,
    readonly actor: Actor,
  ) {
    super();
  }
}
