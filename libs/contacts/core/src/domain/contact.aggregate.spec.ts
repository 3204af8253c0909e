import { asAccountId, DomainError } from '@leadflow/shared-kernel';
import { Contact, ContactPatch, NewContactInput } from './contact.aggregate';
import type { CustomFieldDefinition } from './custom-fields';

const NOW = new Date('2026-03-01T12:00:00.000Z');
const LATER = new Date('2026-03-02T12:00:00.000Z');
const DEFINITIONS: CustomFieldDefinition[] = [
  { id: '11111111-1111-4111-8111-111111111111', name: 'budget', type: 'text', options: null },
  { id: '22222222-2222-4222-8222-222222222222', name: 'superficie', type: 'number', options: null },
];

function create(input: NewContactInput, definitions = DEFINITIONS): Contact {
  return Contact.create(input, { id: 'c1', accountId: asAccountId('a1'), systemId: 's1', source: 'api', now: NOW, definitions });
}

function refusal(work: () => unknown): DomainError {
  try {
    work();
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  throw new Error('expected a DomainError');
}

describe('POST /v1/contacts rules (Contact.create)', () => {
  it('stores email in lowercase, phone in E.164, the deal value in cents, source api', () => {
    const contact = create({ email: 'Julie@Tremblay.TEST', phone: '514-555-0123', firstName: ' Julie ', dealValue: 1500.5 });
    expect(contact.snapshot).toMatchObject({
      email: 'julie@tremblay.test',
      phone: '+15145550123',
      firstName: 'Julie',
      dealValueCents: 150050,
      source: 'api',
      systemId: 's1',
      isPriority: false,
      customFields: {},
      createdAt: NOW,
      updatedAt: NOW,
    });
    expect(contact.identities()).toEqual([
      { kind: 'email', value: 'julie@tremblay.test' },
      { kind: 'phone', value: '+15145550123' },
    ]);
  });

  it('email or phone is required (identity_required on both)', () => {
    const error = refusal(() => create({ firstName: 'Julie', email: '  ' }));
    expect(error.code).toBe('validation_error');
    expect(error.details).toEqual([
      expect.objectContaining({ field: 'email', reason: 'identity_required' }),
      expect.objectContaining({ field: 'phone', reason: 'identity_required' }),
    ]);
  });

  it('an invalid phone gives validation_error reason invalid_phone', () => {
    const error = refusal(() => create({ phone: '123' }));
    expect(error.code).toBe('validation_error');
    expect(error.details).toEqual([expect.objectContaining({ field: 'phone', reason: 'invalid_phone' })]);
  });

  it('deal_value accepts positive amounts with at most two decimals', () => {
    for (const dealValue of [0, -1, 10.001]) {
      expect(refusal(() => create({ email: 'a@b.co', dealValue })).details).toEqual([
        expect.objectContaining({ field: 'deal_value', reason: 'invalid_value' }),
      ]);
    }
  });

  it('custom fields are keyed by definition id; unknown keys give invalid_custom_fields', () => {
    expect(create({ email: 'a@b.co', customFields: { budget: '10k' } }).snapshot.customFields).toEqual({
      '11111111-1111-4111-8111-111111111111': '10k',
    });
    const error = refusal(() => create({ email: 'a@b.co', customFields: { nope: 'x' } }));
    expect(error.code).toBe('invalid_custom_fields');
    expect(error.details).toEqual([expect.objectContaining({ field: 'custom_fields.nope', reason: 'unknown_field' })]);
  });

  it('field violations are reported before custom field violations', () => {
    expect(refusal(() => create({ phone: '1', customFields: { nope: 'x' } })).code).toBe('validation_error');
  });
});

describe('PATCH /v1/contacts/{id} rules (Contact.update)', () => {
  const base = () => create({ email: 'a@b.co', phone: '5145550123', firstName: 'Al', dealValue: 10, customFields: { budget: 'low', superficie: 20 } });

  it('rule 1: at least one field, else no_fields', () => {
    expect(refusal(() => base().update({}, DEFINITIONS, LATER)).code).toBe('no_fields');
  });

  it('rule 2: custom_fields merges with existing values', () => {
    const contact = base();
    contact.update({ customFields: { budget: 'high' } }, DEFINITIONS, LATER);
    expect(contact.snapshot.customFields).toEqual({ '11111111-1111-4111-8111-111111111111': 'high', '22222222-2222-4222-8222-222222222222': 20 });
  });

  it('rule 2: custom_fields null clears all', () => {
    const contact = base();
    const changes = contact.update({ customFields: null }, DEFINITIONS, LATER);
    expect(contact.snapshot.customFields).toEqual({});
    expect(changes.custom_fields.current).toEqual({});
  });

  it('rule 2: an unknown key gives invalid_custom_fields and changes nothing', () => {
    const contact = base();
    const error = refusal(() => contact.update({ firstName: 'Bob', customFields: { nope: 1 } }, DEFINITIONS, LATER));
    expect(error.code).toBe('invalid_custom_fields');
    expect(contact.snapshot.firstName).toBe('Al');
  });

  it('rule 4: a phone not normalising gives details[].reason invalid_phone', () => {
    const error = refusal(() => base().update({ phone: 'abc', firstName: 'Bob' }, DEFINITIONS, LATER));
    expect(error.code).toBe('validation_error');
    expect(error.details).toEqual([expect.objectContaining({ field: 'phone', reason: 'invalid_phone' })]);
  });

  it('rule 4: clearing the last identity field gives identity_required on each field cleared', () => {
    const contact = create({ email: 'a@b.co' });
    expect(refusal(() => contact.update({ email: null }, DEFINITIONS, LATER)).details).toEqual([
      expect.objectContaining({ field: 'email', reason: 'identity_required' }),
    ]);
    const full = base();
    expect(refusal(() => full.update({ email: null, phone: '', firstName: null, lastName: null }, DEFINITIONS, LATER)).details).toEqual([
      expect.objectContaining({ field: 'first_name', reason: 'identity_required' }),
      expect.objectContaining({ field: 'last_name', reason: 'identity_required' }),
      expect.objectContaining({ field: 'email', reason: 'identity_required' }),
      expect.objectContaining({ field: 'phone', reason: 'identity_required' }),
    ]);
  });

  it('clearing the email is allowed while another identity field remains', () => {
    const contact = base();
    contact.update({ email: null }, DEFINITIONS, LATER);
    expect(contact.snapshot.email).toBeNull();
  });

  it('rule 5: changing deal_value of an archived contact gives business_rule_violation contact_archived', () => {
    const contact = base();
    contact.archive(NOW);
    const error = refusal(() => contact.update({ dealValue: 99, notes: 'x' }, DEFINITIONS, LATER));
    expect(error.code).toBe('business_rule_violation');
    expect(error.details).toEqual({ reason: 'contact_archived', field: 'deal_value' });
    expect(contact.snapshot.notes).toBeNull();
    // The same value is not a change; other fields stay writable.
    contact.update({ dealValue: 10, notes: 'x' }, DEFINITIONS, LATER);
    expect(contact.snapshot.notes).toBe('x');
  });

  it('reports the changed public fields with previous and current values and moves updated_at', () => {
    const contact = base();
    const changes = contact.update({ email: 'NEW@b.co', isPriority: true, firstName: 'Al', dealValue: null }, DEFINITIONS, LATER);
    expect(changes).toEqual({
      email: { previous: 'a@b.co', current: 'new@b.co' },
      is_priority: { previous: false, current: true },
      deal_value: { previous: 10, current: null },
    });
    expect(contact.snapshot.updatedAt).toEqual(LATER);
  });
});

describe('operator lifecycle', () => {
  it('archive, unarchive and disqualify are idempotent', () => {
    const contact = create({ email: 'a@b.co' });
    expect(contact.archive(NOW)).toBe(true);
    expect(contact.archive(LATER)).toBe(false);
    expect(contact.snapshot.archivedAt).toEqual(NOW);
    expect(contact.unarchive(LATER)).toBe(true);
    expect(contact.unarchive(LATER)).toBe(false);
    expect(contact.disqualify(NOW)).toBe(true);
    expect(contact.disqualify(LATER)).toBe(false);
  });

  it('merge marks the contact absorbed; unmerge restores it; a contact cannot absorb itself', () => {
    const contact = create({ email: 'a@b.co' });
    expect(refusal(() => contact.mergeInto('c1', NOW)).details).toEqual([expect.objectContaining({ field: 'into_contact_id' })]);
    contact.mergeInto('c2', NOW);
    expect(contact.isMerged).toBe(true);
    expect(contact.unmerge(LATER)).toBe(true);
    expect(contact.isMerged).toBe(false);
    expect(contact.unmerge(LATER)).toBe(false);
  });
});

describe('initial lead score (README › Decisions › Lead score)', () => {
  const lead = {
    firstName: 'Élise',
    lastName: null,
    email: 'elise@example.test',
    phone: '+15145550142',
    customFields: {},
    address: { city: 'Laval' },
    attribution: { source: 'facebook', medium: 'paid_social' },
    sourceLabel: 'Formulaire cuisine',
    notes: null,
  };
  const placement = { pipelineId: null, stageId: null, dealValueCents: null, expectedCloseDate: null, salesRepId: null, sent: [] };
  const context = { id: 'c1', accountId: asAccountId('a1'), systemId: 's1', source: 'api', now: NOW, definitions: [] };
  const WEEK_LATER = new Date(NOW.getTime() + 7 * 24 * 60 * 60 * 1000 + 1);

  it('a contact created through the API: its profile and recency, no consent, not a funnel', () => {
    // email 5 + phone 5 + name 4 + company 2 = 16; recency 15
    const contact = create({ email: 'a@b.co', phone: '514-555-0123', firstName: 'Al', company: 'Tremblay' });
    expect(contact.snapshot).toMatchObject({ score: 31, scoreReviewAt: WEEK_LATER });
  });

  it('a contact created by lead capture: a funnel with SMS consent and its attribution', () => {
    // profile 5 + 5 + 4 + 2 (city) = 16; SMS consent 6; funnel 4 + campaign 3 = 7; recency 15
    expect(Contact.fromLead(lead, placement, context).snapshot).toMatchObject({ score: 44, scoreReviewAt: WEEK_LATER });
  });

  it('a funnel contact without SMS consent (a presuasion submission that did not give it)', () => {
    expect(Contact.fromLead(lead, placement, { ...context, smsConsent: false }).snapshot.score).toBe(38);
  });

  it('updates leave the score as it is (the worker recomputes it)', () => {
    const contact = create({ email: 'a@b.co' });
    const before = contact.snapshot.score;
    contact.update({ phone: '514-555-0123', company: 'Tremblay' }, DEFINITIONS, LATER);
    expect(contact.snapshot.score).toBe(before);
  });
});

describe('type of ContactPatch', () => {
  it('undefined members are absent', () => {
    const patch: ContactPatch = { email: undefined };
    expect(refusal(() => create({ email: 'a@b.co' }).update(patch, DEFINITIONS, LATER)).code).toBe('no_fields');
  });
});
