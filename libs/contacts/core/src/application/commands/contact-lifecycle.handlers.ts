import { Injectable } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { AccountId, Actor, Clock, Journal, UnitOfWork, ValidationFailedError } from '@leadflow/shared-kernel';
import {
  ArchiveContactCommand,
  CONTACT_EVENTS,
  ContactLifecycleView,
  DisqualifyContactCommand,
  MergeContactCommand,
  UnarchiveContactCommand,
  UnmergeContactCommand,
} from '@leadflow/contacts-contracts';
import { Contact } from '../../domain/contact.aggregate';
import { ContactNotFoundError } from '../../domain/contacts.errors';
import { ContactsRepository } from '../ports/contacts.repository.port';
import { integrationEvent, toLifecycleView } from '../views';

type Transition = 'archive' | 'unarchive' | 'disqualify';

const ACTIVITY: Record<Transition, { type: string; event: string }> = {
  archive: { type: 'contact_archived', event: CONTACT_EVENTS.archived },
  unarchive: { type: 'contact_unarchived', event: CONTACT_EVENTS.unarchived },
  disqualify: { type: 'contact_disqualified', event: CONTACT_EVENTS.disqualified },
};

/** Shared body of the operator transitions: lock the unmerged contact (404 `not_found`), apply, record when changed. */
@Injectable()
abstract class LifecycleHandler {
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

/** Operator archive: idempotent; archived contacts leave stage counts and keep their deal value. */
@CommandHandler(ArchiveContactCommand)
export class ArchiveContactHandler extends LifecycleHandler implements ICommandHandler<ArchiveContactCommand> {
  execute({ accountId, contactId, actor }: ArchiveContactCommand): Promise<ContactLifecycleView> {
    return this.transition(accountId, contactId, actor, 'archive');
  }
}

/** Operator unarchive: idempotent. */
@CommandHandler(UnarchiveContactCommand)
export class UnarchiveContactHandler extends LifecycleHandler implements ICommandHandler<UnarchiveContactCommand> {
  execute({ accountId, contactId, actor }: UnarchiveContactCommand): Promise<ContactLifecycleView> {
    return this.transition(accountId, contactId, actor, 'unarchive');
  }
}

/** Operator disqualify: idempotent; `disqualified_at` is read by the pipeline rules (409 `lead_disqualified`). */
@CommandHandler(DisqualifyContactCommand)
export class DisqualifyContactHandler extends LifecycleHandler implements ICommandHandler<DisqualifyContactCommand> {
  execute({ accountId, contactId, actor }: DisqualifyContactCommand): Promise<ContactLifecycleView> {
    return this.transition(accountId, contactId, actor, 'disqualify');
  }
}

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
