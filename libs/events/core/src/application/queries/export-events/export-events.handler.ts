import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { EventSpec, ExportEventsQuery } from '@leadflow/events-contracts';
import { EventsSandboxData } from '../../ports/events-sandbox-data.port';

/**
 * {@link ExportEventsQuery} (test mode, issue 15 item 4): the account's events (creation order) with their
 * editions (position order) in blueprint form. Never registrations.
 */
@QueryHandler(ExportEventsQuery)
export class ExportEventsHandler implements IQueryHandler<ExportEventsQuery> {
  constructor(private readonly sandbox: EventsSandboxData) {}

  execute({ accountId }: ExportEventsQuery): Promise<EventSpec[]> {
    return this.sandbox.exportConfiguration(accountId);
  }
}
