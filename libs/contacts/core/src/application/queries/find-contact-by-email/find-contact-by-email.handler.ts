import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { normalizeEmail } from '@leadflow/shared-kernel';
import { EmailRecipientView, FindContactByEmailQuery } from '@leadflow/contacts-contracts';
import { ContactsRepository } from '../../ports/contacts.repository.port';
import { ContactIdentityRepository } from '../../ports/contact-identity.repository.port';
import { EmailUnsubscribes } from '../../ports/email-unsubscribes.port';

/** Published query (messaging): the contact holding an address and its unsubscribe state; reads only. */
@QueryHandler(FindContactByEmailQuery)
export class FindContactByEmailHandler implements IQueryHandler<FindContactByEmailQuery> {
  constructor(
    private readonly contacts: ContactsRepository,
    private readonly identities: ContactIdentityRepository,
    private readonly unsubscribes: EmailUnsubscribes,
  ) {}

  async execute({ accountId, email }: FindContactByEmailQuery): Promise<EmailRecipientView> {
    const address = normalizeEmail(email);
    if (!address) return { contact: null, unsubscribed: false };
    const [owner] = await this.identities.findIdentityOwners(accountId, [{ kind: 'email', value: address }]);
    const state = owner ? await this.contacts.findContact(accountId, owner.survivorId) : null;
    const contact =
      state && !state.mergedIntoId
        ? {
            id: state.id,
            first_name: state.firstName,
            last_name: state.lastName,
            email: state.email,
            phone: state.phone,
            company: state.company,
            archived: state.archivedAt !== null,
          }
        : null;
    return { contact, unsubscribed: await this.unsubscribes.isUnsubscribed(accountId, address) };
  }
}
