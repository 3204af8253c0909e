import { CommandHandler, ICommandHandler, QueryBus } from '@nestjs/cqrs';
import { AccountId, Clock, Journal, newId, normalizeEmail, normalizePhone, UnitOfWork, ValidationFailedError } from '@leadflow/shared-kernel';
import { ListSystemsQuery } from '@leadflow/accounts-contracts';
import { CONTACT_EVENTS, FindOrCreateContactCommand, FoundOrCreatedContact } from '@leadflow/contacts-contracts';
import { Contact, ContactState } from '../../../domain/contact.aggregate';
import type { Identity } from '../../../domain/contact-identity';
import { normalizeText } from '../../../domain/contact-identity';
import { SystemNotFoundError } from '../../../domain/contacts.errors';
import { ContactsRepository } from '../../ports/contacts.repository.port';
import { ContactIdentityRepository } from '../../ports/contact-identity.repository.port';
import { EmailUnsubscribes } from '../../ports/email-unsubscribes.port';
import { integrationEvent, toContactView } from '../../views';

/** Longest merge chain followed from a linked contact to its survivor. */
const MAX_MERGE_HOPS = 50;

/** The unmerged contact `contactId` counts for (itself, or the end of its merge chain); null when missing. */
async function survivorOf(contacts: ContactsRepository, accountId: AccountId, contactId: string): Promise<ContactState | null> {
  let current = await contacts.findContact(accountId, contactId);
  for (let hops = 0; current?.mergedIntoId && hops < MAX_MERGE_HOPS; hops += 1) {
    current = await contacts.findContact(accountId, current.mergedIntoId);
  }
  return current && !current.mergedIntoId ? current : null;
}

/**
 * Published command (quote sending): the linked contact, else the one holding the email, else the
 * one holding the phone, else a new contact with a `contact_created` activity and outbox event. See
 * {@link FindOrCreateContactCommand}. Joins the caller's unit of work; a concurrent creation of the same
 * identity makes the insert fail with 409 `duplicate_resource` (the caller's transaction is then rolled
 * back; running the command again finds the winner).
 */
@CommandHandler(FindOrCreateContactCommand)
export class FindOrCreateContactHandler implements ICommandHandler<FindOrCreateContactCommand> {
  constructor(
    private readonly contacts: ContactsRepository,
    private readonly identities: ContactIdentityRepository,
    private readonly unsubscribes: EmailUnsubscribes,
    private readonly unitOfWork: UnitOfWork,
    private readonly journal: Journal,
    private readonly queries: QueryBus,
    private readonly clock: Clock,
  ) {}

  async execute({ accountId, prospect, actor, source }: FindOrCreateContactCommand): Promise<FoundOrCreatedContact> {
    const email = prospect.email ? normalizeEmail(prospect.email) : null;
    const phone = prospect.phone ? normalizePhone(prospect.phone) : null;
    const unsubscribed = async () => (email ? this.unsubscribes.isUnsubscribed(accountId, email) : false);
    return this.unitOfWork.run(async () => {
      if (prospect.contactId) {
        const linked = await survivorOf(this.contacts, accountId, prospect.contactId);
        if (linked) return { contact_id: linked.id, created: false, email_unsubscribed: await unsubscribed() };
      }
      for (const identity of [email && { kind: 'email', value: email }, phone && { kind: 'phone', value: phone }] as (Identity | null)[]) {
        if (!identity) continue;
        const [owner] = await this.identities.findIdentityOwners(accountId, [identity]);
        if (owner) return { contact_id: owner.survivorId, created: false, email_unsubscribed: await unsubscribed() };
      }
      if (!email && !phone) {
        throw new ValidationFailedError([
          { field: 'email', reason: 'identity_required', message: 'An email or a phone is needed to find or create the contact.' },
          { field: 'phone', reason: 'identity_required', message: 'An email or a phone is needed to find or create the contact.' },
        ]);
      }
      const now = this.clock.now();
      const contact = Contact.create(
        {
          email,
          phone,
          firstName: normalizeText(prospect.firstName) ?? null,
          lastName: normalizeText(prospect.lastName) ?? null,
          company: normalizeText(prospect.company) ?? null,
        },
        { id: newId(), accountId, source, now, definitions: [] },
      );
      contact.placeInSystem(await this.mainSystem(accountId));
      await this.contacts.insertContact(contact.snapshot);
      await this.journal.record(
        accountId,
        [{ contactId: contact.id, type: 'contact_created', actor, data: { source } }],
        [integrationEvent(CONTACT_EVENTS.created, accountId, actor, now, { contact_id: contact.id, contact: toContactView(contact.snapshot) })],
      );
      return { contact_id: contact.id, created: true, email_unsubscribed: await unsubscribed() };
    });
  }

  private async mainSystem(accountId: AccountId): Promise<string> {
    const systems = await this.queries.execute(new ListSystemsQuery(accountId));
    const main = systems.find((system) => system.isMain) ?? systems.find((system) => system.isActive) ?? systems[0];
    if (!main) throw new SystemNotFoundError();
    return main.id;
  }
}
