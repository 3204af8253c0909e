import { Injectable } from '@nestjs/common';
import { AccountId, Actor, Clock, Journal, UnitOfWork } from '@leadflow/shared-kernel';
import { CONTACT_EVENTS, ContactLifecycleView } from '@leadflow/contacts-contracts';
import { Contact } from '../../domain/contact.aggregate';
import { ContactNotFoundError } from '../../domain/contacts.errors';
import { ContactsRepository } from '../ports/contacts.repository.port';
import { integrationEvent, toLifecycleView } from '../views';

/** An operator transition of the contact's lifecycle, with its activity type and outbox event (ACTIVITY). */
export type Transition = 'archive' | 'unarchive' | 'disqualify';

const ACTIVITY: Record<Transition, { type: string; event: string }> = {
  archive: { type: 'contact_archived', event: CONTACT_EVENTS.archived },
  unarchive: { type: 'contact_unarchived', event: CONTACT_EVENTS.unarchived },
  disqualify: { type: 'contact_disqualified', event: CONTACT_EVENTS.disqualified },
};

/** Shared body of the operator transitions: lock the unmerged contact (404 `not_found`), apply, record when changed. */
@Injectable()
export abstract class LifecycleHandler {
  constructor(
    protected readonly contacts: ContactsRepository,
    protected readonly unitOfWork: UnitOfWork,
    protected readonly journal: Journal,
    protected readonly clock: Clock,
  ) {}

  protected transition(accountId: AccountId, contactId: string, actor: Actor, transition: Transition): Promise<ContactLifecycleView> {
    return this.unitOfWork.run(async () => {
      const state = await this.contacts.findContact(accountId, contactId, { lock: true });
      if (!state || state.mergedIntoId) throw new ContactNotFoundError();
      const contact = Contact.restore(state);
      const now = this.clock.now();
      if (contact[transition](now)) {
        await this.contacts.updateContact(contact.snapshot);
        const { type, event } = ACTIVITY[transition];
        await this.journal.record(accountId, [{ contactId: contact.id, type, actor }], [integrationEvent(event, accountId, actor, now, { contact_id: contact.id })]);
      }
      return toLifecycleView(contact.snapshot);
    });
  }
}
