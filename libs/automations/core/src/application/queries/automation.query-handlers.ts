import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { isUuid, Page } from '@leadflow/shared-kernel';
import { AutomationNotFoundError } from '../../domain/automations.errors';
import { AutomationsReadModel, AutomationStore } from '../ports/automation-store.port';
import { GetAutomationHistoryQuery, ListAutomationsQuery } from '../commands/automation.commands';
import type { AutomationView, ExecutionView } from '../views';

/** `GET /v1/automations`: archived excluded; `isActive` null lists both. */
@QueryHandler(ListAutomationsQuery)
export class ListAutomationsHandler implements IQueryHandler<ListAutomationsQuery> {
  constructor(private readonly reads: AutomationsReadModel) {}

  execute({ accountId, isActive, page }: ListAutomationsQuery): Promise<Page<AutomationView>> {
    return this.reads.list(accountId, { isActive }, page);
  }
}

/** `GET /v1/automations/{id}/history`: 404 `not_found` for a missing, archived, other account's or non-UUID id. */
@QueryHandler(GetAutomationHistoryQuery)
export class GetAutomationHistoryHandler implements IQueryHandler<GetAutomationHistoryQuery> {
  constructor(
    private readonly store: AutomationStore,
    private readonly reads: AutomationsReadModel,
  ) {}

  async execute({ accountId, automationId, page }: GetAutomationHistoryQuery): Promise<Page<ExecutionView>> {
    if (!isUuid(automationId) || !(await this.store.findAutomation(accountId, automationId.toLowerCase()))) throw new AutomationNotFoundError();
    return this.reads.history(accountId, automationId.toLowerCase(), page);
  }
}
