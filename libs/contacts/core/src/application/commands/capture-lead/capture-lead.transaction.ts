import type { QueryBus } from '@nestjs/cqrs';
import { AccountId, Actor, Clock, Journal, JournalEntry, newId, UnitOfWork } from '@leadflow/shared-kernel';
import { FindStageQuery, StageView } from '@leadflow/pipeline-contracts';
import { CONTACT_EVENTS, LeadCreatedPayload } from '@leadflow/contacts-contracts';
import { Contact } from '../../../domain/contact.aggregate';
import { IdentityTakenError } from '../../../domain/contacts.errors';
import { IgnoredFields } from '../../../domain/lead-capture/ignored-fields';
import { decideLeadOutcome } from '../../../domain/lead-capture/lead-capture-outcome';
import type { Identity } from '../../../domain/contact-identity';
import { leadIdentityLookups, LeadIdentityMatch, matchLeadIdentity } from '../../../domain/lead-capture/lead-identity';
import { DEFAULT_TAG_COLOR } from '../../../domain/tag-rules';
import { stageChanged, writeLeadEnrichment } from '../../lead-contact/lead-contact.writes';
import { ContactsRepository } from '../../ports/contacts.repository.port';
import { ContactIdentityRepository, IdentityOwner } from '../../ports/contact-identity.repository.port';
import { TagRepository, TagState } from '../../ports/tag.repository.port';
import { LeadCaptureLog, LeadCaptureRecord, LeadCaptureWrites } from '../../ports/lead-capture.ports';
import { integrationEvent, toContactView } from '../../views';
import type { LeadCaptureOutcome } from './capture-lead.presenter';
import type { ResolvedRequest } from './capture-lead.resolver';

/** Attempts of one capture: a concurrent capture of the same new person makes the first one lose the identity race. */
const MAX_ATTEMPTS = 3;

/** Thrown inside an attempt when what was read changed meanwhile: the attempt rolls back and starts over. */
class CaptureRaceLost extends Error {}

/**
 * Lead capture's writes (the transaction script), once the request is resolved: the person is matched
 * by email, then phone (primary or secondary details alike; email wins when they name two contacts).
 * A new person whose tags all exist is recorded in ONE statement, atomic on its own and without a
 * transaction, that reads the identities first and writes only if none is stored
 * ({@link LeadCaptureLog.recordIfNewPerson}: contact, identities, tags attached, capture row, activity
 * entry and outbox events; one round trip in all). When the person exists, that statement answers who
 * holds the identities (nothing written) and the capture goes on as below. Otherwise one
 * transaction: the missing tags are created, or the existing contact is locked, its last capture read,
 * it is enriched without overwriting filled fields, and the outcome decided (`decideLeadOutcome`;
 * only `created` records the capture). A lost identity race (`IdentityTakenError`, or the matched
 * contact merged meanwhile) rolls the attempt back and starts over, at most 3 attempts.
 */
export class LeadCaptureTransaction {
  constructor(
    private readonly contacts: ContactsRepository,
    private readonly identities: ContactIdentityRepository,
    private readonly tags: TagRepository,
    private readonly captures: LeadCaptureLog,
    private readonly unitOfWork: UnitOfWork,
    private readonly journal: Journal,
    private readonly queries: QueryBus,
    private readonly clock: Clock,
  ) {}

  /** Matches, writes and decides; the outcome, for the presenter. */
  async run(accountId: AccountId, request: ResolvedRequest, actor: Actor): Promise<LeadCaptureOutcome> {
    const lookups = leadIdentityLookups(request.data.email, request.data.phone);
    for (let attempt = 1; ; attempt++) {
      try {
        let owners: IdentityOwner[];
        if (this.allTagsKnown(request)) {
          // a new person whose tags all exist: ONE statement checks the identities and writes only if none is
          // stored (atomic on its own, no BEGIN/COMMIT); else it answers who holds them and nothing is written
          const tried = await this.recordNewPerson(accountId, request, lookups, actor);
          if (tried.outcome) return tried.outcome;
          owners = tried.owners;
        } else {
          owners = await this.identities.findIdentityOwners(accountId, lookups);
        }
        const match = matchLeadIdentity(owners);
        return await this.unitOfWork.run(() => this.capture(accountId, request, match, request.lead.ignored.clone(), actor));
      } catch (error) {
        const raced = error instanceof IdentityTakenError || error instanceof CaptureRaceLost;
        if (!raced || attempt >= MAX_ATTEMPTS) throw error;
      }
    }
  }

  /** The stage of an existing contact: from the directory read before the transaction, else (created since) from the pipeline context. */
  private async stageById(accountId: AccountId, request: ResolvedRequest, stageId: string): Promise<StageView | null> {
    return request.stages.get(stageId) ?? (await this.queries.execute(new FindStageQuery(accountId, stageId)));
  }

  /** The lead's tags in the order sent: the known ones as read, the missing ones created (one statement for all). */
  private async tagsFor(accountId: AccountId, request: ResolvedRequest, now: Date): Promise<TagState[]> {
    const names = request.lead.tags;
    if (names.length === 0) return [];
    const missing = names.filter((name) => !request.knownTags.has(name));
    const created = missing.length > 0 ? await this.tags.ensureTags(accountId, missing, { color: DEFAULT_TAG_COLOR }, now) : [];
    const byName = new Map([...request.knownTags, ...created.map((tag) => [tag.name, tag] as const)]);
    return names.map((name) => byName.get(name)).filter((tag): tag is TagState => tag !== undefined);
  }

  /** Every tag the lead names exists already (read with the settings), so recording it creates none. */
  private allTagsKnown(request: ResolvedRequest): boolean {
    return request.lead.tags.every((name) => request.knownTags.has(name));
  }

  /**
   * A new person: the contact with its identities, tags, capture row, activity entry and outbox events in
   * one statement, written only if none of `lookups` is stored; the owners of those stored otherwise.
   */
  private async recordNewPerson(
    accountId: AccountId,
    request: ResolvedRequest,
    lookups: readonly Identity[],
    actor: Actor,
  ): Promise<{ outcome: LeadCaptureOutcome; owners?: undefined } | { outcome?: undefined; owners: IdentityOwner[] }> {
    const now = this.clock.now();
    const contact = Contact.fromLead(request.data, request.placement, { id: newId(), accountId, source: 'api', systemId: request.systemId, now, definitions: [] });
    const tags = await this.tagsFor(accountId, request, now);
    const { capture, writes } = this.captureWrites(accountId, request, contact, true, tags, actor, now);
    // IdentityTakenError when a concurrent capture of the same person won: the attempt is retried and finds its contact
    const result = await this.captures.recordIfNewPerson(accountId, lookups, capture, writes);
    if (!result.recorded) return { owners: result.owners };
    return { outcome: createdOutcome(capture, request.lead.ignored.clone()) };
  }

  /**
   * In one transaction: the person found by `match` (read just before, outside it) is locked and
   * enriched, and the capture recorded if the outcome is `created`; a new person whose tags must be
   * created on the fly is recorded with them.
   */
  private async capture(accountId: AccountId, request: ResolvedRequest, match: LeadIdentityMatch, ignored: IgnoredFields, actor: Actor): Promise<LeadCaptureOutcome> {
    const { data } = request;
    const now = this.clock.now();
    const existingId = match.contactId;

    if (existingId === null) {
      const contact = Contact.fromLead(data, request.placement, { id: newId(), accountId, source: 'api', systemId: request.systemId, now, definitions: [] });
      // inserted with the capture row: IdentityTakenError when a concurrent capture won, and the attempt is retried
      return this.record(accountId, request, contact, true, ignored, actor, now);
    }

    const state = await this.contacts.findContact(accountId, existingId, { lock: true });
    // merged (or gone) since the identities were read: start over with a new read
    if (!state || state.mergedIntoId) throw new CaptureRaceLost();
    const before = structuredClone(state);
    const contact = Contact.restore(state);
    // read once the lock is held (a statement of its own, so a new snapshot): a concurrent capture of this contact has committed
    const last = await this.captures.lastCapture(accountId, state.id);
    const currentStage = state.stageId ? await this.stageById(accountId, request, state.stageId) : null;
    const inOpenStage = state.archivedAt === null && currentStage !== null && !currentStage.isWon && !currentStage.isLost;
    const outcome = decideLeadOutcome({ contactWasNew: false, lastCaptureAt: last?.capturedAt ?? null, now, inOpenStage });

    const enrichment = contact.enrichWithLead(data, request.placement, match.holders, ignored, now);
    await writeLeadEnrichment({ contacts: this.contacts, identities: this.identities, journal: this.journal }, accountId, before, contact, enrichment, actor, now);

    if (outcome === 'created') return this.record(accountId, request, contact, false, ignored, actor, now);
    ignored.add('', 'submission_not_recorded', 'outcome');
    const replay = outcome === 'idempotent_replay' && last !== null;
    return {
      status: outcome,
      contactId: state.id,
      contactWasNew: false,
      ignored,
      activityId: replay ? last.activityId : null,
      originalCreatedAt: replay ? last.capturedAt : (last?.capturedAt ?? state.createdAt),
    };
  }

  /**
   * Outcome `created`: the missing tags (one statement, none when all exist; only inside a
   * transaction), then ONE statement writing the capture row with the new contact, its identities, the
   * tags attached, the activity entry and the outbox events.
   */
  private async record(
    accountId: AccountId,
    request: ResolvedRequest,
    contact: Contact,
    contactWasNew: boolean,
    ignored: IgnoredFields,
    actor: Actor,
    now: Date,
  ): Promise<LeadCaptureOutcome> {
    const tags = await this.tagsFor(accountId, request, now);
    const { capture, writes } = this.captureWrites(accountId, request, contact, contactWasNew, tags, actor, now);
    await this.captures.record(accountId, capture, writes);
    return createdOutcome(capture, ignored);
  }

  /** The capture row of outcome `created` and what it writes with it: the new contact, the tags attached, the activity entry and the outbox events. */
  private captureWrites(
    accountId: AccountId,
    request: ResolvedRequest,
    contact: Contact,
    contactWasNew: boolean,
    tags: readonly TagState[],
    actor: Actor,
    now: Date,
  ): { capture: LeadCaptureRecord; writes: LeadCaptureWrites } {
    const { lead, data } = request;
    const state = contact.snapshot;
    const captureId = newId();
    const activityId = newId();
    const entry: JournalEntry = {
      id: activityId,
      contactId: state.id,
      type: CONTACT_EVENTS.leadCreated,
      actor,
      data: {
        capture_id: captureId,
        contact_was_new: contactWasNew,
        source_label: data.sourceLabel,
        notes: data.notes,
        tags: tags.map((tag) => tag.name),
        attribution: data.attribution,
        qualification_answers: lead.qualificationAnswers,
        system_id: request.systemId,
        pipeline_id: request.placement.pipelineId,
        stage_id: request.placement.stageId,
      },
    };
    const payload: LeadCreatedPayload = {
      contact_id: state.id,
      contact_was_new: contactWasNew,
      capture_id: captureId,
      activity_id: activityId,
      phone: data.phone,
      first_name: state.firstName,
      last_name: state.lastName,
      email: state.email,
      sms_consent: true,
      source_label: data.sourceLabel,
      system_id: state.systemId,
      pipeline_id: state.pipelineId,
      stage_id: state.stageId,
    };
    const events = [
      ...(contactWasNew
        ? [integrationEvent(CONTACT_EVENTS.created, accountId, actor, now, { contact_id: state.id, contact: toContactView(state) })]
        : []),
      ...(contactWasNew && state.stageId !== null ? [stageChanged(accountId, actor, now, state.id, state.pipelineId, null, state.stageId)] : []),
      integrationEvent(CONTACT_EVENTS.leadCreated, accountId, actor, now, payload),
    ];
    return {
      capture: { id: captureId, contactId: state.id, activityId, contactWasNew, capturedAt: now },
      writes: { newContact: contactWasNew ? state : undefined, tagIds: tags.map((tag) => tag.id), journal: { entries: [entry], events } },
    };
  }
}

/** The presenter's outcome of a recorded capture. */
function createdOutcome(capture: LeadCaptureRecord, ignored: IgnoredFields): LeadCaptureOutcome {
  return { status: 'created', contactId: capture.contactId, contactWasNew: capture.contactWasNew, ignored, activityId: capture.activityId, originalCreatedAt: capture.capturedAt };
}
