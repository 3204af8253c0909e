import { Command, Query } from '@nestjs/cqrs';
import type { AccountId } from '@leadflow/shared-kernel';
import type { AutomationSpec, AutomationStepSpec, AutomationTriggerSpec } from './automation-blueprint';

/**
 * An automation as configured, in blueprint form with the account's own ids: stage references are
 * `stageId`, and a `stage_changed` trigger on a whole pipeline has `pipelineId`. The caller maps them.
 */
export interface ExportedAutomation extends AutomationSpec {
  trigger: (AutomationTriggerSpec & { pipelineId?: string | null }) | null;
  steps: AutomationStepSpec[];
}

/** Test mode (issue 15, item 4): the account's automations that are not archived, oldest first. Never executions. */
export class ExportAutomationsQuery extends Query<ExportedAutomation[]> {
  constructor(readonly accountId: AccountId) {
    super();
  }
}

/** Test mode: deletes the (sandbox) account's executions and their steps in the caller's transaction; keeps automations. */
export class ResetAutomationsDataCommand extends Command<Record<string, number>> {
  constructor(readonly accountId: AccountId) {
    super();
  }
}
