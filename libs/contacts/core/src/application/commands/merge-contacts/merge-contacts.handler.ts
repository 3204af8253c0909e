import { CommandBus, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { AccountId, Actor, Clock, IntegrationEvent, Journal, UnitOfWork, ValidationFailedError } from '@leadflow/shared-kernel';
import { ReassignContactBookingsCommand } from '@leadflow/bookings-contracts';
import { CONTACT_EVENTS, ContactMergedPayload } from '@leadflow/contacts-contracts';
import { ReassignContactRegistrationsCommand } from '@leadflow/events-contracts';
import { ReassignContactQuotesCommand } from '@leadflow/quotes-contracts';
import { Contact, ContactState } from '../../../domain/contact.aggregate';
import { planContactMerge } from '../../../domain/contact-merge';
import { ContactNotFoundError } from '../../../domain/contacts.errors';
import { enrichmentEvents } from '../../lead-contact/lead-contact.writes';
import { ContactsRepository } from '../../ports/contacts.repository.port';
import { ContactIdentityRepository } from '../../ports/contact-identity.repository.port';
import { ContactTagRepository } from '../../ports/contact-tag.repository.port';
import { integrationEvent, toContactView } from '../../views';
import { ContactMergeReport, MergeContactsCommand } from './merge-contacts.command';

const ids = (list: string[]) => ({ count: list.length, ids: list });

/**
 * `POST /v1/contacts/{id}/merge` (issue 15, item 6; scope `contacts:delete`): the contact `{id}` is
 * absorbed by `into`, the survivor.
 *
 * Refusals, in this order, nothing written: 404 `not_found` when `{id}` is missing, another account's,
 * not a UUID or already merged (public-api-v1 › Merged contacts: a merged id answers 404); 400
 * `validation_error` `[{ field: "into", reason: "invalid_value" }]` when `into` is `{id}` itself; 404
 * `not_found` with `details.field` = `into` when the survivor is missing, another account's or merged.
 *
 * What the merge does (the report names each part, see ContactMergeReport): the survivor's filled fields
 * are kept and its empty ones filled (`planContactMerge`); every email and phone of the merged contact
 * becomes the survivor's; the merged contact's tags are attached to the survivor; its deal becomes the
 * survivor's when the survivor is in no stage; its bookings, quotes and event registrations are moved
 * by their own contexts through their published commands (`ReassignContactBookingsCommand`,
 * `ReassignContactQuotesCommand`, `ReassignContactRegistrationsCommand`), dispatched inside this
 * transaction (the platform's unit of work spans contexts in one process), so the whole merge commits or
 * rolls back as one. The merged contact is then absorbed (`Contact.mergeInto`, the operator merge's
 * rule): its id answers 404 and its identities resolve to the survivor. Journal: activity entries
 * `contact_merged` (merged contact) and `contact_absorbed` (survivor, with the report), outbox events
 * `contact_merged` (a webhook), `lead_updated` for the survivor when a public field changed, and
 * `stage_changed` when the deal moved.
 *
 * `dryRun`: the same checks and the same report from plain reads (other contexts answer with their
 * commands' dry run); nothing is written or locked. The real merge locks both contacts (id order, so two
 * merges of the same pair cannot deadlock).
 */
@CommandHandler(MergeContactsCommand)
export class MergeContactsHandler implements ICommandHandler<MergeContactsCommand> {
  constructor(
    private readonly contacts: ContactsRepository,
    private readonly identities: ContactIdentityRepository,
    private readonly contactTags: ContactTagRepository,
    private readonly unitOfWork: UnitOfWork,
    private readonly journal: Journal,
    private readonly commands: CommandBus,
    private readonly clock: Clock,
  ) {}

  execute(command: MergeContactsCommand): Promise<ContactMergeReport> {
    if (command.dryRun) return this.merge(command);
    return this.unitOfWork.run(() => this.merge(command));
  }

  private async merge({ accountId, contactId, intoContactId, dryRun, actor }: MergeContactsCommand): Promise<ContactMergeReport> {
    const { merged, survivor } = await this.load(accountId, contactId, intoContactId, !dryRun);
    const now = this.clock.now();
    const plan = planContactMerge(merged, survivor, await this.identities.identitiesOf(accountId, merged.id), now);

    const tagIds = dryRun ? await this.tagsToAdd(accountId, merged.id, survivor.id) : await this.contactTags.copyTags(accountId, merged.id, survivor.id, now);
    const [bookings, quotes, registrations] = await this.sequential([
      () => this.commands.execute(new ReassignContactBookingsCommand(accountId, merged.id, survivor.id, dryRun)),
      () => this.commands.execute(new ReassignContactQuotesCommand(accountId, merged.id, survivor.id, dryRun)),
      () => this.commands.execute(new ReassignContactRegistrationsCommand(accountId, merged.id, survivor.id, dryRun)),
    ] as const);

    const absorbed = Contact.restore(plan.merged);
    absorbed.mergeInto(survivor.id, now);
    const report: ContactMergeReport = {
      dry_run: dryRun,
      merged_contact_id: merged.id,
      survivor: toContactView(plan.survivor),
      fields: { kept: plan.kept, filled: plan.filled },
      identities: { count: plan.identities.length, items: plan.identities },
      tags: ids(tagIds),
      deals: ids(plan.dealMoved ? [merged.id] : []),
      bookings: ids(bookings),
      quotes: ids(quotes),
      registrations: { ...ids(registrations.moved), skipped_ids: registrations.skipped },
    };
    if (dryRun) return report;

    await this.contacts.updateContact(absorbed.snapshot);
    if (plan.survivor !== survivor) await this.contacts.updateContact(plan.survivor);
    const primaries = plan.identities.filter((identity) => identity.primary).map(({ kind, value }) => ({ kind, value }));
    if (plan.identities.length > 0) await this.identities.moveIdentities(accountId, merged.id, survivor.id, primaries);
    const { survivor: _survivor, ...moved } = report;
    await this.journal.record(
      accountId,
      [
        { contactId: merged.id, type: 'contact_merged', actor, data: { into_contact_id: survivor.id } },
        { contactId: survivor.id, type: 'contact_absorbed', actor, data: moved },
      ],
      this.events(accountId, actor, now, survivor, plan.survivor, report),
    );
    return report;
  }

  /** Both contacts, unmerged and of the account (else the refusals above); locked in id order for a real merge. */
  private async load(accountId: AccountId, contactId: string, intoContactId: string, lock: boolean): Promise<{ merged: ContactState; survivor: ContactState }> {
    const into = intoContactId.toLowerCase();
    const ordered = [contactId.toLowerCase(), into].sort();
    const found = new Map<string, ContactState | null>();
    for (const id of ordered) if (!found.has(id)) found.set(id, await this.contacts.findContact(accountId, id, { lock }));
    const merged = found.get(contactId.toLowerCase()) ?? null;
    if (!merged || merged.mergedIntoId) throw new ContactNotFoundError();
    if (merged.id === into) {
      throw new ValidationFailedError([{ field: 'into', reason: 'invalid_value', message: 'A contact cannot be merged into itself.' }]);
    }
    const survivor = found.get(into) ?? null;
    if (!survivor || survivor.mergedIntoId) throw new ContactNotFoundError('into');
    return { merged, survivor };
  }

  /** Dry run: the merged contact's tags the survivor lacks. */
  private async tagsToAdd(accountId: AccountId, mergedId: string, survivorId: string): Promise<string[]> {
    const [theirs, mine] = await Promise.all([this.contactTags.contactTagIds(accountId, mergedId), this.contactTags.contactTagIds(accountId, survivorId)]);
    const has = new Set(mine);
    return theirs.filter((tagId) => !has.has(tagId)).sort();
  }

  /** One after the other: the statements share the transaction's single connection. */
  private async sequential<T extends readonly (() => Promise<unknown>)[]>(steps: T): Promise<{ [K in keyof T]: Awaited<ReturnType<T[K]>> }> {
    const results: unknown[] = [];
    for (const step of steps) results.push(await step());
    return results as { [K in keyof T]: Awaited<ReturnType<T[K]>> };
  }

  /** `contact_merged` (webhook), then `lead_updated` / `stage_changed` of the survivor when they apply. */
  private events(accountId: AccountId, actor: Actor, now: Date, before: ContactState, after: ContactState, report: ContactMergeReport): IntegrationEvent[] {
    const { dry_run: _dryRun, merged_contact_id: contactId, ...rest } = report;
    const payload: ContactMergedPayload = { contact_id: contactId, into_contact_id: before.id, ...rest };
    const survivorEvents = after === before ? [] : enrichmentEvents(accountId, before, after, actor, now);
    return [integrationEvent(CONTACT_EVENTS.merged, accountId, actor, now, payload), ...survivorEvents];
  }
}
