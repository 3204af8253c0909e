import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { Clock, UnitOfWork } from '@leadflow/shared-kernel';
import { ContactRegistrationsReassignment, ReassignContactRegistrationsCommand } from '@leadflow/events-contracts';
import { ContactRegistrationsReassignmentPort } from '../../ports/contact-registrations-reassignment.port';

/**
 * `ReassignContactRegistrationsCommand` (published; the contacts merge, issue 15 item 6): with `dryRun`
 * what would move and what would stay (an edition both contacts are registered in keeps the target's
 * registration), else the move itself in the caller's transaction. Idempotent.
 */
@CommandHandler(ReassignContactRegistrationsCommand)
export class ReassignContactRegistrationsHandler implements ICommandHandler<ReassignContactRegistrationsCommand> {
  constructor(
    private readonly registrations: ContactRegistrationsReassignmentPort,
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  execute({ accountId, fromContactId, toContactId, dryRun }: ReassignContactRegistrationsCommand): Promise<ContactRegistrationsReassignment> {
    if (dryRun) return this.registrations.plan(accountId, fromContactId, toContactId);
    return this.unitOfWork.run(() => this.registrations.reassign(accountId, fromContactId, toContactId, this.clock.now()));
  }
}
