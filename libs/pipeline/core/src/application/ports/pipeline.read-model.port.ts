import type { AccountId } from '@leadflow/shared-kernel';
import type { PipelineView, StageView } from '@leadflow/pipeline-contracts';

/** Read side of the pipeline context: response-shaped views, every query filtered on the account. */
export abstract class PipelineReadModel {
  /** Dashboard order. */
  abstract listPipelines(accountId: AccountId): Promise<PipelineView[]>;
  /** By slug, or the default pipeline when `slug` is null. */
  abstract findPipeline(accountId: AccountId, slug: string | null): Promise<PipelineView | null>;
  abstract findStage(accountId: AccountId, stageId: string): Promise<StageView | null>;
  /** `pipelineSlug` null: the default pipeline; `stageSlug` null: the pipeline's default stage. */
  abstract findStageBySlug(accountId: AccountId, pipelineSlug: string | null, stageSlug: string | null): Promise<StageView | null>;
  /** Pipelines in dashboard order, then `stage_order`. */
  abstract listStages(accountId: AccountId, pipelineId: string | null): Promise<StageView[]>;
}
