import { CommandHandler, ICommandHandler, QueryBus } from '@nestjs/cqrs';
import { AccountId, Actor, centsToDollars, Clock, isUuid, Journal, JournalEntry, newId, UnitOfWork } from '@leadflow/shared-kernel';
import type { SystemView, TeamMemberView } from '@leadflow/accounts-contracts';
import { FindStageQuery, StageView } from '@leadflow/pipeline-contracts';
import { CONTACT_EVENTS, LeadAssignmentStatus, LeadCaptureResult, LeadCreatedPayload, type IgnoredField } from '@leadflow/contacts-contracts';
import { Contact } from '../../../domain/contact.aggregate';
import { IdentityTakenError, LeadCaptureRejectedError, SystemNotFoundError, TermsAcceptanceRequiredError } from '../../../domain/contacts.errors';
import { IgnoredFields } from '../../../domain/lead-capture/ignored-fields';
import { leadAttribution } from '../../../domain/lead-capture/lead-attribution';
import { decideLeadOutcome } from '../../../domain/lead-capture/lead-capture-outcome';
import { parseLeadCapture, ParsedLead } from '../../../domain/lead-capture/lead-capture-input';
import { resolveLeadCustomFields } from '../../../domain/lead-capture/lead-custom-fields';
import type { LeadContactData, LeadPlacement } from '../../../domain/lead-capture/lead-enrichment';
import { leadIdentityLookups, LeadIdentityMatch, matchLeadIdentity } from '../../../domain/lead-capture/lead-identity';
import { DEFAULT_TAG_COLOR } from '../../../domain/tag-rules';
import { ContactsRepository, TagState } from '../../ports/contacts.repository.port';
import { LeadCaptureSettings, PipelineDirectory } from '../../ports/lead-capture-settings.port';
import { LeadCaptureLog } from '../../ports/lead-capture.ports';
import { integrationEvent, toContactView } from '../../views';
import { stageChanged, writeLeadEnrichment } from '../../lead-contact/lead-contact.writes';
import { CaptureLeadCommand } from './capture-lead.command';

/** Attempts of one capture: a concurrent capture of the same new person makes the first one lose the identity race. */
const MAX_ATTEMPTS = 3;

/** Thrown inside an attempt when what was read changed meanwhile: the attempt rolls back and starts over. */
class CaptureRaceLost extends Error {}

/** What the request resolved to before any write (rules that need the account's settings). */
interface ResolvedRequest {
  lead: ParsedLead;
  /** Lead capture always has a phone. */
  data: LeadContactData & { phone: string };
  placement: LeadPlacement;
  stage: StageView | null;
  systemId: string;
  assignment: LeadAssignmentStatus;
  /** Every stage of the account by id: the current stage of an existing contact is looked up here. */
  stages: ReadonlyMap<string, StageView>;
  /** The lead's tags that exist already, by name (the others are created on the fly). */
  knownTags: ReadonlyMap<string, TagState>;
}

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
 */
@CommandHandler(CaptureLeadCommand)
export class CaptureLeadHandler implements ICommandHandler<CaptureLeadCommand> {
  constructor(
    private readonly contacts: ContactsRepository,
    private readonly captures: LeadCaptureLog,
    private readonly unitOfWork: UnitOfWork,
    private readonly journal: Journal,
    private readonly settings: LeadCaptureSettings,
    private readonly queries: QueryBus,
    private readonly clock: Clock,
  ) {}

  async execute({ accountId, body, actor, apiTermsAccepted }: CaptureLeadCommand): Promise<LeadCaptureResult> {
    if (!apiTermsAccepted) throw new TermsAcceptanceRequiredError();
    const lead = parseLeadCapture(body);
    const request = await this.resolve(accountId, lead);
    for (let attempt = 1; ; attempt++) {
      try {
        const ignored = lead.ignored.clone();
        const match = matchLeadIdentity(await this.contacts.findIdentityOwners(accountId, leadIdentityLookups(request.data.email, request.data.phone)));
        if (match.contactId === null && this.allTagsKnown(request)) {
          // a new person whose tags all exist: one statement, atomic on its own (no BEGIN/COMMIT round trips)
          return await this.recordNewPerson(accountId, request, ignored, actor);
        }
        return await this.unitOfWork.run(() => this.capture(accountId, request, match, ignored, actor));
      } catch (error) {
        const raced = error instanceof IdentityTakenError || error instanceof CaptureRaceLost;
        if (!raced || attempt >= MAX_ATTEMPTS) throw error;
      }
    }
  }

  // ------------------------------------------------------------------ resolution (reads only)

  private async resolve(accountId: AccountId, lead: ParsedLead): Promise<ResolvedRequest> {
    const wantsRep = lead.pipeline.salesRepEmail !== null;
    const wantsFields = Object.keys(lead.customFields).length > 0;
    const [systems, directory, members, definitions, tags] = await Promise.all([
      this.settings.systems(accountId),
      this.settings.pipelines(accountId),
      wantsRep ? this.settings.teamMembers(accountId) : [],
      wantsFields ? this.settings.customFieldDefinitions(accountId) : [],
      lead.tags.length > 0 ? this.settings.tagsNamed(accountId, lead.tags) : [],
    ]);
    const systemId = systemFor(systems, lead);
    const stage = stageFor(directory, lead);
    const { salesRepId, assignment } = salesRepFor(members, lead);
    const customFields = wantsFields ? resolveLeadCustomFields(definitions, lead.customFields, lead.ignored) : {};
    const data: LeadContactData & { phone: string } = {
      firstName: lead.firstName,
      lastName: lead.lastName,
      email: lead.email,
      phone: lead.phone,
      customFields,
      address: lead.address,
      attribution: leadAttribution(lead.utm, lead.gclid, lead.adsConsent),
      sourceLabel: lead.sourceLabel,
      notes: lead.notes,
    };
    const placement: LeadPlacement = {
      pipelineId: stage?.pipelineId ?? null,
      stageId: stage?.id ?? null,
      dealValueCents: lead.pipeline.dealValueCents,
      expectedCloseDate: lead.pipeline.expectedCloseDate,
      salesRepId,
      sent: lead.pipeline.sent.filter((member) => member !== 'assigned_sales_rep_email' || salesRepId !== null),
    };
    return {
      lead,
      data,
      placement,
      stage,
      systemId,
      assignment,
      stages: new Map(directory.stages.map((item) => [item.id, item])),
      knownTags: new Map(tags.map((tag) => [tag.name, tag])),
    };
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
    const created = missing.length > 0 ? await this.contacts.ensureTags(accountId, missing, { color: DEFAULT_TAG_COLOR }, now) : [];
    const byName = new Map([...request.knownTags, ...created.map((tag) => [tag.name, tag] as const)]);
    return names.map((name) => byName.get(name)).filter((tag): tag is TagState => tag !== undefined);
  }

  // ------------------------------------------------------------------ the transaction

  /** Every tag the lead names exists already (read with the settings), so recording it creates none. */
  private allTagsKnown(request: ResolvedRequest): boolean {
    return request.lead.tags.every((name) => request.knownTags.has(name));
  }

  /** A new person: the contact with its identities, tags, capture row, activity entry and outbox events in one statement. */
  private recordNewPerson(accountId: AccountId, request: ResolvedRequest, ignored: IgnoredFields, actor: Actor): Promise<LeadCaptureResult> {
    const now = this.clock.now();
    const contact = Contact.fromLead(request.data, request.placement, { id: newId(), accountId, source: 'api', systemId: request.systemId, now, definitions: [] });
    // IdentityTakenError when a concurrent capture of the same person won: the attempt is retried and finds its contact
    return this.record(accountId, request, contact, true, ignored, actor, now);
  }

  /**
   * In one transaction: the person found by `match` (read just before, outside it) is locked and
   * enriched, and the capture recorded if the outcome is `created`; a new person whose tags must be
   * created on the fly is recorded with them.
   */
  private async capture(accountId: AccountId, request: ResolvedRequest, match: LeadIdentityMatch, ignored: IgnoredFields, actor: Actor): Promise<LeadCaptureResult> {
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
    await writeLeadEnrichment({ contacts: this.contacts, journal: this.journal }, accountId, before, contact, enrichment, actor, now);

    if (outcome === 'created') return this.record(accountId, request, contact, false, ignored, actor, now);
    ignored.add('', 'submission_not_recorded', 'outcome');
    const replay = outcome === 'idempotent_replay' && last !== null;
    return this.result(request, {
      status: outcome,
      contactId: state.id,
      contactWasNew: false,
      ignored,
      activityId: replay ? last.activityId : null,
      originalCreatedAt: replay ? last.capturedAt : (last?.capturedAt ?? state.createdAt),
    });
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
  ): Promise<LeadCaptureResult> {
    const { lead, data } = request;
    const state = contact.snapshot;
    const tags = await this.tagsFor(accountId, request, now);
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
    await this.captures.record(
      accountId,
      { id: captureId, contactId: state.id, activityId, contactWasNew, capturedAt: now },
      { newContact: contactWasNew ? state : undefined, tagIds: tags.map((tag) => tag.id), journal: { entries: [entry], events } },
    );
    return this.result(request, { status: 'created', contactId: state.id, contactWasNew, ignored, activityId, originalCreatedAt: now });
  }

  private result(
    request: ResolvedRequest,
    outcome: {
      status: LeadCaptureResult['status'];
      contactId: string;
      contactWasNew: boolean;
      ignored: IgnoredFields;
      activityId: string | null;
      originalCreatedAt: Date;
    },
  ): LeadCaptureResult {
    const { stage, lead } = request;
    const { ignored_fields, ignored_fields_truncated } = outcome.ignored.toResponse();
    return {
      status: outcome.status,
      contact_id: outcome.contactId,
      contact_was_new: outcome.contactWasNew,
      pipeline: stage
        ? {
            pipeline_id: stage.pipelineId,
            pipeline_slug: stage.pipeline.slug,
            pipeline_name: stage.pipeline.name,
            stage_id: stage.id,
            stage_slug: stage.slug,
            stage_name: stage.name,
            deal_value: centsToDollars(lead.pipeline.dealValueCents),
            expected_close_date: lead.pipeline.expectedCloseDate,
          }
        : null,
      assignment_status: request.assignment,
      ignored_fields: ignored_fields as IgnoredField[],
      ignored_fields_truncated,
      activity_id: outcome.activityId,
      original_created_at: outcome.originalCreatedAt.toISOString(),
    };
  }
}

/** Rule 6: unknown → 422 `system_not_found` (standard envelope); inactive → the main System, `system_not_active`; omitted → main. */
function systemFor(systems: readonly SystemView[], lead: ParsedLead): string {
  const main = systems.find((system) => system.isMain) ?? systems.find((system) => system.isActive) ?? systems[0];
  const requested = lead.systemId;
  if (requested === undefined || requested === null || requested === '') {
    if (!main) throw new SystemNotFoundError();
    return main.id;
  }
  const wanted = isUuid(requested) ? systems.find((system) => system.id.toLowerCase() === requested.toLowerCase()) : undefined;
  if (!wanted) throw new SystemNotFoundError();
  if (wanted.isActive || !main) return wanted.id;
  lead.ignored.add('system_id', 'system_not_active');
  return main.id;
}

/**
 * Rule 5: the stage named (or the default one) in the pipeline named (or the default one); null when
 * the account has no default pipeline or it has no default stage. 422 `pipeline_not_found` /
 * `stage_not_found` (simplified) for a slug that names nothing. Slugs compare exactly.
 */
function stageFor(directory: PipelineDirectory, lead: ParsedLead): StageView | null {
  const { pipelineSlug, stageSlug } = lead.pipeline;
  const pipeline = directory.pipelines.find((item) => (pipelineSlug === null ? item.isDefault : item.slug === pipelineSlug)) ?? null;
  const stage = pipeline
    ? directory.stages.find((item) => item.pipelineId === pipeline.id && (stageSlug === null ? item.isDefault : item.slug === stageSlug))
    : undefined;
  if (stage) return stage;
  if (pipelineSlug !== null && !pipeline) {
    throw new LeadCaptureRejectedError('pipeline_not_found', `No pipeline "${pipelineSlug.slice(0, 120)}" in this account.`, [
      { field: 'pipeline.pipeline_slug', reason: 'not_found' },
    ]);
  }
  if (stageSlug !== null) {
    const where = pipeline ? `pipeline "${pipeline.slug}"` : 'the default pipeline';
    throw new LeadCaptureRejectedError('stage_not_found', `No stage "${stageSlug.slice(0, 120)}" in ${where}.`, [
      { field: 'pipeline.stage_slug', reason: 'not_found' },
    ]);
  }
  return null; // no default pipeline (or a pipeline without stages): the lead is captured without a stage
}

/** The sales rep named by email (case-insensitive), active and a sales rep; else ignored with `sales_rep_not_found`. */
function salesRepFor(members: readonly TeamMemberView[], lead: ParsedLead): { salesRepId: string | null; assignment: LeadAssignmentStatus } {
  const email = lead.pipeline.salesRepEmail;
  if (email === null) return { salesRepId: null, assignment: 'unassigned' };
  const rep = members.find((member) => member.email.toLowerCase() === email && member.isActive && member.isSalesRep);
  if (rep) return { salesRepId: rep.id, assignment: 'assigned' };
  lead.ignored.add('pipeline.assigned_sales_rep_email', 'sales_rep_not_found');
  return { salesRepId: null, assignment: 'sales_rep_not_found' };
}
