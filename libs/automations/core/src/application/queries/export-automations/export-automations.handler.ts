import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { ExportAutomationsQuery, ExportedAutomation } from '@leadflow/automations-contracts';
import { AutomationsSandboxData } from '../../ports/automations-sandbox-data.port';

/**
 * {@link ExportAutomationsQuery} (test mode, issue 15 item 4): the account's automations that are not
 * archived (creation order) in blueprint form, stage references kept as the account's ids (`stageId`,
 * trigger `pipelineId`) for the caller to map. Never executions.
 */
@QueryHandler(ExportAutomationsQuery)
export class ExportAutomationsHandler implements IQueryHandler<ExportAutomationsQuery> {
  constructor(private readonly sandbox: AutomationsSandboxData) {}

  execute({ accountId }: ExportAutomationsQuery): Promise<ExportedAutomation[]> {
    return this.sandbox.exportConfiguration(accountId);
  }
}
