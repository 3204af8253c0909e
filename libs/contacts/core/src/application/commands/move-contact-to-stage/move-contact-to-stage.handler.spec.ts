import { newId } from '@leadflow/shared-kernel';
import { MoveContactToStageCommand } from '@leadflow/contacts-contracts';
import { aiFollowUpStoppedAt } from '../../../testing/in-memory-contacts.store';
import { ACCOUNT, ACTOR, contactStageSetup, LOST, NEW, OTHER_ACCOUNT, QUOTED, refusal, RENTAL_NEW, RENTALS, SALES, target } from '../../../testing/contact-stage.kit';

const setup = contactStageSetup;

describe('MoveContactToStageHandler (public-api-v1 › States › Deal)', () => {
  it('no stage → a stage: writes the stage, a stage_changed timeline entry and outbox event, and stops AI follow-up', async () => {
    const { add, move, store, stored, clock } = setup();
    const contact = add();
    const change = await move.execute(new MoveContactToStageCommand(ACCOUNT, contact.id, target(NEW), ACTOR));
    const now = clock.now();
    expect(change).toMatchObject({ pipelineId: SALES, stageId: NEW, previousPipelineId: null, previousStageId: null, changed: true });
    expect(change.contact).toMatchObject({ id: contact.id, updated_at: now.toISOString() });
    expect(stored(contact.id)).toMatchObject({ pipelineId: SALES, stageId: NEW, updatedAt: now });
    expect(aiFollowUpStoppedAt(store, contact.id)).toEqual(now);
    expect(store.entries).toEqual([
      expect.objectContaining({
        accountId: ACCOUNT,
        contactId: contact.id,
        type: 'stage_changed',
        actor: ACTOR,
        data: { pipeline_id: SALES, from_stage_id: null, to_stage_id: NEW },
      }),
    ]);
    expect(store.events).toEqual([
      {
        id: expect.any(String),
        type: 'stage_changed',
        accountId: ACCOUNT,
        actor: ACTOR,
        occurredAt: now,
        payload: { contact_id: contact.id, pipeline_id: SALES, from_stage_id: null, to_stage_id: NEW },
      },
    ]);
  });

  it('in a stage → another stage of the same pipeline: from/to recorded; the first human decision instant is kept', async () => {
    const { add, move, store, clock } = setup();
    const contact = add();
    await move.execute(new MoveContactToStageCommand(ACCOUNT, contact.id, target(NEW), ACTOR));
    const firstDecision = clock.now();
    clock.advance(60_000);
    const change = await move.execute(new MoveContactToStageCommand(ACCOUNT, contact.id, target(QUOTED), ACTOR, { requireDeal: true }));
    expect(change).toMatchObject({ stageId: QUOTED, previousStageId: NEW, changed: true });
    expect(store.events.map((event) => event.payload)).toEqual([
      { contact_id: contact.id, pipeline_id: SALES, from_stage_id: null, to_stage_id: NEW },
      { contact_id: contact.id, pipeline_id: SALES, from_stage_id: NEW, to_stage_id: QUOTED },
    ]);
    expect(aiFollowUpStoppedAt(store, contact.id)).toEqual(firstDecision);
  });

  it('a contact without stage may enter any pipeline', async () => {
    const { add, move, stored } = setup();
    const contact = add({ pipelineId: SALES, stageId: null });
    await move.execute(new MoveContactToStageCommand(ACCOUNT, contact.id, target(RENTAL_NEW, RENTALS), ACTOR));
    expect(stored(contact.id)).toMatchObject({ pipelineId: RENTALS, stageId: RENTAL_NEW });
  });

  it('already in the target stage: answers the deal, writes nothing', async () => {
    const { add, move, store } = setup();
    const contact = add({ pipelineId: SALES, stageId: NEW });
    const before = store.snapshot();
    const change = await move.execute(new MoveContactToStageCommand(ACCOUNT, contact.id, target(NEW), ACTOR));
    expect(change).toMatchObject({ stageId: NEW, previousStageId: NEW, changed: false });
    expect(store.snapshot()).toBe(before);
  });

  it('an automation move (stopsAiFollowUp false) does not stop AI follow-up', async () => {
    const { add, move, store } = setup();
    const contact = add();
    await move.execute(new MoveContactToStageCommand(ACCOUNT, contact.id, target(NEW), ACTOR, { stopsAiFollowUp: false }));
    expect(aiFollowUpStoppedAt(store, contact.id)).toBeNull();
  });

  describe('refusals write nothing', () => {
    it.each([
      ['missing contact', () => newId(), 'not_found', { resource: 'contact', field: 'contact_id' }],
      ['merged contact', (s: ReturnType<typeof setup>) => s.add({ mergedIntoId: s.add().id }).id, 'not_found', { resource: 'contact', field: 'contact_id' }],
      ["another account's contact", (s: ReturnType<typeof setup>) => s.add({}, OTHER_ACCOUNT).id, 'not_found', { resource: 'contact', field: 'contact_id' }],
      ['archived contact', (s: ReturnType<typeof setup>) => s.add({ archivedAt: new Date() }).id, 'business_rule_violation', { reason: 'contact_archived' }],
      [
        'contact in a stage of another pipeline',
        (s: ReturnType<typeof setup>) => s.add({ pipelineId: RENTALS, stageId: RENTAL_NEW }).id,
        'business_rule_violation',
        { reason: 'other_pipeline', field: 'stage_id' },
      ],
      ['disqualified lead to an open stage', (s: ReturnType<typeof setup>) => s.add({ disqualifiedAt: new Date() }).id, 'lead_disqualified', { field: 'stage_id' }],
    ])('%s', async (_, contactOf, code, details) => {
      const s = setup();
      const contactId = contactOf(s);
      const before = s.store.snapshot();
      const error = await refusal(s.move.execute(new MoveContactToStageCommand(ACCOUNT, contactId, target(NEW), ACTOR, { contactField: 'contact_id' })));
      expect({ code: error.code, details: error.details }).toEqual({ code, details });
      expect(s.store.snapshot()).toBe(before);
    });

    it('archived is checked before other_pipeline, other_pipeline before lead_disqualified', async () => {
      const s = setup();
      const everything = s.add({ archivedAt: new Date(), disqualifiedAt: new Date(), pipelineId: RENTALS, stageId: RENTAL_NEW });
      expect((await refusal(s.move.execute(new MoveContactToStageCommand(ACCOUNT, everything.id, target(NEW), ACTOR)))).details).toEqual({ reason: 'contact_archived' });
      const elsewhere = s.add({ disqualifiedAt: new Date(), pipelineId: RENTALS, stageId: RENTAL_NEW });
      expect((await refusal(s.move.execute(new MoveContactToStageCommand(ACCOUNT, elsewhere.id, target(LOST, SALES, true), ACTOR)))).details).toEqual({
        reason: 'other_pipeline',
        field: 'stage_id',
      });
    });

    it('requireDeal: a contact without stage answers 404 not_found (resource deal)', async () => {
      const s = setup();
      const contact = s.add();
      const error = await refusal(s.move.execute(new MoveContactToStageCommand(ACCOUNT, contact.id, target(NEW), ACTOR, { requireDeal: true })));
      expect({ code: error.code, details: error.details }).toEqual({ code: 'not_found', details: { resource: 'deal' } });
      expect(s.store.events).toEqual([]);
    });
  });

  it('a disqualified lead may still go to a lost or disqualification stage', async () => {
    const { add, move, stored } = setup();
    const contact = add({ disqualifiedAt: new Date() });
    await move.execute(new MoveContactToStageCommand(ACCOUNT, contact.id, target(LOST, SALES, true), ACTOR));
    expect(stored(contact.id)).toMatchObject({ stageId: LOST });
  });

  it('atomicity: when the outbox write fails, nothing is written (stage, AI follow-up marker, timeline entry)', async () => {
    const s = setup({ failingOutbox: true });
    const contact = s.add({ pipelineId: SALES, stageId: NEW });
    const before = s.store.snapshot();
    await expect(s.move.execute(new MoveContactToStageCommand(ACCOUNT, contact.id, target(QUOTED), ACTOR))).rejects.toThrow('outbox unavailable');
    expect(s.store.snapshot()).toBe(before);
    expect(s.stored(contact.id)).toMatchObject({ stageId: NEW });
    expect(aiFollowUpStoppedAt(s.store, contact.id)).toBeNull();
    expect(s.store.entries).toEqual([]);
    expect(s.store.events).toEqual([]);
  });
});
