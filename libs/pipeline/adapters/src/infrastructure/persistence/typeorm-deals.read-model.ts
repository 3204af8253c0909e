import { Injectable } from '@nestjs/common';
import { AccountId, centsToDollars, encodeCursor, isUuid, Page } from '@leadflow/shared-kernel';
import { TransactionHost } from '@leadflow/shared-platform';
import { DealListFilter, DealsReadModel } from '@leadflow/pipeline-core';
import type { DealView, PipelineStageView } from '@leadflow/pipeline-contracts';

/*
 * CROSS-CONTEXT READ (ARCHITECTURE › Data): a deal is a row of the contacts context's
 * `contacts.contacts` whose `stage_id` is set, and a stage's `contact_count` must be real time. So
 * this read model joins `contacts.contacts` READ-ONLY, through the columns the contacts context
 * documents for it (`account_id`, `pipeline_id`, `stage_id`, `archived_at`, `merged_into_id`, the
 * reduced contact details of the deal view, its lead `score`). It never writes there: every change
 * of a contact's stage goes through the contacts context's MoveContactToStageCommand /
 * RemoveContactFromPipelineCommand.
 * Indexes: `contacts_deals_idx` and `contacts_deals_stage_idx` (contacts migration 1795324390769).
 */

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
  pipeline_name: string;
  pipeline_slug: string;
  pipeline_is_default: boolean;
  contact_count: number;
}

interface DealRow {
  id: string;
  first_name: string | null;
  last_name: string | null;
  email: string | null;
  phone: string | null;
  company: string | null;
  pipeline_id: string | null;
  stage_id: string;
  /** bigint, read as a string. */
  deal_value_cents: string | null;
  /** smallint 0–100. */
  score: number;
  created_at: Date;
  updated_at: Date;
}

/** Deals of the account: contacts with a stage, merged ones left out (their id answers 404). */
const DEALS_WHERE = `c.account_id = $1 AND c.stage_id IS NOT NULL AND c.merged_into_id IS NULL`;

/** SQL read model of {@link DealsReadModel}; every query filters on the account. */
@Injectable()
export class TypeOrmDealsReadModel extends DealsReadModel {
  constructor(private readonly transactions: TransactionHost) {
    super();
  }

  private query<T>(sql: string, parameters: unknown[]): Promise<T[]> {
    return this.transactions.manager.query(sql, parameters);
  }

  /** One statement: the stages, their pipeline, and the counts grouped by stage in one pass over the account's deals. */
  async listStages(accountId: AccountId): Promise<PipelineStageView[]> {
    const rows = await this.query<StageRow>(
      `SELECT s.id, s.name, s.slug, s.pipeline_id, s.stage_order, s.is_default, s.is_hidden, s.is_won, s.is_lost,
              p.name AS pipeline_name, p.slug AS pipeline_slug, p.is_default AS pipeline_is_default,
              COALESCE(counts.contact_count, 0)::int AS contact_count
         FROM pipeline.stages s
         JOIN pipeline.pipelines p ON p.account_id = s.account_id AND p.id = s.pipeline_id
         LEFT JOIN (
                SELECT c.stage_id, count(*)::int AS contact_count
                  FROM contacts.contacts c
                 WHERE ${DEALS_WHERE} AND c.archived_at IS NULL
                 GROUP BY c.stage_id
              ) counts ON counts.stage_id = s.id
        WHERE s.account_id = $1
        ORDER BY p.dashboard_order, p.id, s.stage_order, s.id`,
      [accountId],
    );
    return rows.map((row) => ({
      id: row.id,
      name: row.name,
      slug: row.slug,
      pipeline_id: row.pipeline_id,
      pipeline: { id: row.pipeline_id, name: row.pipeline_name, slug: row.pipeline_slug, is_default: row.pipeline_is_default === true },
      stage_order: row.stage_order,
      is_hidden: row.is_hidden === true,
      is_default: row.is_default === true,
      is_won: row.is_won === true,
      is_lost: row.is_lost === true,
      contact_count: row.contact_count,
    }));
  }

  async listDeals(accountId: AccountId, { stageId, page }: DealListFilter): Promise<Page<DealView>> {
    const parameters: unknown[] = [accountId];
    let where = DEALS_WHERE;
    if (stageId !== null) {
      parameters.push(stageId);
      where += ` AND c.stage_id = $${parameters.length}`;
    }
    const [{ total }] = await this.query<{ total: number }>(`SELECT count(*)::int AS total FROM contacts.contacts c WHERE ${where}`, parameters);
    if (page.after?.id) {
      parameters.push(page.after.createdAt, page.after.id);
      where += ` AND (c.created_at, c.id) < ($${parameters.length - 1}, $${parameters.length})`;
    } else if (page.after) {
      parameters.push(page.after.createdAt);
      where += ` AND c.created_at < $${parameters.length}`;
    }
    parameters.push(page.limit + 1);
    const rows = await this.query<DealRow>(
      `SELECT c.id, c.first_name, c.last_name, c.email, c.phone, c.company, c.pipeline_id, c.stage_id, c.deal_value_cents, c.score,
              c.created_at, c.updated_at
         FROM contacts.contacts c
        WHERE ${where}
        ORDER BY c.created_at DESC, c.id DESC
        LIMIT $${parameters.length}`,
      parameters,
    );
    const hasMore = rows.length > page.limit;
    const visible = hasMore ? rows.slice(0, page.limit) : rows;
    const last = visible[visible.length - 1];
    return {
      data: visible.map(toDealView),
      pagination: {
        next_cursor: hasMore && last ? encodeCursor({ createdAt: last.created_at, id: last.id }) : null,
        has_more: hasMore,
        limit: page.limit,
        total_count: total,
      },
    };
  }

  async isDeal(accountId: AccountId, contactId: string): Promise<boolean> {
    if (!isUuid(contactId)) return false;
    // by primary key: DEALS_WHERE's partial-index predicates would make the planner walk the account's deals index
    const rows = await this.query<{ stage_id: string | null; merged_into_id: string | null }>(
      `SELECT c.stage_id, c.merged_into_id FROM contacts.contacts c WHERE c.account_id = $1 AND c.id = $2`,
      [accountId, contactId],
    );
    return rows.length > 0 && rows[0].stage_id !== null && rows[0].merged_into_id === null;
  }
}

function toDealView(row: DealRow): DealView {
  return {
    id: row.id,
    first_name: row.first_name,
    last_name: row.last_name,
    email: row.email,
    phone: row.phone,
    company: row.company,
    pipeline_id: row.pipeline_id,
    stage_id: row.stage_id,
    deal_value: centsToDollars(row.deal_value_cents === null ? null : Number(row.deal_value_cents)),
    score: row.score,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}
