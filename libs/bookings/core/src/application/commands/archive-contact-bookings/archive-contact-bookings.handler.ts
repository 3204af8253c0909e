import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { Clock, UnitOfWork } from '@leadflow/shared-kernel';
import { BookingRepository } from '../../ports/bookings.repository.port';
import { ExternalCalendarPort } from '../../ports/external-calendar.port';
import { ArchiveContactBookingsCommand } from './archive-contact-bookings.command';

/**
 * A deleted contact's bookings are archived (`archived_at` set): `GET /v1/bookings` leaves them out and
 * their ids answer 404; the hosts' calendar events of the confirmed ones are removed. Idempotent (the
 * worker may replay the `contact_deleted` event). Returns how many bookings were archived.
 */
@CommandHandler(ArchiveContactBookingsCommand)
export class ArchiveContactBookingsHandler implements ICommandHandler<ArchiveContactBookingsCommand> {
  constructor(
    private readonly bookings: BookingRepository,
    private readonly externalCalendar: ExternalCalendarPort,
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  execute({ accountId, contactIds }: ArchiveContactBookingsCommand): Promise<number> {
    if (contactIds.length === 0) return Promise.resolve(0);
    return this.unitOfWork.run(async () => {
      const archived = await this.bookings.archiveForContacts(accountId, contactIds, this.clock.now());
      for (const booking of archived) if (booking.status === 'confirmed') await this.externalCalendar.removeEvent(accountId, booking.id);
      return archived.length;
    });
  }
}
