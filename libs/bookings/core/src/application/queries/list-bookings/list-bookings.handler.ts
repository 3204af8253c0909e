import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import type { Page } from '@leadflow/shared-kernel';
import type { BookingView } from '@leadflow/bookings-contracts';
import { ListBookingsQuery } from './list-bookings.query';
import { BookingsReadModel } from '../../ports/bookings.repository.port';

/** `GET /v1/bookings`: every calendar and host of the account, archived bookings excluded, `start_datetime DESC, id DESC`. */
@QueryHandler(ListBookingsQuery)
export class ListBookingsHandler implements IQueryHandler<ListBookingsQuery> {
  constructor(private readonly readModel: BookingsReadModel) {}

  execute({ accountId, filter, page }: ListBookingsQuery): Promise<Page<BookingView>> {
    return this.readModel.list(accountId, filter, page);
  }
}
