import { Injectable } from '@nestjs/common';
import { AccountId, Page } from '@leadflow/shared-kernel';
import { toPage, TransactionHost } from '@leadflow/shared-platform';
import { AutomationsReadModel, AutomationView, ExecutionView, PageWindow, StoredStep, StoredTrigger } from '@leadflow/automations-core';

interface AutomationRow {
  id: string;
  name: string;
  is_active: boolean;
  is_published: boolean;
  allow_concurrent_runs: boolean;
  trigger: StoredTrigger | null;
  steps_count: number;
  archived_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

interface ExecutionRow {
  id: string;
  automation_id: string;
  contact_id: string;
  status: ExecutionView['status'];
  trigger_type: ExecutionView['trigger_type'];
  retry_count: number;
  step_index: number;
  steps: StoredStep[];
  resume_at: Date | null;
  error: Record<string, unknown> | null;
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
}

const iso = (value: Date | null) => (value ? value.toISOString() : null);

const toExecution = (row: ExecutionRow): ExecutionView => ({
  id: row.id,
  automation_id: row.automation_id,
  contact_id: row.contact_id,
  status: row.status,
  trigger_type: row.trigger_type,
  retry_count: row.retry_count,
  steps_completed: row.step_index,
  steps_total: row.steps.length,
  resume_at: iso(row.resume_at),
  error: row.error,
  created_at: row.created_at.toISOString(),
  started_at: iso(row.started_at),
  finished_at: iso(row.finished_at),
});

/** Keyset condition `(created_at, id) < (after)` (or the legacy timestamp-only cursor) from parameter `$n`. */
function keyset(page: PageWindow, parameters: unknown[]): string {
  if (!page.after) return '';
  parameters.push(page.after.createdAt);
  if (page.after.id) {
    parameters.push(page.after.id);
    return ` AND (created_at, id) < ($${parameters.length - 1}, $${parameters.length})`;
  }
  return ` AND created_at < $${parameters.length}`;
}

/** The keyset position of a raw row (`created_at`, `id`): the cursor of the platform's `toPage`. */
const positionOf = (row: { id: string; created_at: Date }) => ({ createdAt: row.created_at, id: row.id });

/** Reads of `GET /v1/automations` and `GET /v1/automations/{id}/history` (indexed keyset pages, exact totals). */
@Injectable()
export class TypeOrmAutomationsReadModel extends AutomationsReadModel {
  constructor(private readonly transactions: TransactionHost) {
    super();
  }

  async list(accountId: AccountId, filter: { isActive: boolean | null }, page: PageWindow): Promise<Page<AutomationView>> {
    const base = [accountId, filter.isActive];
    const where = `account_id = $1 AND archived_at IS NULL AND ($2::boolean IS NULL OR is_active = $2)`;
    const parameters: unknown[] = [...base];
    const after = keyset(page, parameters);
    parameters.push(page.limit + 1);
    const [rows, [{ total }]] = await Promise.all([
      this.transactions.manager.query(
        `SELECT id, name, is_active, is_published, allow_concurrent_runs, trigger, jsonb_array_length(steps) AS steps_count, archived_at, created_at, updated_at
           FROM automations.automations WHERE ${where}${after} ORDER BY created_at DESC, id DESC LIMIT $${parameters.length}`,
        parameters,
      ) as Promise<AutomationRow[]>,
      this.transactions.manager.query(`SELECT count(*)::int AS total FROM automations.automations WHERE ${where}`, base) as Promise<{ total: number }[]>,
    ]);
    return toPage(rows, page, total, (row) => ({
      id: row.id,
      name: row.name,
      is_active: row.is_active,
      is_published: row.is_published,
      allow_concurrent_runs: row.allow_concurrent_runs,
      trigger: row.trigger,
      steps_count: Number(row.steps_count),
      archived_at: iso(row.archived_at),
      created_at: row.created_at.toISOString(),
      updated_at: row.updated_at.toISOString(),
    }), positionOf);
  }

  async history(accountId: AccountId, automationId: string, page: PageWindow): Promise<Page<ExecutionView>> {
    const base = [accountId, automationId];
    const where = `account_id = $1 AND automation_id = $2`;
    const parameters: unknown[] = [...base];
    const after = keyset(page, parameters);
    parameters.push(page.limit + 1);
    const [rows, [{ total }]] = await Promise.all([
      this.transactions.manager.query(
        `SELECT * FROM automations.executions WHERE ${where}${after} ORDER BY created_at DESC, id DESC LIMIT $${parameters.length}`,
        parameters,
      ) as Promise<ExecutionRow[]>,
      this.transactions.manager.query(`SELECT count(*)::int AS total FROM automations.executions WHERE ${where}`, base) as Promise<{ total: number }[]>,
    ]);
    return toPage(rows, page, total, toExecution, positionOf);
  }

  async execution(accountId: AccountId, executionId: string): Promise<ExecutionView | null> {
    const [row] = (await this.transactions.manager.query(`SELECT * FROM automations.executions WHERE account_id = $1 AND id = $2`, [accountId, executionId])) as ExecutionRow[];
    return row ? toExecution(row) : null;
  }
}
