import { newId } from '@leadflow/shared-kernel';
import { RemoveContactFromPipelineCommand } from '@leadflow/contacts-contracts';
import { ACCOUNT, ACTOR, contactStageSetup, NEW, OTHER_ACCOUNT, QUOTED, refusal, SALES } from '../../../testing/contact-stage.kit';

const setup = contactStageSetup;

describe('RemoveContactFromPipelineHandler (DELETE /v1/pipeline/deals/{id})', () => {
  it('sets the stage and pipeline to none, keeps the contact, records stage_changed with to_stage_id null', async () => {
    const { add, remove, store, stored, clock } = setup();
    const contact = add({ pipelineId: SALES, stageId: QUOTED });
    const change = await remove.execute(new RemoveContactFromPipelineCommand(ACCOUNT, contact.id, ACTOR));
    expect(change).toMatchObject({ pipelineId: null, stageId: null, previousPipelineId: SALES, previousStageId: QUOTED, changed: true });
    expect(stored(contact.id)).toMatchObject({ pipelineId: null, stageId: null, updatedAt: clock.now() });
    expect(store.entries.map((entry) => entry.data)).toEqual([{ pipeline_id: SALES, from_stage_id: QUOTED, to_stage_id: null }]);
    expect(store.events.map((event) => [event.type, event.payload])).toEqual([
      ['stage_changed', { contact_id: contact.id, pipeline_id: SALES, from_stage_id: QUOTED, to_stage_id: null }],
    ]);
  });

  it.each([
    ['not a deal', (s: ReturnType<typeof setup>) => s.add().id, 'not_found', { resource: 'deal' }],
    ['missing', () => newId(), 'not_found', { resource: 'deal' }],
    ['merged', (s: ReturnType<typeof setup>) => s.add({ pipelineId: SALES, stageId: NEW, mergedIntoId: s.add().id }).id, 'not_found', { resource: 'deal' }],
    ["another account's deal", (s: ReturnType<typeof setup>) => s.add({ pipelineId: SALES, stageId: NEW }, OTHER_ACCOUNT).id, 'not_found', { resource: 'deal' }],
    ['archived', (s: ReturnType<typeof setup>) => s.add({ pipelineId: SALES, stageId: NEW, archivedAt: new Date() }).id, 'business_rule_violation', { reason: 'contact_archived' }],
  ])('%s: refused, nothing written', async (_, contactOf, code, details) => {
    const s = setup();
    const contactId = contactOf(s);
    const before = s.store.snapshot();
    const error = await refusal(s.remove.execute(new RemoveContactFromPipelineCommand(ACCOUNT, contactId, ACTOR)));
    expect({ code: error.code, details: error.details }).toEqual({ code, details });
    expect(s.store.snapshot()).toBe(before);
  });

  it('atomicity: when the outbox write fails the deal keeps its stage', async () => {
    const s = setup({ failingOutbox: true });
    const contact = s.add({ pipelineId: SALES, stageId: NEW });
    await expect(s.remove.execute(new RemoveContactFromPipelineCommand(ACCOUNT, contact.id, ACTOR))).rejects.toThrow('outbox unavailable');
    expect(s.stored(contact.id)).toMatchObject({ pipelineId: SALES, stageId: NEW });
    expect(s.store.entries).toEqual([]);
  });
});
