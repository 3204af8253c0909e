import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { Page, isUuid } from '@leadflow/shared-kernel';
import { AutomationNotFoundError } from '../../../domain/automations.errors';
import { AutomationStore, AutomationsReadModel } from '../../ports/automation-store.port';
import { GetAutomationHistoryQuery } from './get-automation-history.query';
import type { ExecutionView } from '../../views';

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
