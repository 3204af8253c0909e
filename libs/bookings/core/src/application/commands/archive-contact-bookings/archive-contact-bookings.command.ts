import { Command } from '@nestjs/cqrs';
import type { AccountId } from '@leadflow/shared-kernel';

/** Archives the bookings of deleted contacts (consumer of `contact_deleted`). */
export class ArchiveContactBookingsCommand extends Command<number> {
  constructor(
    readonly accountId: AccountId,
    readonly contactIds: readonly string[],
  ) {
    super();
  }
}
