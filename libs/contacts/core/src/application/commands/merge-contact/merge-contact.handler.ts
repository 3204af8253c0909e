import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ValidationFailedError } from '@leadflow/shared-kernel';
import { CONTACT_EVENTS, ContactLifecycleView, MergeContactCommand } from '@leadflow/contacts-contracts';
import { Contact } from '../../../domain/contact.aggregate';
import { ContactNotFoundError } from '../../../domain/contacts.errors';
import { LifecycleHandler } from '../../contact-lifecycle/lifecycle-handler';
import { integrationEvent, toLifecycleView } from '../../views';

/**
 * Operator merge: the contact is absorbed by `intoContactId` (both unmerged contacts of the account,
 * else 404 `not_found`, `details.field` `into_contact_id` for the survivor; the same id gives 400
 * `validation_error`). Returns the absorbed contact with `merged_into_contact_id`.
 */
@CommandHandler(MergeContactCommand)
export class MergeContactHandler extends LifecycleHandler implements ICommandHandler<MergeContactCommand> {
  execute({ accountId, contactId, intoContactId, actor }: MergeContactCommand): Promise<ContactLifecycleView> {
    return this.unitOfWork.run(async () => {
      const state = await this.contacts.findContact(accountId, contactId, { lock: true });
      if (!state || state.mergedIntoId) throw new ContactNotFoundError();
      if (state.id === intoContactId.toLowerCase()) {
        throw new ValidationFailedError([{ field: 'into_contact_id', reason: 'invalid_value', message: 'A contact cannot be merged into itself.' }]);
      }
      const survivor = await this.contacts.findContact(accountId, intoContactId, { lock: true });
      if (!survivor || survivor.mergedIntoId) throw new ContactNotFoundError('into_contact_id');
      const contact = Contact.restore(state);
      const now = this.clock.now();
      contact.mergeInto(survivor.id, now);
      await this.contacts.updateContact(contact.snapshot);
      await this.journal.record(
        accountId,
        [
          { contactId: contact.id, type: 'contact_merged', actor, data: { into_contact_id: survivor.id } },
          { contactId: survivor.id, type: 'contact_absorbed', actor, data: { merged_contact_id: contact.id } },
        ],
        [integrationEvent(CONTACT_EVENTS.merged, accountId, actor, now, { contact_id: contact.id, into_contact_id: survivor.id })],
      );
      return toLifecycleView(contact.snapshot);
    });
  }
}
