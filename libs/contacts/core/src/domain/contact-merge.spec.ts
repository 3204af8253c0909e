import { asAccountId } from '@leadflow/shared-kernel';
import { EMPTY_ADDRESS, type ContactState } from './contact.aggregate';
import { planContactMerge } from './contact-merge';

const NOW = new Date('2027-03-01T12:00:00.000Z');
const BEFORE = new Date('2027-01-01T12:00:00.000Z');

function contact(id: string, values: Partial<ContactState> = {}): ContactState {
  return {
    id,
    accountId: asAccountId('a0000000-0000-4000-8000-000000000001'),
    firstName: null,
    lastName: null,
    email: null,
    phone: null,
    company: null,
    dealValueCents: null,
    customFields: {},
    isPriority: false,
    notes: null,
    source: 'api',
    systemId: 'b0000000-0000-4000-8000-000000000001',
    pipelineId: null,
    stageId: null,
    salesRepId: null,
    attribution: {},
    addressParts: { ...EMPTY_ADDRESS },
    sourceLabel: null,
    expectedCloseDate: null,
    archivedAt: null,
    mergedIntoId: null,
    mergedAt: null,
    disqualifiedAt: null,
    score: 10,
    scoreReviewAt: null,
    createdAt: BEFORE,
    updatedAt: BEFORE,
    ...values,
  };
}

describe('planContactMerge (POST /v1/contacts/{id}/merge field rules)', () => {
  it('the survivor keeps its filled fields and fills its empty ones; kept names a dropped other value, filled a filled one', () => {
    const survivor = contact('s', { firstName: 'Julie', email: 'julie@example.com', customFields: { budget: '5000' } });
    const merged = contact('m', { firstName: 'Juliette', lastName: 'Tremblay', company: 'Toitures Tremblay', customFields: { budget: '9000', projet: 'cuisine' } });
    const plan = planContactMerge(merged, survivor, [], NOW);
    expect(plan.survivor).toMatchObject({ firstName: 'Julie', lastName: 'Tremblay', company: 'Toitures Tremblay', customFields: { budget: '5000', projet: 'cuisine' }, updatedAt: NOW });
    expect(plan.kept).toEqual(['first_name', 'custom_fields.budget']);
    expect(plan.filled).toEqual(['last_name', 'company', 'custom_fields.projet']);
  });

  it('equal values are neither kept nor filled; nothing to fill leaves the survivor as it was', () => {
    const survivor = contact('s', { firstName: 'Julie' });
    const plan = planContactMerge(contact('m', { firstName: 'Julie' }), survivor, [], NOW);
    expect(plan).toMatchObject({ kept: [], filled: [] });
    expect(plan.survivor).toBe(survivor);
  });

  it("every identity of the merged contact moves: its primary fills the survivor's empty primary, the others become secondary", () => {
    const survivor = contact('s', { email: 'julie@example.com' });
    const merged = contact('m', { email: 'j.tremblay@example.com', phone: '+15145550142' });
    const plan = planContactMerge(
      merged,
      survivor,
      [
        { kind: 'email', value: 'j.tremblay@example.com', isPrimary: true },
        { kind: 'phone', value: '+15145550142', isPrimary: true },
        { kind: 'phone', value: '+14185550199', isPrimary: false },
      ],
      NOW,
    );
    expect(plan.survivor).toMatchObject({ email: 'julie@example.com', phone: '+15145550142' });
    expect(plan.identities).toEqual([
      { kind: 'email', value: 'j.tremblay@example.com', primary: false },
      { kind: 'phone', value: '+15145550142', primary: true },
      { kind: 'phone', value: '+14185550199', primary: false },
    ]);
    expect(plan.merged).toMatchObject({ email: null, phone: null, mergedIntoId: null });
    expect(plan.kept).toEqual(['email']);
    expect(plan.filled).toEqual(['phone']);
  });

  it("the deal moves when the survivor is in no stage and not archived; otherwise the survivor's stage is kept", () => {
    const merged = contact('m', { pipelineId: 'p1', stageId: 'st1', salesRepId: 'rep', expectedCloseDate: '2027-06-30' });
    const moved = planContactMerge(merged, contact('s'), [], NOW);
    expect(moved.dealMoved).toBe(true);
    expect(moved.survivor).toMatchObject({ pipelineId: 'p1', stageId: 'st1', salesRepId: 'rep', expectedCloseDate: '2027-06-30' });
    const inStage = planContactMerge(merged, contact('s', { pipelineId: 'p1', stageId: 'st2' }), [], NOW);
    expect(inStage.dealMoved).toBe(false);
    expect(inStage.survivor.stageId).toBe('st2');
    expect(inStage.kept).toContain('stage_id');
    const archived = planContactMerge(merged, contact('s', { archivedAt: BEFORE }), [], NOW);
    expect(archived.dealMoved).toBe(false);
    expect(archived.survivor.stageId).toBeNull();
  });

  it('is_priority is true when either is; first-touch attribution is filled only when the survivor has none', () => {
    const plan = planContactMerge(contact('m', { isPriority: true, attribution: { source: 'google' } }), contact('s'), [], NOW);
    expect(plan.survivor).toMatchObject({ isPriority: true, attribution: { source: 'google' } });
    expect(plan.filled).toEqual(['is_priority', 'attribution']);
    const kept = planContactMerge(contact('m', { attribution: { source: 'google' } }), contact('s', { attribution: { source: 'facebook' } }), [], NOW);
    expect(kept.survivor.attribution).toEqual({ source: 'facebook' });
    expect(kept.kept).toEqual(['attribution']);
  });
});
