import { CommandHandler, ICommandHandler, QueryBus } from '@nestjs/cqrs';
import { Clock, Journal, UnitOfWork } from '@leadflow/shared-kernel';
import type { LeadCaptureResult } from '@leadflow/contacts-contracts';
import { TermsAcceptanceRequiredError } from '../../../domain/contacts.errors';
import { parseLeadCapture } from '../../../domain/lead-capture/lead-capture-input';
import { ContactIdentityRepository } from '../../ports/contact-identity.repository.port';
import { ContactsRepository } from '../../ports/contacts.repository.port';
import { LeadCaptureSettings } from '../../ports/lead-capture-settings.port';
import { LeadCaptureLog } from '../../ports/lead-capture.ports';
import { TagRepository } from '../../ports/tag.repository.port';
import { CaptureLeadCommand } from './capture-lead.command';
import { presentLeadCapture } from './capture-lead.presenter';
import { resolveLeadCapture } from './capture-lead.resolver';
import { LeadCaptureTransaction } from './capture-lead.transaction';

/**
 * `POST /v1/leads/capture`: public-api-v1 › Lead capture input, response, outcome and Endpoints › Leads.
 *
 * Before any write, in this order: 403 `terms_acceptance_required`; the body (see `parseLeadCapture`:
 * 422 `invalid_payload`, `invalid_phone`, `invalid_email`, `missing_consent`, simplified); 422
 * `system_not_found` (standard envelope; an inactive System sends the lead to the main one,
 * `system_not_active`); 422 `pipeline_not_found` / `stage_not_found` (simplified; without
 * `pipeline_slug` the stage is looked up in the default pipeline, without a block the lead enters the
 * default stage of the default pipeline); the sales rep (`sales_rep_not_found`), custom fields by name.
 * The account's settings (Systems, pipelines and stages, team members, custom-field definitions, the
 * lead's tags) come from {@link LeadCaptureSettings}, read outside the transaction (cached per account
 * by the api adapter, so a warm capture reads none of them from PostgreSQL).
 *
 * Then the person is resolved by email (case-insensitive), then by phone, primary or secondary details
 * alike (email wins when they name two contacts). A new person whose tags all exist is recorded in ONE
 * statement, atomic on its own: contact, identities, tags attached, capture row, activity entry and
 * outbox events (2 round trips to PostgreSQL in all with the identity read). Otherwise one transaction:
 * the missing tags are created, or an existing contact is locked, its last capture read, and it is
 * enriched without overwriting filled fields. The outcome follows (see `decideLeadOutcome`): only `created` records the capture — the tags
 * (the missing ones created on the fly), the capture row that opens the 5 minute window (written
 * with the new contact, its identities and its tags), an activity entry `lead_created`, a
 * `contact_created` (new contact) and a `lead_created` outbox event (the SMS follow-up hand-off
 * consumes it). `idempotent_replay` and `existing_pipeline_contact` record none of that
 * (`submission_not_recorded`). No statement runs per tag, identity, entry or event.
 *
 * Two concurrent captures of one new person: the unique identity index refuses the second insert,
 * whose attempt rolls back and starts over, finding the first one's contact (one contact, one capture).
 *
 * The steps live beside this handler: `capture-lead.resolver.ts` (the account settings → ResolvedRequest),
 * `capture-lead.transaction.ts` (the writes) and `capture-lead.presenter.ts` (the wire mapping).
 */
@CommandHandler(CaptureLeadCommand)
export class CaptureLeadHandler implements ICommandHandler<CaptureLeadCommand> {
  private readonly transaction: LeadCaptureTransaction;

  constructor(
    contacts: ContactsRepository,
    identities: ContactIdentityRepository,
    tags: TagRepository,
    captures: LeadCaptureLog,
    unitOfWork: UnitOfWork,
    journal: Journal,
    private readonly settings: LeadCaptureSettings,
    queries: QueryBus,
    clock: Clock,
  ) {
    this.transaction = new LeadCaptureTransaction(contacts, identities, tags, captures, unitOfWork, journal, queries, clock);
  }

  async execute({ accountId, body, actor, apiTermsAccepted }: CaptureLeadCommand): Promise<LeadCaptureResult> {
    if (!apiTermsAccepted) throw new TermsAcceptanceRequiredError();
    const lead = parseLeadCapture(body);
    const request = await resolveLeadCapture(this.settings, accountId, lead);
    return presentLeadCapture(request, await this.transaction.run(accountId, request, actor));
  }
}
