import { CommandHandler, ICommandHandler, QueryBus } from '@nestjs/cqrs';
import { AccountId, Actor, Clock, DomainError, isUuid, Journal, newId, UnitOfWork, ValidationFailedError } from '@leadflow/shared-kernel';
import { ListSystemsQuery, type SystemView } from '@leadflow/accounts-contracts';
import { CONTACT_EVENTS, ContactView } from '@leadflow/contacts-contracts';
import { Contact, ContactPatch, ContactState } from '../../../domain/contact.aggregate';
import type { Identity, IdentityKind } from '../../../domain/contact-identity';
import { IdentityTakenError, SystemNotFoundError } from '../../../domain/contacts.errors';
import type { CustomFieldDefinition } from '../../../domain/custom-fields';
import { IgnoredFields } from '../../../domain/lead-capture/ignored-fields';
import type { LeadContactData, LeadPlacement } from '../../../domain/lead-capture/lead-enrichment';
import { leadIdentityLookups, matchLeadIdentity } from '../../../domain/lead-capture/lead-identity';
import { enrichmentEvents } from '../../lead-contact/lead-contact.writes';
import { ContactsRepository } from '../../ports/contacts.repository.port';
import { ContactIdentityRepository } from '../../ports/contact-identity.repository.port';
import { CustomFieldDefinitionRepository } from '../../ports/custom-field-definition.repository.port';
import { integrationEvent, toContactView } from '../../views';
import { BatchContactInput, parseBatchContactInput } from './batch-contact-input';
import { ContactBatchResult, ContactBatchStatus, UpsertContactsCommand } from './upsert-contacts.command';

/** Attempts of one input: a concurrent request may take an identity, or merge or delete the matched contact, meanwhile. */
const MAX_ATTEMPTS = 3;

/** Thrown inside an input's transaction when the matched contact was merged or deleted since the batch was resolved. */
class MatchLost extends Error {}

/** An identity added to an existing contact by its input. */
interface AddedIdentity {
  kind: IdentityKind;
  value: string;
  primary: boolean;
}

/** No pipeline placement: the batch never places a contact in a stage. */
const NO_PLACEMENT: LeadPlacement = { pipelineId: null, stageId: null, dealValueCents: null, expectedCloseDate: null, salesRepId: null, sent: [] };

const key = (identity: Identity) => `${identity.kind}\u0000${identity.value}`;

/** The contact's state without `updatedAt` (what tells a real change from a rewrite of the same values). */
function comparable(state: ContactState): string {
  const { updatedAt: _updatedAt, ...rest } = state;
  return JSON.stringify(rest);
}

/**
 * `POST /v1/contacts/batch` (issue 15, item 5): each input is created or updated, in order, in a
 * transaction of its own, and gets one result: `created`, `updated`, `unchanged` or `error` (the
 * `DomainError`'s `code`, `message` and `details`, as the single-contact routes give them). Partial
 * success: an input's refusal writes nothing of that input and does not stop the others.
 *
 * Matching: the lead-capture identity rules (public-api-v1 › Endpoints › Leads rule 1, reused from
 * `leadIdentityLookups` / `matchLeadIdentity`): by email (lowercase), then by phone (E.164), primary
 * and secondary details alike, merged contacts counting for their survivor; when email and phone name two
 * contacts the email's wins. Every identity of the batch is resolved in ONE statement before the first
 * write; what an input creates or adds is then known to the next inputs (two inputs of one person give
 * `created` then `updated`/`unchanged`). A concurrent request that wins an identity race makes the input
 * re-resolve and try again (3 attempts).
 *
 * - New person → the contact is created exactly as `POST /v1/contacts` creates it (source `api`, the
 *   System of `system_id` or the main one; 400 `validation_error`, 400 `invalid_custom_fields`, 422
 *   `system_not_found`), with a `contact_created` activity entry and outbox event.
 * - Existing contact → the fields sent replace the stored ones as `PATCH /v1/contacts/{id}` does
 *   (`custom_fields` merged, null clears; 400 `validation_error`, `invalid_custom_fields`, 422
 *   `business_rule_violation` `contact_archived`); its email and phone follow the lead-capture rule 2: an
 *   email fills an empty primary email, a phone fills an empty primary phone or is kept as a secondary
 *   phone, and an email or phone held by another contact stays with it. Anything changed → `updated`, with a
 *   `lead_updated` activity entry and outbox event (`changes` as PATCH, plus `identities_added` when a
 *   secondary phone was added); nothing changed → `unchanged`, nothing written. `system_id` only
 *   applies to a creation (an unknown one is still refused).
 */
@CommandHandler(UpsertContactsCommand)
export class UpsertContactsHandler implements ICommandHandler<UpsertContactsCommand> {
  constructor(
    private readonly contacts: ContactsRepository,
    private readonly identities: ContactIdentityRepository,
    private readonly definitions: CustomFieldDefinitionRepository,
    private readonly unitOfWork: UnitOfWork,
    private readonly journal: Journal,
    private readonly queries: QueryBus,
    private readonly clock: Clock,
  ) {}

  async execute({ accountId, inputs, actor }: UpsertContactsCommand): Promise<ContactBatchResult[]> {
    const parsed = inputs.map((raw) => parseBatchContactInput(raw));
    const valid = parsed.map((item) => item.input).filter((input): input is BatchContactInput => input !== undefined);
    const needsDefinitions = valid.some((input) => input.customFields && Object.keys(input.customFields).length > 0);
    const [definitions, owners] = await Promise.all([
      needsDefinitions ? this.definitions.listDefinitions(accountId) : Promise.resolve([]),
      // one statement for every identity of the batch
      this.identities.findIdentityOwners(accountId, this.lookupsOf(valid)),
    ]);
    const known = new Map<string, string>(owners.map((owner) => [key(owner), owner.survivorId]));
    const context: BatchContext = { accountId, actor, definitions, known, systems: null };

    const results: ContactBatchResult[] = [];
    for (const [index, item] of parsed.entries()) {
      if (item.violations) {
        results.push(errorResult(index, new ValidationFailedError(item.violations)));
        continue;
      }
      try {
        results.push({ index, ...(await this.upsert(context, item.input)) });
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        results.push(errorResult(index, error));
      }
    }
    return results;
  }

  /** Distinct lookups of every input (email and phone). */
  private lookupsOf(inputs: readonly BatchContactInput[]): Identity[] {
    const all = new Map<string, Identity>();
    for (const input of inputs) for (const identity of leadIdentityLookups(input.normalizedEmail, input.normalizedPhone)) all.set(key(identity), identity);
    return [...all.values()];
  }

  private async upsert(context: BatchContext, input: BatchContactInput): Promise<{ status: ContactBatchStatus; contact: ContactView }> {
    const systemId = await this.systemFor(context, input.systemId);
    for (let attempt = 1; ; attempt++) {
      const lookups = leadIdentityLookups(input.normalizedEmail, input.normalizedPhone);
      const match = matchLeadIdentity(
        lookups.flatMap((identity) => {
          const survivorId = context.known.get(key(identity));
          return survivorId ? [{ kind: identity.kind, survivorId }] : [];
        }),
      );
      try {
        if (match.contactId === null) return await this.create(context, input, systemId);
        return await this.update(context, input, match.contactId, match.holders);
      } catch (error) {
        const raced = error instanceof IdentityTakenError || error instanceof MatchLost;
        if (!raced || attempt >= MAX_ATTEMPTS) throw error;
        // a concurrent request changed who holds these identities: read them again (this input only)
        for (const identity of lookups) context.known.delete(key(identity));
        for (const owner of await this.identities.findIdentityOwners(context.accountId, lookups)) context.known.set(key(owner), owner.survivorId);
      }
    }
  }

  private async create(context: BatchContext, input: BatchContactInput, systemId: string): Promise<{ status: 'created'; contact: ContactView }> {
    const { accountId, actor } = context;
    const now = this.clock.now();
    const contact = Contact.create(input, { id: newId(), accountId, source: 'api', now, definitions: context.definitions });
    contact.placeInSystem(systemId);
    const view = toContactView(contact.snapshot);
    await this.unitOfWork.run(async () => {
      await this.contacts.insertContact(contact.snapshot);
      await this.journal.record(
        accountId,
        [{ contactId: contact.id, type: 'contact_created', actor, data: { source: 'api', via: 'batch' } }],
        [integrationEvent(CONTACT_EVENTS.created, accountId, actor, now, { contact_id: contact.id, contact: view })],
      );
    });
    for (const identity of contact.identities()) context.known.set(key(identity), contact.id);
    return { status: 'created', contact: view };
  }

  private async update(
    context: BatchContext,
    input: BatchContactInput,
    contactId: string,
    holders: { email: 'none' | 'self' | 'other'; phone: 'none' | 'self' | 'other' },
  ): Promise<{ status: 'updated' | 'unchanged'; contact: ContactView }> {
    const { accountId, actor } = context;
    const outcome = await this.unitOfWork.run(async () => {
      const state = await this.contacts.findContact(accountId, contactId, { lock: true });
      if (!state || state.mergedIntoId) throw new MatchLost();
      const before = structuredClone(state);
      const contact = Contact.restore(state);
      const now = this.clock.now();
      const patch: ContactPatch = {
        firstName: input.firstName,
        lastName: input.lastName,
        company: input.company,
        dealValue: input.dealValue,
        customFields: input.customFields,
      };
      if (Object.values(patch).some((value) => value !== undefined)) contact.update(patch, context.definitions, now);
      const identities: LeadContactData = {
        firstName: null,
        lastName: null,
        email: input.normalizedEmail,
        phone: input.normalizedPhone,
        customFields: {},
        address: {},
        attribution: null,
        sourceLabel: null,
        notes: null,
      };
      const enrichment = contact.enrichWithLead(identities, NO_PLACEMENT, holders, new IgnoredFields(), now);
      const added: AddedIdentity[] = [
        ...(enrichment.primaryEmail ? [{ kind: 'email' as const, value: enrichment.primaryEmail, primary: true }] : []),
        ...(enrichment.primaryPhone ? [{ kind: 'phone' as const, value: enrichment.primaryPhone, primary: true }] : []),
        ...(enrichment.secondaryPhone ? [{ kind: 'phone' as const, value: enrichment.secondaryPhone, primary: false }] : []),
      ];
      const after = contact.snapshot;
      if (comparable(before) === comparable(after) && added.length === 0) return { status: 'unchanged' as const, state: before, added };

      await this.contacts.updateContact(after);
      for (const identity of added) {
        if (identity.primary) await this.identities.setPrimaryIdentity(accountId, contactId, identity.kind, identity.value, now);
        else if (!(await this.identities.addSecondaryIdentity(accountId, contactId, identity.kind, identity.value, now))) throw new IdentityTakenError(identity.kind);
      }
      const view = toContactView(after);
      const changes = (enrichmentEvents(accountId, before, after, actor, now)[0]?.payload.changes as Record<string, unknown> | undefined) ?? {};
      const secondary = added.filter((identity) => !identity.primary).map(({ kind, value }) => ({ kind, value }));
      const extra = secondary.length > 0 ? { identities_added: secondary } : {};
      await this.journal.record(
        accountId,
        [{ contactId, type: 'lead_updated', actor, data: { changes, ...extra, via: 'batch' } }],
        [integrationEvent(CONTACT_EVENTS.updated, accountId, actor, now, { contact_id: contactId, contact: view, changes, ...extra })],
      );
      return { status: 'updated' as const, state: after, added };
    });
    for (const identity of outcome.added) context.known.set(key(identity), contactId);
    return { status: outcome.status, contact: toContactView(outcome.state) };
  }

  /** The requested System, the main one when omitted or inactive (as POST /v1/contacts); 422 `system_not_found` otherwise. Systems read once per batch. */
  private async systemFor(context: BatchContext, requested: string | null | undefined): Promise<string> {
    context.systems ??= await this.queries.execute(new ListSystemsQuery(context.accountId));
    const systems = context.systems;
    const main = systems.find((system) => system.isMain) ?? systems.find((system) => system.isActive) ?? systems[0];
    if (requested === undefined || requested === null) {
      if (!main) throw new SystemNotFoundError();
      return main.id;
    }
    const wanted = isUuid(requested) ? systems.find((system) => system.id.toLowerCase() === requested.toLowerCase()) : undefined;
    if (!wanted) throw new SystemNotFoundError();
    return wanted.isActive || !main ? wanted.id : main.id;
  }
}

/** What the inputs of one batch share. */
interface BatchContext {
  accountId: AccountId;
  actor: Actor;
  definitions: readonly CustomFieldDefinition[];
  /** `kind\0value` → the surviving contact holding it: read once for the batch, then kept up to date by its writes. */
  known: Map<string, string>;
  /** The account's Systems, read at the first input that needs them. */
  systems: SystemView[] | null;
}

function errorResult(index: number, error: DomainError): ContactBatchResult {
  return { index, status: 'error', error: { code: error.code, message: error.message, details: error.details } };
}
