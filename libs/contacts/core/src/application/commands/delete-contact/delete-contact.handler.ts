import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { Clock, Journal, UnitOfWork } from '@leadflow/shared-kernel';
import { CONTACT_EVENTS } from '@leadflow/contacts-contracts';
import { ContactNotFoundError } from '../../../domain/contacts.errors';
import { ContactsRepository } from '../../ports/contacts.repository.port';
import { integrationEvent } from '../../views';
import { DeleteContactCommand, DeletedContact } from './delete-contact.command';

/**
 * `DELETE /v1/contacts/{id}`: permanently deletes the contact, the contacts merged into it, and their
 * identities, tag links and notes; a `contact_deleted` outbox event lets the other contexts remove
 * their rows. Activity-log entries stay (detached history). 404 `not_found` (missing, merged, other account).
 */
@CommandHandler(DeleteContactCommand)
export class DeleteContactHandler implements ICommandHandler<DeleteContactCommand> {
  constructor(
    private readonly contacts: ContactsRepository,
    private readonly unitOfWork: UnitOfWork,
    private readonly journal: Journal,
    private readonly clock: Clock,
  ) {}

  async execute({ accountId, contactId, actor }: DeleteContactCommand): Promise<DeletedContact> {
    return this.unitOfWork.run(async () => {
      const state = await this.contacts.findContact(accountId, contactId, { lock: true });
      if (!state || state.mergedIntoId) throw new ContactNotFoundError();
      const absorbed = await this.contacts.absorbedInto(accountId, state.id);
      const ids = [state.id, ...absorbed];
      await this.contacts.deleteContacts(accountId, ids);
      await this.journal.record(
        accountId,
        [{ contactId: state.id, type: 'contact_deleted', actor, data: { absorbed_contact_ids: absorbed } }],
        [integrationEvent(CONTACT_EVENTS.deleted, accountId, actor, this.clock.now(), { contact_ids: ids })],
      );
      return { id: state.id, deleted: true, cleanup: { attempted: 0, failed: 0 } };
    });
  }
}
