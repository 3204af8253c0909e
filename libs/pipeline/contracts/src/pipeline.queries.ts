import { Query } from '@nestjs/cqrs';
import type { AccountId } from '@leadflow/shared-kernel';
import type { PipelineView, StageView } from './pipeline.views';

/** Every pipeline of the account in dashboard order. */
export class ListPipelinesQuery extends Query<PipelineView[]> {
  constructor(readonly accountId: AccountId) {
    super();
  }
}

/** A pipeline by slug, or the account's default pipeline when `slug` is null. Null when there is none. */
export class FindPipelineQuery extends Query<PipelineView | null> {
  constructor(
    readonly accountId: AccountId,
    readonly slug: string | null,
  ) {
    super();
  }
}

/** A stage of the account by id (null when missing or another account's; a non-UUID id reads as missing). */
export class FindStageQuery extends Query<StageView | null> {
  constructor(
    readonly accountId: AccountId,
    readonly stageId: string,
  ) {
    super();
  }
}

/**
 * A stage by slugs, as lead capture and automations name them: `pipelineSlug` null means the default
 * pipeline, `stageSlug` null means that pipeline's default stage. Null when the pipeline or the stage
 * does not exist (the caller tells `pipeline_not_found` from `stage_not_found` with FindPipelineQuery).
 */
export class FindStageBySlugQuery extends Query<StageView | null> {
  constructor(
    readonly accountId: AccountId,
    readonly pipelineSlug: string | null,
    readonly stageSlug: string | null,
  ) {
    super();
  }
}

/**
 * Every stage of every pipeline of the account, sorted by pipeline in dashboard order then
 * `stage_order` ascending (`GET /v1/pipeline/stages`; at most 50). Pass `pipelineId` to keep one pipeline.
 */
export class ListStagesQuery extends Query<StageView[]> {
  constructor(
    readonly accountId: AccountId,
    readonly pipelineId: string | null = null,
  ) {
    super();
  }
}
