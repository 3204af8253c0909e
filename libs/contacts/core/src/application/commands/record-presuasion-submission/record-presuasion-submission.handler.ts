import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { AccountId, Actor, Clock, IntegrationEvent, Journal, newId, UnitOfWork } from '@leadflow/shared-kernel';
import type { SystemView } from '@leadflow/accounts-contracts';
import {
  CONTACT_EVENTS,
  PRESUASION_SUBMISSION_CREATED_EVENT,
  PRESUASION_TAG_CATEGORY,
  presuasionSystemKey,
  PresuasionSubmissionView,
} from '@leadflow/contacts-contracts';
import { Contact } from '../../../domain/contact.aggregate';
import { IdentityTakenError, SystemNotFoundError, TermsAcceptanceRequiredError } from '../../../domain/contacts.errors';
import { IgnoredFields } from '../../../domain/lead-capture/ignored-fields';
import type { LeadPlacement } from '../../../domain/lead-capture/lead-enrichment';
import { leadIdentityLookups, matchLeadIdentity } from '../../../domain/lead-capture/lead-identity';
import { ParsedPresuasionSubmission, parsePresuasionSubmission, PresuasionSubmissionState } from '../../../domain/presuasion/presuasion-submission';
import { DEFAULT_TAG_COLOR, TAG_NAME_MAX_LENGTH } from '../../../domain/tag-rules';
import { writeLeadEnrichment } from '../../lead-contact/lead-contact.writes';
import { ContactsRepository } from '../../ports/contacts.repository.port';
import { ContactIdentityRepository } from '../../ports/contact-identity.repository.port';
import { TagRepository, TagState } from '../../ports/tag.repository.port';
import { ContactTagRepository } from '../../ports/contact-tag.repository.port';
import { LeadCaptureSettings } from '../../ports/lead-capture-settings.port';
import { PresuasionSubmissionRepository } from '../../ports/presuasion-submissions.port';
import { toPresuasionSubmissionView } from '../../presuasion-submission.view';
import { integrationEvent, toContactView } from '../../views';
import { RecordPresuasionSubmissionCommand } from './record-presuasion-submission.command';

/** Attempts of one submission: a concurrent request creating the same new person makes this one lose the identity race. */
const MAX_ATTEMPTS = 3;

/** A submission places no one in a pipeline: the contact keeps (or starts without) its stage. */
const NO_PLACEMENT: LeadPlacement = { pipelineId: null, stageId: null, dealValueCents: null, expectedCloseDate: null, salesRepId: null, sent: [] };

/** Thrown inside an attempt when the contact resolved was merged or deleted meanwhile: the attempt rolls back and starts over. */
class SubmissionRaceLost extends Error {}

/**
 * `POST /v1/presuasion/submissions` (OpenAPI; README › Decisions › Presuasion submissions).
 *
 * Before any write: 403 `terms_acceptance_required` (as lead capture); the body's rules (see
 * `parsePresuasionSubmission`: 400 `validation_error`); the account's main System (cached lead-capture
 * settings; 422 `system_not_found` when the account has none).
 *
 * Then one transaction: the person is resolved with lead capture's identity rules (email first,
 * case-insensitive, then phone, primary and secondary details alike, email wins; see
 * `matchLeadIdentity`); a new person becomes a contact (source `api`, the tool's name as source label,
 * first-touch attribution); an existing one is locked and enriched like a lead (filled fields kept, a new
 * phone kept as secondary, `lead_updated` when something changed: see `writeLeadEnrichment`). The tool's
 * tag (category `presuasion`, system key `presuasion:<slug>`, created on the fly) is attached; the
 * submission row, its activity entry `presuasion_submission_created` and the outbox events
 * (`contact_created` for a new contact, then `presuasion_submission_created` with the submission view)
 * commit together. No 5 minute window: every submission is recorded (a replay is only an Idempotency-Key's).
 */
@CommandHandler(RecordPresuasionSubmissionCommand)
export class RecordPresuasionSubmissionHandler implements ICommandHandler<RecordPresuasionSubmissionCommand> {
  constructor(
    private readonly contacts: ContactsRepository,
    private readonly identities: ContactIdentityRepository,
    private readonly tags: TagRepository,
    private readonly contactTags: ContactTagRepository,
    private readonly submissions: PresuasionSubmissionRepository,
    private readonly unitOfWork: UnitOfWork,
    private readonly journal: Journal,
    private readonly settings: LeadCaptureSettings,
    private readonly clock: Clock,
  ) {}

  async execute({ accountId, input, actor, apiTermsAccepted }: RecordPresuasionSubmissionCommand): Promise<PresuasionSubmissionView> {
    if (!apiTermsAccepted) throw new TermsAcceptanceRequiredError();
    const submission = parsePresuasionSubmission(input, this.clock.now());
    const systemId = mainSystemId(await this.settings.systems(accountId));
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.unitOfWork.run(() => this.record(accountId, submission, systemId, actor));
      } catch (error) {
        const raced = error instanceof IdentityTakenError || error instanceof SubmissionRaceLost;
        if (!raced || attempt >= MAX_ATTEMPTS) throw error;
      }
    }
  }

  private async record(accountId: AccountId, submission: ParsedPresuasionSubmission, systemId: string, actor: Actor): Promise<PresuasionSubmissionView> {
    const now = this.clock.now();
    const data = submission.contact;
    const match = matchLeadIdentity(await this.identities.findIdentityOwners(accountId, leadIdentityLookups(data.email, data.phone)));
    const events: IntegrationEvent[] = [];
    let contact: Contact;
    if (match.contactId === null) {
      contact = Contact.fromLead(data, NO_PLACEMENT, { id: newId(), accountId, source: 'api', systemId, now, definitions: [], smsConsent: submission.consent.sms === true });
      await this.contacts.insertContact(contact.snapshot); // IdentityTakenError when a concurrent request created this person: retried
      events.push(integrationEvent(CONTACT_EVENTS.created, accountId, actor, now, { contact_id: contact.id, contact: toContactView(contact.snapshot) }));
    } else {
      const state = await this.contacts.findContact(accountId, match.contactId, { lock: true });
      if (!state || state.mergedIntoId) throw new SubmissionRaceLost();
      const before = structuredClone(state);
      contact = Contact.restore(state);
      const enrichment = contact.enrichWithLead(data, NO_PLACEMENT, match.holders, new IgnoredFields(), now);
      await writeLeadEnrichment({ contacts: this.contacts, identities: this.identities, journal: this.journal }, accountId, before, contact, enrichment, actor, now);
    }

    const tag = await this.toolTag(accountId, submission, now);
    await this.contactTags.attachTags(accountId, contact.id, [tag.id], now);
    const { contact: _contact, ...stored } = submission;
    const state: PresuasionSubmissionState = {
      ...stored,
      id: newId(),
      accountId,
      contactId: contact.id,
      contactWasNew: match.contactId === null,
      tagId: tag.id,
      activityId: newId(),
      createdAt: now,
    };
    await this.submissions.insert(state);
    const view = toPresuasionSubmissionView(state);
    await this.journal.record(
      accountId,
      [{ id: state.activityId, contactId: contact.id, type: PRESUASION_SUBMISSION_CREATED_EVENT, actor, data: { ...view } }],
      [...events, integrationEvent(PRESUASION_SUBMISSION_CREATED_EVENT, accountId, actor, now, { ...view })],
    );
    return view;
  }

  /**
   * The tool's tag in the presuasion tag group: found by its system key `presuasion:<slug>` (one tag per
   * tool, whatever its name became), else created with the tool's name, suffixed ` (<slug>)` when
   * another tag already has that name. A concurrent creation of the same tool's tag is tolerated (the
   * insert does nothing, the read finds the winner's).
   */
  private async toolTag(accountId: AccountId, submission: ParsedPresuasionSubmission, now: Date): Promise<TagState> {
    const systemKey = presuasionSystemKey(submission.toolSlug);
    const existing = await this.tags.findTagBySystemKey(accountId, systemKey);
    if (existing) return existing;
    const name = submission.toolName;
    const suffixed = (suffix: string) => `${name.slice(0, Math.max(1, TAG_NAME_MAX_LENGTH - suffix.length - 3))} (${suffix})`.slice(0, TAG_NAME_MAX_LENGTH);
    for (const candidate of [name, suffixed(submission.toolSlug), suffixed(`${submission.toolSlug} ${newId().slice(-8)}`)]) {
      await this.tags.insertTagIfAbsent(accountId, {
        id: newId(),
        name: candidate,
        color: DEFAULT_TAG_COLOR,
        description: null,
        category: PRESUASION_TAG_CATEGORY,
        systemKey,
        createdAt: now,
        updatedAt: now,
      });
      const stored = await this.tags.findTagBySystemKey(accountId, systemKey);
      if (stored) return stored;
    }
    throw new Error(`The presuasion tag ${systemKey} could not be created`);
  }
}

/** The account's main System (else its first active one, else its first one); 422 `system_not_found` when it has none. */
function mainSystemId(systems: readonly SystemView[]): string {
  const main = systems.find((system) => system.isMain) ?? systems.find((system) => system.isActive) ?? systems[0];
  if (!main) throw new SystemNotFoundError();
  return main.id;
}
