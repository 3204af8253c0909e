import { Command } from '@nestjs/cqrs';
import type { AccountId, Actor } from '@leadflow/shared-kernel';
import type { DealView } from '@leadflow/pipeline-contracts';

/** `POST /v1/pipeline/deals`: puts an existing contact in a stage (creates no contact). See PlaceDealHandler. */
export class PlaceDealCommand extends Command<DealView> {
  constructor(
    readonly accountId: AccountId,
    readonly contactId: string,
    readonly stageId: string,
    readonly actor: Actor,
  ) {
    super();
  }
}
