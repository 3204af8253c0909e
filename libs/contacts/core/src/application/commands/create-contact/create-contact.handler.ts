import { CommandHandler, ICommandHandler, QueryBus } from '@nestjs/cqrs';
import { AccountId, Clock, isUuid, Journal, newId, UnitOfWork } from '@leadflow/shared-kernel';
import { ListSystemsQuery } from '@leadflow/accounts-contracts';
import { CONTACT_EVENTS, ContactView } from '@leadflow/contacts-contracts';
import { Contact } from '../../../domain/contact.aggregate';
import type { Identity } from '../../../domain/contact-identity';
import { DuplicateContactError, IdentitiesOfTwoContactsError, IdentityTakenError, SystemNotFoundError } from '../../../domain/contacts.errors';
import { ContactsReadModel } from '../../ports/contacts.read-model.port';
import { ContactsRepository } from '../../ports/contacts.repository.port';
import { ContactIdentityRepository } from '../../ports/contact-identity.repository.port';
import { CustomFieldDefinitionRepository } from '../../ports/custom-field-definition.repository.port';
import { integrationEvent, toContactView } from '../../views';
import { CreateContactCommand } from './create-contact.command';

/**
 * `POST /v1/contacts` (public-api-v1 › Contacts): source `api`, email lowercase, phone E.164.
 * Errors in this order: 400 `validation_error` (see Contact.create), 400 `invalid_custom_fields`,
 * 422 `system_not_found` (unknown System; an inactive one falls back to the main System), 409
 * `duplicate_contact` (one contact holds the email and/or phone, primary or secondary: `data` is that
 * contact, `details.conflicting_fields`), 409 `duplicate_resource` (they belong to two contacts).
 * Writes the contact, its identities, a `contact_created` activity and outbox event in one transaction;
 * the unique identity index makes a concurrent duplicate impossible.
 */
@CommandHandler(CreateContactCommand)
export class CreateContactHandler implements ICommandHandler<CreateContactCommand> {
  constructor(
    private readonly contacts: ContactsRepository,
    private readonly identities: ContactIdentityRepository,
    private readonly definitions: CustomFieldDefinitionRepository,
    private readonly reads: ContactsReadModel,
    private readonly unitOfWork: UnitOfWork,
    private readonly journal: Journal,
    private readonly queries: QueryBus,
    private readonly clock: Clock,
  ) {}

  async execute({ accountId, input, actor }: CreateContactCommand): Promise<ContactView> {
    const hasCustomFields = input.customFields !== undefined && input.customFields !== null && Object.keys(input.customFields).length > 0;
    const definitions = hasCustomFields ? await this.definitions.listDefinitions(accountId) : [];
    const now = this.clock.now();
    const contact = Contact.create(input, { id: newId(), accountId, source: 'api', now, definitions });
    contact.placeInSystem(await this.systemFor(accountId, input.systemId));
    const identities = contact.identities();
    await this.assertNoDuplicate(accountId, identities);
    const view = toContactView(contact.snapshot);
    try {
      await this.unitOfWork.run(async () => {
        await this.contacts.insertContact(contact.snapshot);
        await this.journal.record(
          accountId,
          [{ contactId: contact.id, type: 'contact_created', actor, data: { source: 'api' } }],
          [integrationEvent(CONTACT_EVENTS.created, accountId, actor, now, { contact_id: contact.id, contact: view })],
        );
      });
    } catch (error) {
      // Lost a race against a concurrent create: report the winner like any duplicate.
      if (error instanceof IdentityTakenError) await this.assertNoDuplicate(accountId, identities);
      throw error;
    }
    return view;
  }

  /** The requested System, the main one when omitted or inactive; 422 `system_not_found` otherwise. */
  private async systemFor(accountId: AccountId, requested: string | null | undefined): Promise<string> {
    const systems = await this.queries.execute(new ListSystemsQuery(accountId));
    const main = systems.find((system) => system.isMain) ?? systems.find((system) => system.isActive) ?? systems[0];
    if (requested === undefined || requested === null) {
      if (!main) throw new SystemNotFoundError();
      return main.id;
    }
    const wanted = isUuid(requested) ? systems.find((system) => system.id.toLowerCase() === requested.toLowerCase()) : undefined;
    if (!wanted) throw new SystemNotFoundError();
    return wanted.isActive || !main ? wanted.id : main.id;
  }

  private async assertNoDuplicate(accountId: AccountId, identities: Identity[]): Promise<void> {
    if (identities.length === 0) return;
    const owners = await this.identities.findIdentityOwners(accountId, identities);
    const survivors = [...new Set(owners.map((owner) => owner.survivorId))];
    if (survivors.length > 1) throw new IdentitiesOfTwoContactsError();
    if (survivors.length === 0) return;
    const existing = await this.reads.getContact(accountId, survivors[0]);
    const fields = (['email', 'phone'] as const).filter((kind) => owners.some((owner) => owner.kind === kind));
    if (existing) throw new DuplicateContactError(existing, [...fields]);
    throw new IdentitiesOfTwoContactsError([...fields]);
  }
}
