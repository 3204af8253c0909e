import type { AccountId } from '@leadflow/shared-kernel';
import type { StageRef } from '../../domain/deal';
import type { ExistingPipeline, Pipeline } from '../../domain/pipeline.aggregate';

/** Write side of the pipeline context. Writes join the caller's unit of work. */
export abstract class PipelineRepository {
  /** The account's pipelines as provisioning needs them (slug, default flag, order, stage count). */
  abstract listExisting(accountId: AccountId): Promise<ExistingPipeline[]>;
  /** Inserts pipelines with their stages. A slug or default already taken (concurrent write) throws 409 `duplicate_resource`. */
  abstract insert(accountId: AccountId, pipelines: readonly Pipeline[]): Promise<void>;
  /** A stage of the account, as the deal rules need it; null when missing, another account's, or not a UUID. */
  abstract findStage(accountId: AccountId, stageId: string): Promise<StageRef | null>;
}
