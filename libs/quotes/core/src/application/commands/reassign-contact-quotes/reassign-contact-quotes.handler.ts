import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { Clock, UnitOfWork } from '@leadflow/shared-kernel';
import { ReassignContactQuotesCommand } from '@leadflow/quotes-contracts';
import { ContactQuotesReassignment } from '../../ports/contact-quotes-reassignment.port';

/**
 * `ReassignContactQuotesCommand` (published; the contacts merge, issue 15 item 6): with `dryRun` the ids that would
 * move, else the move itself in the caller's transaction (joined through the unit of work). Idempotent.
 */
@CommandHandler(ReassignContactQuotesCommand)
export class ReassignContactQuotesHandler implements ICommandHandler<ReassignContactQuotesCommand> {
  constructor(
    private readonly quotes: ContactQuotesReassignment,
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  execute({ accountId, fromContactId, toContactId, dryRun }: ReassignContactQuotesCommand): Promise<string[]> {
    if (dryRun) return this.quotes.idsOf(accountId, fromContactId);
    return this.unitOfWork.run(() => this.quotes.reassign(accountId, fromContactId, toContactId, this.clock.now()));
  }
}
