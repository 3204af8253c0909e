import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CONTACT_EVENTS, ContactLifecycleView, UnmergeContactCommand } from '@leadflow/contacts-contracts';
import { Contact } from '../../../domain/contact.aggregate';
import { ContactNotFoundError } from '../../../domain/contacts.errors';
import { LifecycleHandler } from '../../contact-lifecycle/lifecycle-handler';
import { integrationEvent, toLifecycleView } from '../../views';

/** Operator unmerge: the absorbed id works again (lists, reads, writes). A contact that is not merged is returned unchanged. 404 `not_found`. */
@CommandHandler(UnmergeContactCommand)
export class UnmergeContactHandler extends LifecycleHandler implements ICommandHandler<UnmergeContactCommand> {
  execute({ accountId, contactId, actor }: UnmergeContactCommand): Promise<ContactLifecycleView> {
    return this.unitOfWork.run(async () => {
      const state = await this.contacts.findContact(accountId, contactId, { lock: true });
      if (!state) throw new ContactNotFoundError();
      const contact = Contact.restore(state);
      const now = this.clock.now();
      const survivorId = state.mergedIntoId;
      if (contact.unmerge(now)) {
        await this.contacts.updateContact(contact.snapshot);
        await this.journal.record(
          accountId,
          [{ contactId: contact.id, type: 'contact_unmerged', actor, data: { from_contact_id: survivorId } }],
          [integrationEvent(CONTACT_EVENTS.unmerged, accountId, actor, now, { contact_id: contact.id, into_contact_id: survivorId })],
        );
      }
      return toLifecycleView(contact.snapshot);
    });
  }
}
