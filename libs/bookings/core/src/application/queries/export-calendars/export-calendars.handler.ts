import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { ExportCalendarsQuery, ExportedCalendar } from '@leadflow/bookings-contracts';
import { BookingsSandboxData } from '../../ports/bookings-sandbox-data.port';

/**
 * {@link ExportCalendarsQuery} (test mode, issue 15 item 4): the account's calendars (creation order) in
 * blueprint form, hosts as team member ids in `hostIds` for the caller to map to emails. Never bookings.
 */
@QueryHandler(ExportCalendarsQuery)
export class ExportCalendarsHandler implements IQueryHandler<ExportCalendarsQuery> {
  constructor(private readonly sandbox: BookingsSandboxData) {}

  execute({ accountId }: ExportCalendarsQuery): Promise<ExportedCalendar[]> {
    return this.sandbox.exportConfiguration(accountId);
  }
}
