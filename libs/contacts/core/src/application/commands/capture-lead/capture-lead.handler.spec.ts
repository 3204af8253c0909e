import type { QueryBus } from '@nestjs/cqrs';
import { Actor, asAccountId, DomainError, FixedClock, newId } from '@leadflow/shared-kernel';
import type { SystemView, TeamMemberView } from '@leadflow/accounts-contracts';
import { FindStageQuery, PipelineView, StageView } from '@leadflow/pipeline-contracts';
import type { LeadCaptureResult } from '@leadflow/contacts-contracts';
import { InMemoryJournal, InMemoryUnitOfWork } from '@leadflow/shared-testing/fakes';
import { inMemoryContactPorts, InMemoryContactsStore, InMemoryLeadCaptureLog } from '../../../testing/in-memory-contacts';
import { InMemoryLeadCaptureSettings } from '../../../testing/in-memory-lead-capture-settings';
import { CaptureLeadCommand } from './capture-lead.command';
import { CaptureLeadHandler } from './capture-lead.handler';

const ACCOUNT = asAccountId('a0000000-0000-4000-8000-000000000001');
const OTHER_ACCOUNT = asAccountId('a0000000-0000-4000-8000-000000000002');
const ACTOR: Actor = { type: 'api_key', id: 'k1', name: 'capture', via: 'api_key' };
const MAIN = 'b0000000-0000-4000-8000-000000000001';
const LAVAL = 'b0000000-0000-4000-8000-000000000002';
const SYSTEMS: SystemView[] = [
  { id: MAIN, name: 'Main', isMain: true, isActive: true },
  { id: LAVAL, name: 'Laval', isMain: false, isActive: false },
];
const JULIE: TeamMemberView = { id: 'e0000000-0000-4000-8000-000000000001', email: 'julie@tremblay.test', firstName: 'Julie', lastName: 'Roy', isActive: true, isSalesRep: true, canDeleteProspects: false };

const VENTES: PipelineView = { id: 'c0000000-0000-4000-8000-000000000001', name: 'Ventes', slug: 'ventes', isDefault: true, dashboardOrder: 1 };
const RENO: PipelineView = { id: 'c0000000-0000-4000-8000-000000000002', name: 'Rénovation', slug: 'renovation', isDefault: false, dashboardOrder: 2 };
const stage = (pipeline: PipelineView, slug: string, order: number, flags: Partial<StageView> = {}): StageView => ({
  id: `d0000000-0000-4000-8000-0000000000${pipeline.dashboardOrder}${order}`,
  name: slug,
  slug,
  pipelineId: pipeline.id,
  pipeline: { id: pipeline.id, name: pipeline.name, slug: pipeline.slug, isDefault: pipeline.isDefault, dashboardOrder: pipeline.dashboardOrder },
  stageOrder: order,
  isDefault: false,
  isHidden: false,
  isWon: false,
  isLost: false,
  isDisqualification: false,
  ...flags,
});
const STAGES = [
  stage(VENTES, 'nouveau', 1, { isDefault: true }),
  stage(VENTES, 'soumission', 2),
  stage(VENTES, 'gagne', 3, { isWon: true }),
  stage(VENTES, 'perdu', 4, { isLost: true }),
  stage(RENO, 'premier-contact', 1, { isDefault: true }),
  stage(RENO, 'visite', 2),
];
const stageOf = (slug: string) => STAGES.find((item) => item.slug === slug)!;

/** The pipeline context's published FindStageQuery (the handler's fallback for a stage created after its settings were read), from fixtures. */
function fakeQueries(stages: readonly StageView[], asked: string[]): QueryBus {
  return {
    execute: async (query: unknown) => {
      if (query instanceof FindStageQuery) {
        asked.push(query.stageId);
        return stages.find((s) => s.id === query.stageId) ?? null;
      }
      throw new Error(`unexpected query ${String(query)}`);
    },
  } as unknown as QueryBus;
}

function setup(options: { pipelines?: boolean } = {}) {
  const store = new InMemoryContactsStore();
  const { contacts, identities, tags } = inMemoryContactPorts(store);
  const clock = new FixedClock(new Date('2026-05-14T13:00:00.000Z'));
  store.definitions.push(
    { id: 'f1', name: 'budget', type: 'text', options: null, accountId: ACCOUNT },
    { id: 'f2', name: 'type_projet', type: 'select', options: ['cuisine', 'salle_de_bain'], accountId: ACCOUNT },
  );
  const settings = new InMemoryLeadCaptureSettings(store, {
    systems: SYSTEMS,
    pipelines: options.pipelines === false ? [] : [VENTES, RENO],
    stages: options.pipelines === false ? [] : [...STAGES],
    teamMembers: [JULIE],
  });
  const stageQueries: string[] = [];
  const handler = new CaptureLeadHandler(
    contacts,
    identities,
    tags,
    new InMemoryLeadCaptureLog(store, contacts),
    new InMemoryUnitOfWork(store),
    new InMemoryJournal(store),
    settings,
    fakeQueries(STAGES, stageQueries),
    clock,
  );
  const capture = (body: unknown, accountId = ACCOUNT, terms = true) => handler.execute(new CaptureLeadCommand(accountId, body, ACTOR, terms));
  const contactOf = (id: string) => store.contacts.find((contact) => contact.id === id)!;
  return { store, contacts, tags, clock, capture, contactOf, settings, stageQueries };
}

async function refusal(work: Promise<unknown>): Promise<DomainError> {
  const error = await work.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof DomainError)) throw new Error(`expected a DomainError, got ${String(error)}`);
  return error;
}

const ELISE = { first_name: 'Élise', last_name: 'Côté', email: 'elise.cote@videotron.ca', phone: '(514) 555-0123', sms_consent: true };

describe('CaptureLeadHandler', () => {
  describe('outcome created (new contact)', () => {
    it('creates the contact in the default stage of the default pipeline and records activity, outbox events and the capture', async () => {
      const { capture, store, contactOf, clock } = setup();
      const result = await capture({ ...ELISE, tags: ['Cuisine'], custom_fields: { budget: '25k', type_projet: 'cuisine' }, source_label: 'Webflow' });
      expect(result).toEqual<LeadCaptureResult>({
        status: 'created',
        contact_id: expect.any(String),
        contact_was_new: true,
        pipeline: {
          pipeline_id: VENTES.id,
          pipeline_slug: 'ventes',
          pipeline_name: 'Ventes',
          stage_id: stageOf('nouveau').id,
          stage_slug: 'nouveau',
          stage_name: 'nouveau',
          deal_value: null,
          expected_close_date: null,
        },
        assignment_status: 'unassigned',
        ignored_fields: [],
        ignored_fields_truncated: false,
        activity_id: store.entries[0].id,
        original_created_at: clock.now().toISOString(),
      });
      expect(contactOf(result.contact_id)).toMatchObject({
        email: 'elise.cote@videotron.ca',
        phone: '+15145550123',
        firstName: 'Élise',
        source: 'api',
        systemId: MAIN,
        pipelineId: VENTES.id,
        stageId: stageOf('nouveau').id,
        customFields: { f1: '25k', f2: 'cuisine' },
        sourceLabel: 'Webflow',
      });
      expect(store.identities.map(({ kind, value, isPrimary }) => ({ kind, value, isPrimary }))).toEqual([
        { kind: 'email', value: 'elise.cote@videotron.ca', isPrimary: true },
        { kind: 'phone', value: '+15145550123', isPrimary: true },
      ]);
      expect(store.entries).toEqual([expect.objectContaining({ type: 'lead_created', contactId: result.contact_id, actor: ACTOR })]);
      expect(store.events.map((event) => event.type)).toEqual(['contact_created', 'stage_changed', 'lead_created']);
      expect(store.events[1].payload).toMatchObject({ contact_id: result.contact_id, from_stage_id: null, to_stage_id: result.pipeline?.stage_id });
      expect(store.events[2].payload).toMatchObject({ contact_id: result.contact_id, contact_was_new: true, phone: '+15145550123', sms_consent: true, activity_id: result.activity_id });
      expect(store.captures).toEqual([expect.objectContaining({ contactId: result.contact_id, activityId: result.activity_id, capturedAt: clock.now() })]);
      expect(store.tags.map((tag) => tag.name)).toEqual(['Cuisine']);
      expect(store.contactTags).toEqual([expect.objectContaining({ contactId: result.contact_id, tagId: store.tags[0].id })]);
    });

    it('the account has no pipeline: the lead is captured without a stage (pipeline null)', async () => {
      const { capture, contactOf } = setup({ pipelines: false });
      const result = await capture(ELISE);
      expect(result.pipeline).toBeNull();
      expect(contactOf(result.contact_id).stageId).toBeNull();
    });
  });

  describe('refusals write nothing', () => {
    it('403 terms_acceptance_required when the account has not accepted the API terms', async () => {
      const { capture, store } = setup();
      const error = await refusal(capture(ELISE, ACCOUNT, false));
      expect(error.code).toBe('terms_acceptance_required');
      expect(error.options.simplified).toBeFalsy();
      expect(store.contacts).toEqual([]);
    });

    it('422 system_not_found in the standard envelope for a System of another account or not a UUID', async () => {
      const { capture, store } = setup();
      for (const system_id of [newId(), 'main', 12]) {
        const error = await refusal(capture({ ...ELISE, system_id }));
        expect(error.code).toBe('system_not_found');
        expect(error.options.simplified).toBeFalsy();
      }
      expect(store.contacts).toEqual([]);
    });

    it.each([
      [{ pipeline_slug: 'commercial', stage_slug: 'x' }, 'pipeline_not_found', 'pipeline.pipeline_slug'],
      [{ stage_slug: 'visite' }, 'stage_not_found', 'pipeline.stage_slug'],
      [{ pipeline_slug: 'renovation', stage_slug: 'soumission' }, 'stage_not_found', 'pipeline.stage_slug'],
    ])('pipeline %p: 422 %s (simplified, field %s)', async (pipeline, code, field) => {
      const { capture, store } = setup();
      const error = await refusal(capture({ ...ELISE, pipeline }));
      expect(error).toMatchObject({ code, details: [{ field, reason: 'not_found' }] });
      expect(error.options.simplified).toBe(true);
      expect(store.contacts).toEqual([]);
      expect(store.entries).toEqual([]);
    });
  });

  describe('pipeline block, System and sales rep', () => {
    it('places the lead in the named stage with deal value, close date and sales rep', async () => {
      const { capture, contactOf } = setup();
      const result = await capture({
        ...ELISE,
        pipeline: { pipeline_slug: 'renovation', stage_slug: 'visite', deal_value: 45000, expected_close_date: '2026-09-30', assigned_sales_rep_email: 'JULIE@tremblay.test' },
      });
      expect(result).toMatchObject({ assignment_status: 'assigned', ignored_fields: [], pipeline: { stage_slug: 'visite', deal_value: 45000, expected_close_date: '2026-09-30' } });
      expect(contactOf(result.contact_id)).toMatchObject({
        pipelineId: RENO.id,
        stageId: stageOf('visite').id,
        dealValueCents: 4500000,
        expectedCloseDate: '2026-09-30',
        salesRepId: JULIE.id,
      });
    });

    it('without pipeline_slug the stage is looked up in the default pipeline', async () => {
      const { capture, contactOf } = setup();
      const result = await capture({ ...ELISE, 'pipeline.stage_slug': 'soumission' });
      expect(contactOf(result.contact_id).stageId).toBe(stageOf('soumission').id);
    });

    it('an unknown sales rep is ignored with sales_rep_not_found', async () => {
      const { capture, contactOf } = setup();
      const result = await capture({ ...ELISE, pipeline: { assigned_sales_rep_email: 'marc@tremblay.test' } });
      expect(result).toMatchObject({ assignment_status: 'sales_rep_not_found', ignored_fields: [{ field: 'pipeline.assigned_sales_rep_email', reason: 'sales_rep_not_found' }] });
      expect(contactOf(result.contact_id).salesRepId).toBeNull();
    });

    it('an inactive System sends the lead to the main System with system_not_active', async () => {
      const { capture, contactOf } = setup();
      const result = await capture({ ...ELISE, system_id: LAVAL });
      expect(result.ignored_fields).toEqual([{ field: 'system_id', reason: 'system_not_active' }]);
      expect(contactOf(result.contact_id).systemId).toBe(MAIN);
    });
  });

  describe('resolution and enrichment of an existing contact', () => {
    it('resolves by email case-insensitively, within 5 minutes: idempotent_replay, custom fields refreshed, nothing recorded', async () => {
      const { capture, store, contactOf, clock } = setup();
      const first = await capture({ ...ELISE, custom_fields: { budget: '25k' }, tags: ['Cuisine'] });
      clock.advance(60_000);
      const second = await capture({ email: 'ELISE.COTE@VIDEOTRON.CA', phone: '514 555 0199', sms_consent: 'oui', first_name: 'Elise', tags: ['Mobile'], custom_fields: { budget: '40k' } });
      expect(second).toMatchObject({
        status: 'idempotent_replay',
        contact_id: first.contact_id,
        contact_was_new: false,
        activity_id: first.activity_id,
        original_created_at: first.original_created_at,
        ignored_fields: [{ field: '', reason: 'submission_not_recorded' }],
      });
      expect(contactOf(first.contact_id)).toMatchObject({ firstName: 'Élise', customFields: { f1: '40k' } });
      expect(store.entries).toHaveLength(1);
      expect(store.events.filter((event) => event.type === 'lead_created')).toHaveLength(1);
      expect(store.captures).toHaveLength(1);
      expect(store.tags.map((tag) => tag.name)).toEqual(['Cuisine']);
    });

    it('resolves by a phone in another format, and by a secondary phone', async () => {
      const { capture, clock, store } = setup();
      const first = await capture({ ...ELISE, pipeline: { stage_slug: 'gagne' } });
      clock.advance(6 * 60_000);
      const second = await capture({ email: 'elise.cote@videotron.ca', phone: '438.555.0161', sms_consent: true });
      expect(second).toMatchObject({ status: 'created', contact_was_new: false, contact_id: first.contact_id });
      expect(store.identities.filter((row) => row.kind === 'phone').map(({ value, isPrimary }) => ({ value, isPrimary }))).toEqual([
        { value: '+15145550123', isPrimary: true },
        { value: '+14385550161', isPrimary: false },
      ]);
      const third = await capture({ phone: '(438) 555-0161', sms_consent: true });
      expect(third).toMatchObject({ status: 'idempotent_replay', contact_id: first.contact_id });
      const fourth = await capture({ phone: 15145550123, sms_consent: true });
      expect(fourth.contact_id).toBe(first.contact_id);
    });

    it('email wins when email and phone match two contacts; nothing is removed from the other', async () => {
      const { capture, store, contactOf } = setup();
      const helene = await capture({ email: 'helene@bell.net', phone: '514-555-0121', sms_consent: true });
      const mathieu = await capture({ email: 'mathieu@gmail.com', phone: '514-555-0122', sms_consent: true });
      const result = await capture({ email: 'helene@bell.net', phone: '514.555.0122', sms_consent: true });
      expect(result.contact_id).toBe(helene.contact_id);
      expect(contactOf(mathieu.contact_id).phone).toBe('+15145550122');
      expect(store.identities.find((row) => row.value === '+15145550122')?.contactId).toBe(mathieu.contact_id);
      expect(store.contacts).toHaveLength(2);
    });

    it('never overwrites filled core fields; completes empty ones (address, names, email)', async () => {
      const { capture, clock, contactOf } = setup();
      const first = await capture({ phone: '450 555 0144', sms_consent: true, first_name: 'Gaétan', city: 'Laval', pipeline: { stage_slug: 'gagne', deal_value: 18500 } });
      clock.advance(6 * 60_000);
      const second = await capture({
        phone: '450 555 0144',
        sms_consent: true,
        first_name: 'Gaetan',
        last_name: 'Rousseau',
        email: 'gaetan@cgocable.ca',
        city: 'Terrebonne',
        street: '118, rue des Érables',
        pipeline: { pipeline_slug: 'renovation', stage_slug: 'visite', deal_value: 99 },
      });
      expect(second).toMatchObject({ status: 'created', contact_was_new: false });
      expect(second.ignored_fields).toEqual([
        { field: 'pipeline.pipeline_slug', reason: 'existing_contact_kept' },
        { field: 'pipeline.stage_slug', reason: 'existing_contact_kept' },
        { field: 'pipeline.deal_value', reason: 'existing_contact_kept' },
      ]);
      expect(second.pipeline).toMatchObject({ pipeline_slug: 'renovation', stage_slug: 'visite', deal_value: 99 });
      expect(contactOf(first.contact_id)).toMatchObject({
        firstName: 'Gaétan',
        lastName: 'Rousseau',
        email: 'gaetan@cgocable.ca',
        stageId: stageOf('gagne').id,
        dealValueCents: 1850000,
        addressParts: expect.objectContaining({ city: 'Laval', street: '118, rue des Érables' }),
      });
    });

    it('first-touch attribution is kept once set', async () => {
      const { capture, clock, contactOf } = setup();
      const first = await capture({ ...ELISE, pipeline: { stage_slug: 'perdu' }, utm: { source: 'facebook' } });
      clock.advance(6 * 60_000);
      await capture({ ...ELISE, gclid: 'abc' });
      expect(contactOf(first.contact_id).attribution).toEqual({ source: 'facebook' });
    });

    it('existing_pipeline_contact after the window in an open stage: activity_id null, nothing recorded', async () => {
      const { capture, clock, store } = setup();
      const first = await capture(ELISE);
      clock.advance(6 * 60_000);
      const later = await capture({ ...ELISE, tags: ['Autre'] });
      expect(later).toMatchObject({
        status: 'existing_pipeline_contact',
        contact_id: first.contact_id,
        contact_was_new: false,
        activity_id: null,
        ignored_fields: [{ field: '', reason: 'submission_not_recorded' }],
        original_created_at: first.original_created_at,
      });
      expect(store.entries).toHaveLength(1);
      expect(store.captures).toHaveLength(1);
      expect(store.tags.map((tag) => tag.name)).toEqual([]);
    });

    it('an archived contact in an open stage is not in an open stage: created, not new', async () => {
      const { capture, clock, store } = setup();
      const first = await capture(ELISE);
      store.contacts[0].archivedAt = clock.now();
      clock.advance(6 * 60_000);
      expect(await capture(ELISE)).toMatchObject({ status: 'created', contact_was_new: false, contact_id: first.contact_id });
    });

    it('the same email in two accounts gives two contacts', async () => {
      const { capture, store } = setup();
      const one = await capture(ELISE);
      const two = await capture(ELISE, OTHER_ACCOUNT);
      expect(one.contact_id).not.toBe(two.contact_id);
      expect(two.contact_was_new).toBe(true);
      expect(store.contacts).toHaveLength(2);
    });
  });

  describe('settings read before the transaction (LeadCaptureSettings)', () => {
    it('tags that exist are attached as read; only the missing ones are created, and the order sent is kept', async () => {
      const { capture, store, tags } = setup();
      const existing = await tags.ensureTags(ACCOUNT, ['Facebook Ads'], { color: '#ff0000' }, new Date());
      const ensure = jest.spyOn(tags, 'ensureTags');
      const result = await capture({ ...ELISE, tags: ['Cuisine', 'Facebook Ads'] });
      expect(ensure.mock.calls.map(([, names]) => names)).toEqual([['Cuisine']]);
      expect(store.entries[0].data).toMatchObject({ tags: ['Cuisine', 'Facebook Ads'] });
      const attached = store.contactTags.filter((row) => row.contactId === result.contact_id).map((row) => row.tagId);
      expect(attached).toEqual([store.tags.find((tag) => tag.name === 'Cuisine')!.id, existing[0].id]);
      expect(store.tags.find((tag) => tag.name === 'Facebook Ads')!.color).toBe('#ff0000');
    });

    it('the next capture uses settings changed since the previous one (a stage added to the account)', async () => {
      const { capture, settings } = setup();
      const refused = await refusal(capture({ ...ELISE, pipeline: { stage_slug: 'relance' } }));
      expect(refused.code).toBe('stage_not_found');
      const relance = stage(VENTES, 'relance', 5);
      settings.fixtures.stages.push(relance);
      const result = await capture({ ...ELISE, pipeline: { stage_slug: 'relance' } });
      expect(result.pipeline).toMatchObject({ stage_id: relance.id, stage_slug: 'relance' });
    });

    it("an existing contact's stage is found among the stages read before the transaction, without asking the pipeline context", async () => {
      const { capture, clock, stageQueries } = setup();
      await capture(ELISE);
      clock.advance(6 * 60_000);
      expect(await capture(ELISE)).toMatchObject({ status: 'existing_pipeline_contact' });
      expect(stageQueries).toEqual([]);
    });

    it('a stage missing from them (created since they were read) is asked to the pipeline context, and its flags decide the outcome', async () => {
      const { capture, clock, settings, stageQueries } = setup();
      const first = await capture({ ...ELISE, pipeline: { stage_slug: 'soumission' } });
      settings.fixtures.stages = settings.fixtures.stages.filter((item) => item.slug !== 'soumission');
      clock.advance(6 * 60_000);
      expect(await capture(ELISE)).toMatchObject({ status: 'existing_pipeline_contact', contact_id: first.contact_id }); // an open stage
      expect(stageQueries).toEqual([stageOf('soumission').id]);
    });
  });

  describe('race safety', () => {
    it('a concurrent capture of the same new person wins the identity race: the attempt rolls back, starts over and finds its contact (replay)', async () => {
      const { capture, contacts, store, clock } = setup();
      const existingId = newId();
      let injected = false;
      contacts.beforeIdentityInsert = () => {
        if (injected) return;
        injected = true;
        store.commitConcurrently((concurrent) => {
          concurrent.contacts.push({
            id: existingId,
            accountId: ACCOUNT,
            firstName: 'Élise',
            lastName: 'Côté',
            email: 'elise.cote@videotron.ca',
            phone: '+15145550123',
            company: null,
            dealValueCents: null,
            customFields: {},
            isPriority: false,
            notes: null,
            source: 'api',
            systemId: MAIN,
            pipelineId: VENTES.id,
            stageId: stageOf('nouveau').id,
            salesRepId: null,
            attribution: {},
            addressParts: { address: null, postalCode: null, addressPlaceId: null, street: null, city: null, sector: null, province: null, country: null },
            sourceLabel: null,
            expectedCloseDate: null,
            archivedAt: null,
            mergedIntoId: null,
            mergedAt: null,
            disqualifiedAt: null,
            score: 0,
            scoreReviewAt: null,
            createdAt: clock.now(),
            updatedAt: clock.now(),
          });
          concurrent.identities.push(
            { accountId: ACCOUNT, contactId: existingId, kind: 'email', value: 'elise.cote@videotron.ca', isPrimary: true },
            { accountId: ACCOUNT, contactId: existingId, kind: 'phone', value: '+15145550123', isPrimary: true },
          );
          concurrent.captures.push({ id: newId(), accountId: ACCOUNT, contactId: existingId, activityId: newId(), contactWasNew: true, capturedAt: clock.now() });
        });
      };
      const result = await capture(ELISE);
      expect(result).toMatchObject({ status: 'idempotent_replay', contact_id: existingId, contact_was_new: false });
      expect(store.contacts.map((contact) => contact.id)).toEqual([existingId]);
      expect(store.entries).toEqual([]);
    });
  });
});
