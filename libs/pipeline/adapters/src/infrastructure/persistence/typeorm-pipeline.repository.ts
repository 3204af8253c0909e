import { Injectable } from '@nestjs/common';
import { AccountId, DomainError, isUuid } from '@leadflow/shared-kernel';
import { AccountCacheInvalidation, TransactionHost } from '@leadflow/shared-platform';
import { ExistingPipeline, Pipeline, PipelineRepository, StageRef } from '@leadflow/pipeline-core';
import { PipelineRecord, StageRecord } from './pipeline.records';

const UNIQUE_VIOLATION = '23505';

/**
 * TypeORM implementation of {@link PipelineRepository}; every query filters on `account_id`. A write of
 * pipelines or stages invalidates the account's `config` caches (lead capture's settings) in every
 * process once the unit of work commits.
 */
@Injectable()
export class TypeOrmPipelineRepository extends PipelineRepository {
  constructor(
    private readonly transactions: TransactionHost,
    private readonly invalidation: AccountCacheInvalidation,
  ) {
    super();
  }

  async listExisting(accountId: AccountId): Promise<ExistingPipeline[]> {
    const rows: Array<{ slug: string; is_default: boolean; dashboard_order: number; stage_count: number }> = await this.transactions.manager.query(
      `SELECT p.slug, p.is_default, p.dashboard_order,
              (SELECT count(*)::int FROM pipeline.stages s WHERE s.account_id = p.account_id AND s.pipeline_id = p.id) AS stage_count
         FROM pipeline.pipelines p
        WHERE p.account_id = $1`,
      [accountId],
    );
    return rows.map((row) => ({ slug: row.slug, isDefault: row.is_default, dashboardOrder: row.dashboard_order, stageCount: row.stage_count }));
  }

  async insert(accountId: AccountId, pipelines: readonly Pipeline[]): Promise<void> {
    if (pipelines.length === 0) return;
    const manager = this.transactions.manager;
    try {
      await manager.insert(
        PipelineRecord,
        pipelines.map(({ stages: _stages, ...pipeline }) => ({ ...pipeline, accountId })),
      );
      const stages = pipelines.flatMap((pipeline) => pipeline.stages.map((stage) => ({ ...stage, accountId, pipelineId: pipeline.id })));
      if (stages.length > 0) await manager.insert(StageRecord, stages);
    } catch (error) {
      if ((error as { code?: string }).code === UNIQUE_VIOLATION) {
        throw new DomainError('duplicate_resource', 'A pipeline slug or default was taken concurrently.', { resource: 'pipeline', reason: 'duplicate' });
      }
      throw error;
    }
    await this.transactions.afterCommit(() => this.invalidation.invalidate('config', accountId));
  }

  async findStage(accountId: AccountId, stageId: string): Promise<StageRef | null> {
    if (!isUuid(stageId)) return null;
    const row = await this.transactions.manager.findOneBy(StageRecord, { accountId, id: stageId.toLowerCase() });
    return row ? { id: row.id, pipelineId: row.pipelineId, isLost: row.isLost, isDisqualification: row.isDisqualification } : null;
  }
}
