import { Injectable } from '@nestjs/common';
import type { AccountId } from '@leadflow/shared-kernel';
import { TransactionHost } from '@leadflow/shared-platform';
import { PipelineReadModel } from '@leadflow/pipeline-core';
import type { PipelineView, StageView } from '@leadflow/pipeline-contracts';

interface PipelineRow {
  id: string;
  name: string;
  slug: string;
  is_default: boolean;
  dashboard_order: number;
}

interface StageRow {
  id: string;
  name: string;
  slug: string;
  pipeline_id: string;
  stage_order: number;
  is_default: boolean;
  is_hidden: boolean;
  is_won: boolean;
  is_lost: boolean;
  is_disqualification: boolean;
  pipeline_name: string;
  pipeline_slug: string;
  pipeline_is_default: boolean;
  pipeline_dashboard_order: number;
}

const PIPELINE_COLUMNS = `p.id, p.name, p.slug, p.is_default, p.dashboard_order`;
const STAGE_SELECT = `
  SELECT s.id, s.name, s.slug, s.pipeline_id, s.stage_order, s.is_default, s.is_hidden, s.is_won, s.is_lost,
         s.is_disqualification, p.name AS pipeline_name, p.slug AS pipeline_slug, p.is_default AS pipeline_is_default,
         p.dashboard_order AS pipeline_dashboard_order
    FROM pipeline.stages s
    JOIN pipeline.pipelines p ON p.account_id = s.account_id AND p.id = s.pipeline_id`;

/** SQL read model of {@link PipelineReadModel}: views straight from the rows, every query filtered on the account. */
@Injectable()
export class TypeOrmPipelineReadModel extends PipelineReadModel {
  constructor(private readonly transactions: TransactionHost) {
    super();
  }

  private query<T>(sql: string, parameters: unknown[]): Promise<T[]> {
    return this.transactions.manager.query(sql, parameters);
  }

  async listPipelines(accountId: AccountId): Promise<PipelineView[]> {
    const rows = await this.query<PipelineRow>(
      `SELECT ${PIPELINE_COLUMNS} FROM pipeline.pipelines p WHERE p.account_id = $1 ORDER BY p.dashboard_order, p.id`,
      [accountId],
    );
    return rows.map(toPipelineView);
  }

  async findPipeline(accountId: AccountId, slug: string | null): Promise<PipelineView | null> {
    const rows =
      slug === null
        ? await this.query<PipelineRow>(`SELECT ${PIPELINE_COLUMNS} FROM pipeline.pipelines p WHERE p.account_id = $1 AND p.is_default`, [accountId])
        : await this.query<PipelineRow>(`SELECT ${PIPELINE_COLUMNS} FROM pipeline.pipelines p WHERE p.account_id = $1 AND p.slug = $2`, [accountId, slug]);
    return rows[0] ? toPipelineView(rows[0]) : null;
  }

  async findStage(accountId: AccountId, stageId: string): Promise<StageView | null> {
    const rows = await this.query<StageRow>(`${STAGE_SELECT} WHERE s.account_id = $1 AND s.id = $2`, [accountId, stageId]);
    return rows[0] ? toStageView(rows[0]) : null;
  }

  async findStageBySlug(accountId: AccountId, pipelineSlug: string | null, stageSlug: string | null): Promise<StageView | null> {
    const rows = await this.query<StageRow>(
      `${STAGE_SELECT}
        WHERE s.account_id = $1
          AND (CASE WHEN $2::text IS NULL THEN p.is_default ELSE p.slug = $2::text END)
          AND (CASE WHEN $3::text IS NULL THEN s.is_default ELSE s.slug = $3::text END)`,
      [accountId, pipelineSlug, stageSlug],
    );
    return rows[0] ? toStageView(rows[0]) : null;
  }

  async listStages(accountId: AccountId, pipelineId: string | null): Promise<StageView[]> {
    const rows = await this.query<StageRow>(
      `${STAGE_SELECT}
        WHERE s.account_id = $1 AND ($2::uuid IS NULL OR s.pipeline_id = $2::uuid)
        ORDER BY p.dashboard_order, p.id, s.stage_order, s.id`,
      [accountId, pipelineId],
    );
    return rows.map(toStageView);
  }
}

function toPipelineView(row: PipelineRow): PipelineView {
  return { id: row.id, name: row.name, slug: row.slug, isDefault: row.is_default, dashboardOrder: row.dashboard_order };
}

function toStageView(row: StageRow): StageView {
  return {
    id: row.id,
    name: row.name,
    slug: row.slug,
    pipelineId: row.pipeline_id,
    pipeline: {
      id: row.pipeline_id,
      name: row.pipeline_name,
      slug: row.pipeline_slug,
      isDefault: row.pipeline_is_default,
      dashboardOrder: row.pipeline_dashboard_order,
    },
    stageOrder: row.stage_order,
    isDefault: row.is_default,
    isHidden: row.is_hidden,
    isWon: row.is_won,
    isLost: row.is_lost,
    isDisqualification: row.is_disqualification,
  };
}
