import { Command } from '@nestjs/cqrs';
import type { AccountId } from '@leadflow/shared-kernel';

/**
 * Published command of the contacts merge (issue 15, item 6; `POST /v1/contacts/{id}/merge`): the
 * bookings of `fromContactId` (every status; archived ones apart) now belong to `toContactId`. Runs in the
 * caller's transaction (the merge's), so the move commits or rolls back with the merge. With `dryRun`
 * nothing is written. Returns the ids of the bookings moved (or that would move), oldest start first.
 * Idempotent: a second run finds nothing left to move.
 */
export class ReassignContactBookingsCommand extends Command<string[]> {
  constructor(
    readonly accountId: AccountId,
    readonly fromContactId: string,
    readonly toContactId: string,
    readonly dryRun: boolean,
  ) {
    super();
  }
}
