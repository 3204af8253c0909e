import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { Clock, UnitOfWork } from '@leadflow/shared-kernel';
import { ReassignContactBookingsCommand } from '@leadflow/bookings-contracts';
import { ContactBookingsReassignment } from '../../ports/contact-bookings-reassignment.port';

/**
 * `ReassignContactBookingsCommand` (published; the contacts merge, issue 15 item 6): with `dryRun` the ids that would
 * move, else the move itself in the caller's transaction (joined through the unit of work). Idempotent.
 */
@CommandHandler(ReassignContactBookingsCommand)
export class ReassignContactBookingsHandler implements ICommandHandler<ReassignContactBookingsCommand> {
  constructor(
    private readonly bookings: ContactBookingsReassignment,
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  execute({ accountId, fromContactId, toContactId, dryRun }: ReassignContactBookingsCommand): Promise<string[]> {
    if (dryRun) return this.bookings.idsOf(accountId, fromContactId);
    return this.unitOfWork.run(() => this.bookings.reassign(accountId, fromContactId, toContactId, this.clock.now()));
  }
}
