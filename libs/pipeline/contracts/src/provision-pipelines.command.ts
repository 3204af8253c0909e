import { Command } from '@nestjs/cqrs';
import type { AccountId } from '@leadflow/shared-kernel';
import type { PipelineSpec, ProvisionedPipelines } from './pipeline-blueprint';

/**
 * Creates an account's pipelines and their stages (operator blueprint), inside the caller's unit of
 * work. Rules: slugs match `^[a-z0-9][a-z0-9_-]*$`, pipeline slugs are unique in the account and stage
 * slugs in their pipeline; exactly one default pipeline per account and one default stage per pipeline
 * (the first one when none is flagged); a won stage is neither lost nor the disqualification stage; at
 * most one disqualification stage per pipeline; at most 50 stages per account. Any breach throws 400
 * `validation_error` with `details` as `{ field, reason }` (fields named like the blueprint,
 * e.g. `pipelines[1].stages[0].slug`), and nothing is written.
 */
export class ProvisionPipelinesCommand extends Command<ProvisionedPipelines> {
  constructor(
    readonly accountId: AccountId,
    readonly pipelines: readonly PipelineSpec[],
  ) {
    super();
  }
}
