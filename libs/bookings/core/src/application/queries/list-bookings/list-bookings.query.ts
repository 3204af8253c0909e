import { Query } from '@nestjs/cqrs';
import type { AccountId, KeysetPosition, Page } from '@leadflow/shared-kernel';
import type { BookingView } from '@leadflow/bookings-contracts';
import type { BookingListFilter } from '../../ports/bookings.repository.port';

/** `GET /v1/bookings`. */
export class ListBookingsQuery extends Query<Page<BookingView>> {
  constructor(
    readonly accountId: AccountId,
    readonly filter: BookingListFilter,
    readonly page: { limit: number; after: KeysetPosition | null },
  ) {
    super();
  }
}
