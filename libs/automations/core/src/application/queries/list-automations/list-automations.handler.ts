import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { Page } from '@leadflow/shared-kernel';
import { AutomationsReadModel } from '../../ports/automation-store.port';
import { ListAutomationsQuery } from './list-automations.query';
import type { AutomationView } from '../../views';

/** `GET /v1/automations`: archived excluded; `isActive` null lists both. */
@QueryHandler(ListAutomationsQuery)
export class ListAutomationsHandler implements IQueryHandler<ListAutomationsQuery> {
  constructor(private readonly reads: AutomationsReadModel) {}

  execute({ accountId, isActive, page }: ListAutomationsQuery): Promise<Page<AutomationView>> {
    return this.reads.list(accountId, { isActive }, page);
  }
}
