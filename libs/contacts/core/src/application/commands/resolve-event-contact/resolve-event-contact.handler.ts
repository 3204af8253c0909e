import { CommandHandler, ICommandHandler, QueryBus } from '@nestjs/cqrs';
import { AccountId, BusinessRuleViolationError, Clock, DomainError, FieldViolation, Journal, newId, UnitOfWork } from '@leadflow/shared-kernel';
import { ListSystemsQuery } from '@leadflow/accounts-contracts';
import {
  CONTACT_EVENTS,
  CustomFieldValue,
  ResolveEventContactCommand,
  ResolvedEventContact,
} from '@leadflow/contacts-contracts';
import { Contact, ContactPatch, ContactState } from '../../../domain/contact.aggregate';
import type { Identity } from '../../../domain/contact-identity';
import { InvalidCustomFieldsError, SystemNotFoundError } from '../../../domain/contacts.errors';
import { checkCustomFieldValue, CustomFieldDefinition } from '../../../domain/custom-fields';
import { ContactExternalIds } from '../../ports/contact-external-ids.port';
import { ContactsRepository } from '../../ports/contacts.repository.port';
import { ContactIdentityRepository } from '../../ports/contact-identity.repository.port';
import { CustomFieldDefinitionRepository } from '../../ports/custom-field-definition.repository.port';
import { integrationEvent, toContactView } from '../../views';

/** Longest merge chain followed from a matched contact to its survivor. */
const MAX_MERGE_HOPS = 50;

/**
 * Custom event `custom_fields` keyed by definition NAME (exact): unknown names are ignored, null
 * values are skipped (the merge is additive: nothing is cleared), a value its definition refuses is a
 * violation (`custom_fields.<name>`, reasons of `checkCustomFieldValue`). Returns values keyed by id.
 */
export function resolveEventCustomFields(
  definitions: readonly CustomFieldDefinition[],
  input: Record<string, unknown>,
): { values: Record<string, CustomFieldValue>; violations: FieldViolation[] } {
  const byName = new Map(definitions.map((definition) => [definition.name, definition]));
  const values: Record<string, CustomFieldValue> = {};
  const violations: FieldViolation[] = [];
  for (const [name, value] of Object.entries(input)) {
    const definition = byName.get(name);
    if (!definition || value === null || value === undefined) continue;
    const checked = checkCustomFieldValue(definition, value);
    if ('reason' in checked) violations.push({ field: `custom_fields.${name}`, reason: checked.reason, message: checked.message });
    else values[definition.id] = checked.value;
  }
  return { values, violations };
}

/** See {@link ResolveEventContactCommand} (published for POST /v1/events). */
@CommandHandler(ResolveEventContactCommand)
export class ResolveEventContactHandler implements ICommandHandler<ResolveEventContactCommand> {
  constructor(
    private readonly contacts: ContactsRepository,
    private readonly identities: ContactIdentityRepository,
    private readonly definitions: CustomFieldDefinitionRepository,
    private readonly externalIds: ContactExternalIds,
    private readonly unitOfWork: UnitOfWork,
    private readonly journal: Journal,
    private readonly queries: QueryBus,
    private readonly clock: Clock,
  ) {}

  async execute({ accountId, identifiers, createIfMissing, customFields, actor }: ResolveEventContactCommand): Promise<ResolvedEventContact | null> {
    const source = identifiers.externalSource ?? '';
    const hasFields = Object.keys(customFields).length > 0;
    const definitions = hasFields ? await this.definitions.listDefinitions(accountId) : [];
    const fields = resolveEventCustomFields(definitions, customFields);
    if (fields.violations.length > 0) throw new InvalidCustomFieldsError(fields.violations);

    return this.unitOfWork.run(async () => {
      const matches = await this.matches(accountId, identifiers, source);
      const live = matches.find((state) => state.archivedAt === null);
      const now = this.clock.now();
      if (live) {
        await this.enrich(accountId, live, identifiers, fields.values, definitions, source, actor, now);
        return { contact_id: live.id, created: false, archived: false };
      }
      if (matches.length > 0) return { contact_id: matches[0].id, created: false, archived: true };
      if (!createIfMissing) return null;
      return this.create(accountId, identifiers, fields.values, definitions, source, actor, now);
    });
  }

  /** Distinct unmerged contacts matched, in resolution order: external id, phone, email. */
  private async matches(accountId: AccountId, identifiers: ResolveEventContactCommand['identifiers'], source: string): Promise<ContactState[]> {
    const ids: string[] = [];
    if (identifiers.externalId) {
      const holder = await this.externalIds.findContactId(accountId, source, identifiers.externalId);
      const survivor = holder ? await this.survivorOf(accountId, holder) : null;
      if (survivor) ids.push(survivor);
    }
    const lookups: Identity[] = [];
    if (identifiers.phone) lookups.push({ kind: 'phone', value: identifiers.phone });
    if (identifiers.email) lookups.push({ kind: 'email', value: identifiers.email });
    const owners = await this.identities.findIdentityOwners(accountId, lookups);
    for (const kind of ['phone', 'email'] as const) {
      const owner = owners.find((candidate) => candidate.kind === kind);
      if (owner) ids.push(owner.survivorId);
    }
    const states: ContactState[] = [];
    for (const id of [...new Set(ids)]) {
      const state = await this.contacts.findContact(accountId, id);
      if (state && !state.mergedIntoId) states.push(state);
    }
    return states;
  }

  private async survivorOf(accountId: AccountId, contactId: string): Promise<string | null> {
    let current = await this.contacts.findContact(accountId, contactId);
    for (let hops = 0; current?.mergedIntoId && hops < MAX_MERGE_HOPS; hops += 1) {
      current = await this.contacts.findContact(accountId, current.mergedIntoId);
    }
    return current && !current.mergedIntoId ? current.id : null;
  }

  private async enrich(
    accountId: AccountId,
    found: ContactState,
    identifiers: ResolveEventContactCommand['identifiers'],
    values: Record<string, CustomFieldValue>,
    definitions: readonly CustomFieldDefinition[],
    source: string,
    actor: ResolveEventContactCommand['actor'],
    now: Date,
  ): Promise<void> {
    if (identifiers.externalId) await this.externalIds.link(accountId, source, identifiers.externalId, found.id, now);
    const patch: ContactPatch = {};
    if (Object.keys(values).length > 0) patch.customFields = values;
    if (identifiers.firstName && found.firstName === null) patch.firstName = identifiers.firstName;
    if (Object.keys(patch).length === 0) return;
    const state = await this.contacts.findContact(accountId, found.id, { lock: true });
    if (!state) return;
    const contact = Contact.restore(state);
    const changes = contact.update(patch, definitions, now);
    if (Object.keys(changes).length === 0) return;
    await this.contacts.updateContact(contact.snapshot);
    const view = toContactView(contact.snapshot);
    await this.journal.record(
      accountId,
      [{ contactId: state.id, type: CONTACT_EVENTS.updated, actor, data: { changes } }],
      [integrationEvent(CONTACT_EVENTS.updated, accountId, actor, now, { contact_id: state.id, contact: view, changes })],
    );
  }

  private async create(
    accountId: AccountId,
    identifiers: ResolveEventContactCommand['identifiers'],
    values: Record<string, CustomFieldValue>,
    definitions: readonly CustomFieldDefinition[],
    source: string,
    actor: ResolveEventContactCommand['actor'],
    now: Date,
  ): Promise<ResolvedEventContact> {
    if (!identifiers.email && !identifiers.phone) {
      throw new BusinessRuleViolationError(
        'identity_required',
        'No contact matches and none can be created without contact.email or contact.phone.',
        { field: 'contact' },
      );
    }
    const contact = Contact.create(
      { email: identifiers.email, phone: identifiers.phone, firstName: identifiers.firstName, customFields: values },
      { id: newId(), accountId, source: 'api', now, definitions },
    );
    contact.placeInSystem(await this.mainSystem(accountId));
    await this.contacts.insertContact(contact.snapshot); // IdentityTakenError (409) when a concurrent request won
    if (identifiers.externalId && !(await this.externalIds.link(accountId, source, identifiers.externalId, contact.id, now))) {
      // A concurrent request linked this external id to the contact it created: this attempt must start over.
      throw new DomainError('duplicate_resource', 'This external_id was just linked to another contact.', { conflicting_field: 'external_id' });
    }
    await this.journal.record(
      accountId,
      [{ contactId: contact.id, type: 'contact_created', actor, data: { source: 'api' } }],
      [integrationEvent(CONTACT_EVENTS.created, accountId, actor, now, { contact_id: contact.id, contact: toContactView(contact.snapshot) })],
    );
    return { contact_id: contact.id, created: true, archived: false };
  }

  private async mainSystem(accountId: AccountId): Promise<string> {
    const systems = await this.queries.execute(new ListSystemsQuery(accountId));
    const main = systems.find((system) => system.isMain) ?? systems.find((system) => system.isActive) ?? systems[0];
    if (!main) throw new SystemNotFoundError();
    return main.id;
  }
}
