import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ResourceNotFoundError, isUuid, newId } from '@leadflow/shared-kernel';
import { HostBusyTimeView, RecordHostBusyTimeCommand } from '@leadflow/bookings-contracts';
import { BookingValidationError } from '../../../domain/bookings.errors';
import { parseStartDatetime } from '../../../domain/slots';
import { CalendarRepository } from '../../ports/bookings.repository.port';
import { ExternalCalendarPort } from '../../ports/external-calendar.port';

/** Operator: a host's blocked or busy period, through the ExternalCalendarPort. See {@link RecordHostBusyTimeCommand}. */
@CommandHandler(RecordHostBusyTimeCommand)
export class RecordHostBusyTimeHandler implements ICommandHandler<RecordHostBusyTimeCommand> {
  constructor(
    private readonly calendars: CalendarRepository,
    private readonly externalCalendar: ExternalCalendarPort,
  ) {}

  async execute({ accountId, calendarId, hostId, kind, start, end }: RecordHostBusyTimeCommand): Promise<HostBusyTimeView> {
    const calendar = isUuid(calendarId) ? await this.calendars.find(accountId, calendarId) : null;
    if (!calendar) throw new ResourceNotFoundError('resource_not_found', 'No such calendar.', { resource: 'calendar' });
    const host = calendar.hostIds.find((id) => id.toLowerCase() === hostId.toLowerCase());
    if (!host) throw new BookingValidationError('host_id', 'not_on_calendar', 'host_id is not a host of this calendar.');
    const from = parseStartDatetime(start);
    let to: Date;
    try {
      to = parseStartDatetime(end);
    } catch {
      throw new BookingValidationError('end_datetime', 'invalid_datetime', 'end_datetime must be an ISO 8601 date and time.');
    }
    if (to.getTime() <= from.getTime()) throw new BookingValidationError('end_datetime', 'invalid_value', 'end_datetime must be after start_datetime.');
    const id = newId();
    await this.externalCalendar.recordBusyTime(accountId, { id, hostId: host, cause: kind, start: from, end: to });
    return { id, host_id: host, kind, start_datetime: from.toISOString(), end_datetime: to.toISOString() };
  }
}
