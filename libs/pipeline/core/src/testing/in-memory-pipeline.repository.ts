import type { AccountId } from '@leadflow/shared-kernel';
import { PipelineRepository } from '../application/ports/pipeline.repository.port';
import type { StageRef } from '../domain/deal';
import type { ExistingPipeline, Pipeline } from '../domain/pipeline.aggregate';

/** In-memory fake of {@link PipelineRepository} for handler unit tests. */
export class InMemoryPipelineRepository extends PipelineRepository {
  readonly pipelines = new Map<string, Pipeline[]>();

  async listExisting(accountId: AccountId): Promise<ExistingPipeline[]> {
    return (this.pipelines.get(accountId) ?? []).map(({ slug, isDefault, dashboardOrder, stages }) => ({ slug, isDefault, dashboardOrder, stageCount: stages.length }));
  }

  async insert(accountId: AccountId, pipelines: readonly Pipeline[]): Promise<void> {
    this.pipelines.set(accountId, [...(this.pipelines.get(accountId) ?? []), ...pipelines]);
  }

  async findStage(accountId: AccountId, stageId: string): Promise<StageRef | null> {
    for (const pipeline of this.pipelines.get(accountId) ?? []) {
      const stage = pipeline.stages.find((candidate) => candidate.id === stageId);
      if (stage) return { id: stage.id, pipelineId: pipeline.id, isLost: stage.isLost, isDisqualification: stage.isDisqualification };
    }
    return null;
  }
}
