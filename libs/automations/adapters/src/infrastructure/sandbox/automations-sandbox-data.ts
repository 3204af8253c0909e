import { Injectable } from '@nestjs/common';
import { AutomationStepSpec, AutomationTriggerType, ExportedAutomation } from '@leadflow/automations-contracts';
import { AutomationsSandboxData } from '@leadflow/automations-core';
import { AccountId } from '@leadflow/shared-kernel';
import { deleteAccountRows, TransactionHost } from '@leadflow/shared-platform';

interface AutomationRow {
  name: string;
  is_active: boolean;
  is_published: boolean;
  allow_concurrent_runs: boolean;
  trigger: { type: AutomationTriggerType; event?: string; stage_id?: string | null; pipeline_id?: string | null } | null;
  steps: Array<Record<string, unknown> & { type: AutomationStepSpec['type'] }>;
}

/** Children first; automations stay. */
const AUTOMATIONS_DATA_TABLES = ['automations.execution_steps', 'automations.executions'] as const;

/**
 * {@link AutomationsSandboxData} on PostgreSQL (test mode, issue 15 item 4): reads and deletes only in the
 * `automations` schema, inside the caller's transaction.
 */
@Injectable()
export class PostgresAutomationsSandboxData extends AutomationsSandboxData {
  constructor(private readonly transactions: TransactionHost) {
    super();
  }

  async exportConfiguration(accountId: AccountId): Promise<ExportedAutomation[]> {
    const rows: AutomationRow[] = await this.transactions.manager.query(
      `SELECT name, is_active, is_published, allow_concurrent_runs, trigger, steps
         FROM automations.automations WHERE account_id = $1 AND archived_at IS NULL ORDER BY created_at, id`,
      [accountId],
    );
    return rows.map((row) => ({
      name: row.name,
      isActive: row.is_active,
      isPublished: row.is_published,
      allowConcurrentRuns: row.allow_concurrent_runs,
      trigger: row.trigger
        ? { type: row.trigger.type, event: row.trigger.event ?? null, stageId: row.trigger.stage_id ?? null, pipelineId: row.trigger.pipeline_id ?? null }
        : null,
      steps: (row.steps ?? []).map(toStepSpec),
    }));
  }

  deleteAccountData(accountId: AccountId): Promise<Record<string, number>> {
    return deleteAccountRows(this.transactions.manager, accountId, AUTOMATIONS_DATA_TABLES);
  }
}

function toStepSpec(step: AutomationRow['steps'][number]): AutomationStepSpec {
  switch (step.type) {
    case 'add_tag':
    case 'remove_tag':
      return { type: step.type, tag: step.tag as string };
    case 'send_email':
      return { type: step.type, subject: step.subject as string, body: step.body as string };
    case 'move_to_stage':
      return { type: step.type, stageId: step.stage_id as string };
    case 'wait':
      return { type: step.type, seconds: step.seconds as number };
    default:
      return { type: step.type, event: step.event as string };
  }
}
