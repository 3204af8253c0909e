import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { Clock, Journal, UnitOfWork } from '@leadflow/shared-kernel';
import { CONTACT_EVENTS, ContactView } from '@leadflow/contacts-contracts';
import { Contact } from '../../../domain/contact.aggregate';
import { ContactNotFoundError, IdentityTakenError, NoFieldsError } from '../../../domain/contacts.errors';
import { ContactsRepository } from '../../ports/contacts.repository.port';
import { ContactIdentityRepository } from '../../ports/contact-identity.repository.port';
import { CustomFieldDefinitionRepository } from '../../ports/custom-field-definition.repository.port';
import { integrationEvent, toContactView } from '../../views';
import { UpdateContactCommand } from './update-contact.command';

/**
 * `PATCH /v1/contacts/{id}` rules 1–6 (public-api-v1 › Contacts): 400 `no_fields`; 404 `not_found`
 * (missing, merged, other account); 400 `validation_error`; 400 `invalid_custom_fields`; 422
 * `business_rule_violation` `contact_archived`; 409 `duplicate_resource` with
 * `details.conflicting_field` when another contact holds the email or phone (primary or secondary).
 * Every refusal leaves the contact untouched. On success one transaction writes the row (locked while
 * read), the identities, a `lead_updated` activity entry and a `lead_updated` outbox event with the changes.
 */
@CommandHandler(UpdateContactCommand)
export class UpdateContactHandler implements ICommandHandler<UpdateContactCommand> {
  constructor(
    private readonly contacts: ContactsRepository,
    private readonly identities: ContactIdentityRepository,
    private readonly definitions: CustomFieldDefinitionRepository,
    private readonly unitOfWork: UnitOfWork,
    private readonly journal: Journal,
    private readonly clock: Clock,
  ) {}

  async execute({ accountId, contactId, patch, actor }: UpdateContactCommand): Promise<ContactView> {
    if (Object.values(patch).every((value) => value === undefined)) throw new NoFieldsError();
    const definitions = patch.customFields ? await this.definitions.listDefinitions(accountId) : [];
    return this.unitOfWork.run(async () => {
      const state = await this.contacts.findContact(accountId, contactId, { lock: true });
      if (!state || state.mergedIntoId) throw new ContactNotFoundError();
      const contact = Contact.restore(state);
      const now = this.clock.now();
      const changes = contact.update(patch, definitions, now);
      const next = contact.snapshot;
      const changedKinds = (['email', 'phone'] as const).filter((kind) => next[kind] !== state[kind]);
      for (const kind of changedKinds) {
        const value = next[kind];
        if (value === null) continue;
        const owners = await this.identities.findIdentityOwners(accountId, [{ kind, value }]);
        if (owners.some((owner) => owner.contactId !== state.id)) throw new IdentityTakenError(kind);
      }
      await this.contacts.updateContact(next);
      for (const kind of changedKinds) await this.identities.setPrimaryIdentity(accountId, state.id, kind, next[kind], now);
      const view = toContactView(next);
      await this.journal.record(
        accountId,
        [{ contactId: state.id, type: 'lead_updated', actor, data: { changes } }],
        [integrationEvent(CONTACT_EVENTS.updated, accountId, actor, now, { contact_id: state.id, contact: view, changes })],
      );
      return view;
    });
  }
}
