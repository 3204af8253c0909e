import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { Clock, Journal, ResourceNotFoundError, UnitOfWork } from '@leadflow/shared-kernel';
import type { EventRegistrationView } from '@leadflow/events-contracts';
import { EventsRepository } from '../../ports/events.ports';
import { toRegistrationView } from '../../views';
import { UpdateRegistrationCommand } from './update-registration.command';

/**
 * Operator action on a registration: `status` `declined` (the person will not attend) or `registered`,
 * `opted_out` true (no more messages about it) or false. Idempotent; an `event_registration_updated`
 * activity entry when something changed. 404 `not_found` for a missing or another account's registration.
 */
@CommandHandler(UpdateRegistrationCommand)
export class UpdateRegistrationHandler implements ICommandHandler<UpdateRegistrationCommand> {
  constructor(
    private readonly events: EventsRepository,
    private readonly unitOfWork: UnitOfWork,
    private readonly journal: Journal,
    private readonly clock: Clock,
  ) {}

  execute({ accountId, registrationId, changes, actor }: UpdateRegistrationCommand): Promise<EventRegistrationView> {
    return this.unitOfWork.run(async () => {
      const current = await this.events.findRegistrationById(accountId, registrationId, { lock: true });
      if (!current) throw new ResourceNotFoundError('not_found', 'No such event registration.', { resource: 'event_registration' });
      const now = this.clock.now();
      const next = { ...current };
      if (changes.status !== undefined) next.status = changes.status;
      if (changes.optedOut !== undefined) next.optedOutAt = changes.optedOut ? (current.optedOutAt ?? now) : null;
      if (next.status === current.status && next.optedOutAt === current.optedOutAt) return toRegistrationView(current);
      next.updatedAt = now;
      await this.events.updateRegistration(next);
      await this.journal.record(accountId, [
        {
          contactId: current.contactId,
          type: 'event_registration_updated',
          actor,
          data: { registration_id: current.id, status: next.status, opted_out: next.optedOutAt !== null },
        },
      ]);
      return toRegistrationView(next);
    });
  }
}
